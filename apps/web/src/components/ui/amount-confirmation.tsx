import { Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useEffect } from 'react';
import { amountInWords, formatMoney } from '@tay/contract';
import { registerAmountConfirmer } from '../../lib/amount-confirmation';

/**
 * The portal's prompt for a large amount (issue 35): when the API asks for a request, invoice or
 * payout above the business's confirmation limit to be confirmed, this asks the person with the
 * amount in figures and in words before it is sent again. Mounted once, with the portal's dialogs.
 */
export function AmountConfirmation() {
  useEffect(
    () =>
      registerAmountConfirmer(
        ({ amountCents }) =>
          new Promise<boolean>((resolve) => {
            modals.openConfirmModal({
              title: 'Confirm a large amount',
              children: (
                <Stack gap="xs">
                  <Text size="sm">This is above your business’s confirmation limit. Check the amount before it goes out:</Text>
                  <Text fz={28} fw={700} data-testid="large-amount">
                    {formatMoney(amountCents)}
                  </Text>
                  <Text size="sm" fs="italic">
                    {amountInWords(amountCents)}
                  </Text>
                </Stack>
              ),
              labels: { confirm: `Yes, send ${formatMoney(amountCents)}`, cancel: 'Go back' },
              onConfirm: () => resolve(true),
              onCancel: () => resolve(false),
              onClose: () => resolve(false),
            });
          }),
      ),
    [],
  );
  return null;
}
