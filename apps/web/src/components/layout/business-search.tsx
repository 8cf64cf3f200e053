import { ActionIcon, Button, Kbd, Tooltip } from '@mantine/core';
import { useHotkeys } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';

/** The box and its results, loaded the first time search is asked for: most pages are opened without it. */
const BusinessSearchPanel = lazy(() => import('./business-search-panel'));

/**
 * Find anything in the current business (issue 35): the header's search button and ⌘K / Ctrl+K
 * open one box whose results come grouped from the API (`business-search-panel.tsx`).
 */
export function BusinessSearch({ businessId }: { businessId: string | undefined }) {
  const [asked, setAsked] = useState(false);
  const [opened, setOpened] = useState(false);
  const open = () => {
    setAsked(true);
    setOpened(true);
  };
  useHotkeys([['mod+K', open]]);
  if (!businessId) return null;

  return (
    <>
      <Tooltip label="Search (Ctrl+K)">
        <ActionIcon variant="subtle" color="gray" size="lg" aria-label="Search" onClick={open} hiddenFrom="sm">
          <IconSearch size={20} />
        </ActionIcon>
      </Tooltip>
      <Button
        variant="default"
        size="xs"
        visibleFrom="sm"
        leftSection={<IconSearch size={14} />}
        rightSection={<Kbd size="xs">Ctrl K</Kbd>}
        onClick={open}
        aria-keyshortcuts="Control+K Meta+K"
      >
        Search
      </Button>
      {asked && (
        <Suspense fallback={null}>
          <BusinessSearchPanel businessId={businessId} opened={opened} onClose={() => setOpened(false)} />
        </Suspense>
      )}
    </>
  );
}
