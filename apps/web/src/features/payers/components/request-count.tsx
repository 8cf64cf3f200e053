import { Text } from '@mantine/core';
import type { Payer } from '@tay/contract';

/**
 * How many requests the payer's Transactions page lists (every state but Draft), and the drafts
 * beside it: drafts are not in that history, yet they keep the payer from being deleted.
 */
export function RequestCount({ payer }: { payer: Pick<Payer, 'historyCount' | 'draftCount'> }) {
  return (
    <span>
      {payer.historyCount}
      {payer.draftCount > 0 && (
        <Text span size="xs" c="dimmed">
          {' '}
          + {payer.draftCount} {payer.draftCount === 1 ? 'draft' : 'drafts'}
        </Text>
      )}
    </span>
  );
}
