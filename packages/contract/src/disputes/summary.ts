import { z } from 'zod';
import { BusinessIdParams } from '../businesses/schemas';
import { AREA } from '../common/areas';
import { defineEndpoint } from '../common/endpoint';

/*
 * Home's "Needs response" (ADR 051), apart from the rest of the disputes' contract
 * (`./disputes.ts`): Home calls this one endpoint, and a page that imports only this module loads
 * none of the disputes' schemas, nor zod (ADR 050).
 */

/** Days (whole, rounded up) until the evidence is due; 0 on the due day, negative once past. */
export function daysLeft(dueAt: string, now: Date = new Date()): number {
  return Math.ceil((new Date(dueAt).getTime() - now.getTime()) / 86_400_000);
}

/** "3 days left", "1 day left", "Due today", "Overdue". */
export function daysLeftLabel(dueAt: string, now: Date = new Date()): string {
  const days = daysLeft(dueAt, now);
  if (new Date(dueAt).getTime() <= now.getTime()) return 'Overdue';
  if (days <= 0) return 'Due today';
  return `${days} day${days === 1 ? '' : 's'} left`;
}

/** How many disputes wait for an answer, and the soonest due. */
export const DisputeSummary = z.object({ needsResponseCount: z.number(), nextDueAt: z.string().nullable() });
export type DisputeSummary = z.infer<typeof DisputeSummary>;

/** Listed with the others as `disputeEndpoints.summary`. */
export const disputeSummaryEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/businesses/:id/disputes/summary',
  summary: 'How many disputes need a response, and when the soonest is due',
  tag: AREA.paymentRequests,
  access: 'business:read',
  params: BusinessIdParams,
  response: z.object({ status: z.literal('Success'), data: DisputeSummary }),
});
