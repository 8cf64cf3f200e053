import { z } from 'zod';

/* ----------------------------------------------------------------- lists */

export const SortDirection = z.enum(['asc', 'desc']);

/** Spec §9: the first page is 1. */
export const PageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
  search: z
    .string()
    .trim()
    .max(100)
    .regex(/^\P{Cc}*$/u, 'Search text cannot contain control characters.')
    .optional(),
  sortDirection: SortDirection.default('desc'),
});

export function listResponse<T extends z.ZodType>(item: T) {
  return z.object({
    status: z.literal('Success'),
    data: z.object({ items: z.array(item), page: z.number(), pageSize: z.number(), total: z.number() }),
  });
}

/**
 * Spec §9: 'Showing X to Y of Z Results'. A page past the last one (rows deleted under it) shows
 * no rows, and says so instead of a range that cannot be, such as 26 to 25.
 */
export function showingSummary(page: number, pageSize: number, total: number): string {
  const from = (Math.max(1, page) - 1) * pageSize + 1;
  if (total <= 0 || from > total) return `Showing 0 to 0 of ${Math.max(0, total)} Results`;
  const to = Math.min(from + pageSize - 1, total);
  return `Showing ${from} to ${to} of ${total} Results`;
}

/** `{ status: 'Success', data }`: the envelope of every JSON success. */
export function okResponse<T extends z.ZodType>(data: T) {
  return z.object({ status: z.literal('Success'), data });
}
