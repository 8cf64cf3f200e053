import { sql, type SelectQueryBuilder } from 'kysely';
import type { PayerListQuery } from '@tay/contract';
import type { z } from 'zod';
import type { DB } from '../../db/schema';

export type PayerQuery = z.output<typeof PayerListQuery>;
export type PayerSort = PayerQuery['sortBy'];

/** `abc` → `abc%` for LIKE, with LIKE's own wildcards taken literally. */
export function likePrefix(text: string): string {
  return `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The filters of the list and its CSV export, both scoped to the business first so every list
 * index (business_id, …) applies: search is begins-with on the display name or e-mail
 * (case-insensitive; `payers_name_prefix_idx`, `payers_email_prefix_idx`) or the exact reference.
 */
export function filterPayers<O>(
  query: SelectQueryBuilder<DB, 'payers', O>,
  businessId: string,
  q: Pick<PayerQuery, 'search' | 'status' | 'verification'>,
): SelectQueryBuilder<DB, 'payers', O> {
  let out = query.where('payers.business_id', '=', businessId);
  if (q.status) out = out.where('payers.status', '=', q.status);
  if (q.verification) out = out.where('payers.verification', '=', q.verification);
  const search = q.search?.trim();
  if (search) {
    const prefix = likePrefix(search.toLowerCase());
    out = out.where((eb) =>
      eb.or([eb(sql`lower(payers.display_name)`, 'like', prefix), eb('payers.email', 'like', prefix), eb('payers.reference', '=', search)]),
    );
  }
  return out;
}

/**
 * The SQL each sort orders by; ties are broken by id in the same direction. Text sorts compare by
 * code point (`COLLATE "C"`), so the order is the same on every database whatever its locale.
 */
export function sortExpression(sortBy: PayerSort) {
  switch (sortBy) {
    case 'name':
      return sql<string>`lower(payers.display_name) collate "C"`;
    case 'email':
      return sql<string>`payers.email collate "C"`;
    case 'status':
      return sql<string>`payers.status collate "C"`;
    case 'createdAt':
      return sql<string>`payers.created_at`;
  }
}
