import { sql, type SelectQueryBuilder } from 'kysely';

/** A page of a list, as every list endpoint answers it (`page` counts from 1). */
export interface PlainPage<T> {
  items: T[];
  page: number;
  pageSize: number;
  total: number;
}

/**
 * One page of a plain list (ADR 043): the rows of `rows` (already filtered and sorted, with a
 * unique last sort key so a page never repeats a row) at the page's offset, and the exact count of
 * `filtered` (the same filter, nothing selected), read at the same time. For the lists a business
 * keeps in the hundreds or thousands; the request history, which grows with every payment, is
 * the history engine's (`apps/api/src/db/history-engine/`).
 */
export async function plainPage<DB, TB extends keyof DB, R, CDB, CTB extends keyof CDB, T>(
  query: { page: number; pageSize: number },
  rows: SelectQueryBuilder<DB, TB, R>,
  filtered: SelectQueryBuilder<CDB, CTB, object>,
  toItems: (rows: R[]) => T[] | Promise<T[]>,
): Promise<PlainPage<T>> {
  const [found, count] = await Promise.all([
    rows
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute(),
    filtered.select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items: await toItems(found), page: query.page, pageSize: query.pageSize, total: Number((count as { n: string }).n) };
}
