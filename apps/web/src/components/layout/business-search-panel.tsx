import '@mantine/spotlight/styles.css';
import { Loader, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { createSpotlight, Spotlight } from '@mantine/spotlight';
import { IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { searchEndpoints } from '@tay/contract';
import { endpointQuery } from '../../lib/endpoint-client';

const [store, search] = createSpotlight();

/** The search text as typed, debounced: one request per pause, not per keystroke. */
const PAUSE_MS = 250;

/**
 * The search box itself (`BusinessSearch` loads it the first time it is asked for): results
 * grouped from the API (`searchEndpoints.search`), each group only where the person's role and the
 * template have it. Keyboard first: arrows move, Enter opens, Escape closes.
 */
export default function BusinessSearchPanel({ businessId, opened, onClose }: { businessId: string; opened: boolean; onClose: () => void }) {
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const [typed] = useDebouncedValue(query.trim(), PAUSE_MS);
  const result = useQuery({
    ...endpointQuery(searchEndpoints.search, { params: { id: businessId }, query: { q: typed } }),
    enabled: typed.length > 0,
    staleTime: 10_000,
  });
  useEffect(() => {
    if (opened) search.open();
  }, [opened]);

  const groups = typed.length > 0 ? (result.data?.groups ?? []) : [];
  const waiting = query.trim() !== typed || result.isFetching;

  return (
    <Spotlight.Root store={store} query={query} onQueryChange={setQuery} shortcut={null} onSpotlightClose={onClose} scrollable maxHeight={480}>
      <Spotlight.Search
        aria-label="Search payers, requests, invoices and more"
        placeholder="Name, e-mail, TRX-, INV- or PAY- number, memo or amount"
        leftSection={waiting && query.trim() ? <Loader size={16} /> : <IconSearch size={18} />}
      />
      <Spotlight.ActionsList aria-label="Search results">
        {groups.map((group) => (
          // Each group named in text (Spotlight's own group label is drawn by CSS, which a screen reader may not read).
          <div key={group.kind} role="group" aria-label={group.label}>
            <Text size="xs" fw={700} c="dimmed" px="md" pt="sm" pb={4} tt="uppercase">
              {group.label}
            </Text>
            {group.hits.map((hit) => (
              <Spotlight.Action key={`${hit.kind}:${hit.id}`} label={hit.title} description={hit.detail} onClick={() => void navigate(hit.href)} />
            ))}
          </div>
        ))}
        {typed.length === 0 ? (
          <Spotlight.Empty>
            <Text size="sm" c="dimmed">
              Type a name, an e-mail, a TRX-, INV- or PAY- number, a memo or an amount.
            </Text>
          </Spotlight.Empty>
        ) : result.error ? (
          <Spotlight.Empty>
            <Text size="sm" c="red">
              {result.error.message}
            </Text>
          </Spotlight.Empty>
        ) : (
          !waiting && groups.length === 0 && <Spotlight.Empty>Nothing in this business matches “{typed}”.</Spotlight.Empty>
        )}
      </Spotlight.ActionsList>
    </Spotlight.Root>
  );
}
