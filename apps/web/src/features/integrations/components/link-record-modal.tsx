import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { INTEGRATION_PROVIDER_LABELS, PayerLinkBody, type IntegrationProvider, type SyncLogEntry } from '@tay/contract';
import { useLinkPayer } from '../api/integrations-api';

/** Where the person finds the id of a record already at the provider. */
const WHERE_THE_ID_IS: Record<IntegrationProvider, string> = {
  quickbooks: 'Open the customer in QuickBooks Online: its id is the number after “nameId=” in the page’s address.',
  freshbooks: 'Open the client in FreshBooks: its number is the last part of the page’s address.',
};

function LinkForm({ provider, entry, onClose }: { provider: IntegrationProvider; entry: SyncLogEntry; onClose: () => void }) {
  const { name, customer } = INTEGRATION_PROVIDER_LABELS[provider];
  const word = customer.toLowerCase();
  const [remoteId, setRemoteId] = useState('');
  const [error, setError] = useState<string | undefined>();
  const link = useLinkPayer();

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = PayerLinkBody.safeParse({ remoteId });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    link.mutate(
      { provider, payerId: entry.recordId!, remoteId: parsed.data.remoteId },
      {
        onSuccess: (written) => {
          notifications.show({
            color: 'teal',
            title: `${entry.recordLabel} linked to ${name} ${word} ${parsed.data.remoteId}`,
            message: written.message ?? '',
          });
          onClose();
        },
        // The API's words, beside the id they are about (no such customer, linked to another payer, a sync running).
        onError: (failure) => setError(failure.message),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Text size="sm">
          {entry.recordLabel} is already in {name}? Link this payer to that {word}: Tay then updates it instead of creating another, and this payer’s invoices
          go to it.
        </Text>
        <TextInput
          label={`${name} ${word} id`}
          description={WHERE_THE_ID_IS[provider]}
          required
          inputMode="numeric"
          autoComplete="off"
          data-autofocus
          value={remoteId}
          error={error}
          onChange={(e) => {
            setRemoteId(e.currentTarget.value);
            setError(undefined);
          }}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={link.isPending}>
            Link
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** "Link to an existing record" of a payer's failed row in the sync log: the provider's id of the customer already there. */
export function LinkRecordModal({ provider, entry, onClose }: { provider: IntegrationProvider; entry: SyncLogEntry | null; onClose: () => void }) {
  const { name, customer } = INTEGRATION_PROVIDER_LABELS[provider];
  return (
    <Modal opened={entry !== null} onClose={onClose} title={entry ? `Link ${entry.recordLabel} to an existing ${name} ${customer.toLowerCase()}` : ''}>
      {entry && <LinkForm key={entry.id} provider={provider} entry={entry} onClose={onClose} />}
    </Modal>
  );
}
