/**
 * Live updates (`GET /api/businesses/:id/changes`, ADR 025): a `text/event-stream` of small
 * notices saying what of the business changed, never what it now is — the screens read that
 * through the ordinary endpoints, with the person's own access. Plain values, without zod: the
 * portal's frame reads the stream on every page (its schema for the API is in `schemas.ts`).
 */
export const LIVE_CHANGE_KINDS = ['business', 'request', 'payer', 'balances', 'payout'] as const;
export type LiveChangeKind = (typeof LIVE_CHANGE_KINDS)[number];

/** `id`: the business, request or payer that changed; null when several of that kind did. */
export interface LiveChange {
  kind: LiveChangeKind;
  id: string | null;
}

/**
 * The stream's events: `ready` once the subscription is live (anything changed before it was
 * missed, so a reconnecting screen reads afresh), then a `change` per notice. Comment lines
 * keep idle connections open through proxies.
 */
export const LIVE_EVENTS = { ready: 'ready', change: 'change' } as const;

/** A notice as {@link LiveChange} describes it, or null for anything else. */
export function readLiveChange(value: unknown): LiveChange | null {
  if (typeof value !== 'object' || value === null) return null;
  const { kind, id } = value as Record<string, unknown>;
  if (typeof kind !== 'string' || !(LIVE_CHANGE_KINDS as readonly string[]).includes(kind)) return null;
  if (id !== null && typeof id !== 'string') return null;
  return { kind: kind as LiveChangeKind, id };
}
