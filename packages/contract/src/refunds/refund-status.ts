/**
 * What refunds did to a request (ADR 051), beside its paid state: zod-free, for the history's
 * badges and row actions. Refunds pending or succeeded count: their money has left the balance.
 */
export const REFUND_STATUSES = ['Refunded', 'PartiallyRefunded'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];
export const REFUND_STATUS_LABELS: Record<RefundStatus, string> = { Refunded: 'Refunded', PartiallyRefunded: 'Partially refunded' };

/** The history's refund filter: any refund, or the request refunded in full or in part. */
export const REFUND_FILTERS = ['any', ...REFUND_STATUSES] as const;
export type RefundFilter = (typeof REFUND_FILTERS)[number];

interface Refundable {
  amountPaidCents: number;
  refundedCents: number;
}

/** Refunded once everything received went back; PartiallyRefunded while some of it stays; null with no refund. */
export function refundStatusOf({ amountPaidCents, refundedCents }: Refundable): RefundStatus | null {
  if (refundedCents <= 0) return null;
  return refundedCents >= amountPaidCents ? 'Refunded' : 'PartiallyRefunded';
}

/** What can still be refunded of a request: what was received less what was refunded. */
export function refundableCents({ amountPaidCents, refundedCents }: Refundable): number {
  return Math.max(0, amountPaidCents - refundedCents);
}
