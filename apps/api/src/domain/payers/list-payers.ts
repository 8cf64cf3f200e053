import { sql, type Kysely } from 'kysely';
import type { Payer } from '@tay/contract';
import type { DB } from '../../db/schema';
import { filterPayers, sortExpression, type PayerQuery } from './payer-query';
import { selectPayers, toPayer } from './payer-record';
import { plainPage } from '../../db/plain-list';

export interface PayerPage {
  items: Payer[];
  page: number;
  pageSize: number;
  total: number;
}

/**
 * GET /api/businesses/:id/payers: one page (first page 1) with the exact total. A plain list
 * (offset paging and a count), not the history engine: ADR 043.
 */
export async function listPayers({ db, businessId, query }: { db: Kysely<DB>; businessId: string; query: PayerQuery }): Promise<PayerPage> {
  const direction = query.sortDirection === 'asc' ? sql`asc` : sql`desc`;
  return plainPage(
    query,
    filterPayers(selectPayers(db), businessId, query)
      .orderBy(sql`${sortExpression(query.sortBy)} ${direction}`)
      .orderBy(sql`payers.id ${direction}`),
    filterPayers(db.selectFrom('payers'), businessId, query),
    (rows) => rows.map(toPayer),
  );
}
