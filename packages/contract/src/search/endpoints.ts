import { z } from 'zod';
import { BusinessIdParams } from '../businesses/schemas';
import { defineEndpoint } from '../common/endpoint';
import { okResponse } from '../common/lists';

/** What the header's search finds, group by group, in this order. */
export const SearchKind = z.enum(['requests', 'invoices', 'payers', 'students', 'patients', 'qrCodes', 'receivers', 'payouts']);
export type SearchKind = z.infer<typeof SearchKind>;

/** Each group's heading. */
export const SEARCH_KIND_LABELS: Record<SearchKind, string> = {
  requests: 'Requests to pay',
  invoices: 'Invoices',
  payers: 'Payers',
  students: 'Students',
  patients: 'Patients',
  qrCodes: 'QR codes',
  receivers: 'Receivers',
  payouts: 'Payouts',
};

/** At most this many hits per group. */
export const SEARCH_HITS_PER_GROUP = 5;

export const SearchQuery = z.object({
  q: z.string({ error: 'Type what to find.' }).trim().min(1, 'Type what to find.').max(100, 'Search for at most 100 characters.'),
});
export type SearchQuery = z.input<typeof SearchQuery>;

export const SearchHit = z.object({
  kind: SearchKind,
  id: z.string(),
  /** The record as people name it: "TRX-10234 · Ana Lopez", "INV-0042", "Ana Lopez". */
  title: z.string(),
  /** One line more: the amount and state, the e-mail, the memo. */
  detail: z.string(),
  /** Where the record opens in the portal (`paths`). */
  href: z.string(),
});
export type SearchHit = z.infer<typeof SearchHit>;

export const SearchResult = z.object({
  query: z.string(),
  groups: z.array(z.object({ kind: SearchKind, label: z.string(), hits: z.array(SearchHit) })),
});
export type SearchResult = z.infer<typeof SearchResult>;

/**
 * One search box for the whole business (the header, ⌘K / Ctrl+K): payers, requests by TRX- or
 * INV- number, memo or amount, invoices, QR codes, students and patients (their templates only),
 * receivers and payouts by PAY- number (payouts enabled only). Every member may search; each group
 * is what the person could list on its own page.
 */
export const searchEndpoints = {
  search: defineEndpoint({
    method: 'GET',
    path: '/api/businesses/:id/search',
    summary: 'Find anything in the business: grouped hits, at most 5 a group',
    tag: 'search',
    access: 'business:read',
    params: BusinessIdParams,
    query: SearchQuery,
    response: okResponse(SearchResult),
  }),
};
