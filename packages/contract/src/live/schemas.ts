import { z } from 'zod';

/**
 * Live updates (`GET /api/businesses/:id/changes`, ADR 025): a `text/event-stream` of small
 * notices saying what of the business changed, never what it now is — the screens read that
 * through the ordinary endpoints, with the person's own access.
 */
export const LiveChangeKind = z.enum(['business', 'request', 'payer', 'balances', 'payout']);
export type LiveChangeKind = z.infer<typeof LiveChangeKind>;

/** `id`: the business, request or payer that changed; null when several of that kind did. */
export const LiveChange = z.object({ kind: LiveChangeKind, id: z.string().nullable() });
export type LiveChange = z.infer<typeof LiveChange>;

/**
 * The stream's events: `ready` once the subscription is live (anything changed before it was
 * missed, so a reconnecting screen reads afresh), then a `change` per notice. Comment lines
 * keep idle connections open through proxies.
 */
export const LIVE_EVENTS = { ready: 'ready', change: 'change' } as const;
