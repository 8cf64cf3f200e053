import { Alert } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { formatMoney } from '@tay/contract';

/**
 * A balance below zero after refunds the business allowed (ADR 051): what it is and what it
 * stops — the API refuses every payout approval until payments bring it back above $0.00.
 * Nothing when the balance is zero or more.
 */
export function NegativeBalanceAlert({ availableCents }: { availableCents: number }) {
  if (availableCents >= 0) return null;
  return (
    <Alert color="orange" icon={<IconAlertTriangle />} title="Payouts are paused">
      Refunds took your available balance to {formatMoney(availableCents)}. No payout can be approved until payments bring it back above $0.00.
    </Alert>
  );
}
