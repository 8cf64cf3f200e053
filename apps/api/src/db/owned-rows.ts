import { sql, type Insertable, type InsertObject, type RawBuilder, type Updateable } from 'kysely';
import { newId } from '../lib/ids';
import type { Executor } from './executor';
import type { DB } from './schema';

/** The tables whose rows have an id of their own and belong to a business. */
type OwnedTable = { [T in keyof DB]: DB[T] extends { id: unknown; business_id: unknown } ? T : never }[keyof DB];

/** The tables whose rows of a business also say when they last changed. */
type DatedTable = { [T in OwnedTable]: DB[T] extends { updated_at: unknown } ? T : never }[OwnedTable];

/**
 * Inserts one row under a new id of `prefix` (`newId`), and gives the id. The row's columns are
 * `values(id)`, so a column that is made from the id (a sealed secret's context, a default
 * name) can use it.
 */
export async function insertNew<T extends OwnedTable>(
  db: Executor,
  table: T,
  prefix: string,
  values: (id: string) => Omit<Insertable<DB[T]>, 'id'>,
): Promise<string> {
  const id = newId(prefix);
  await db
    .insertInto(table)
    .values({ ...values(id), id } as InsertObject<DB, T>)
    .execute();
  return id;
}

/** A row's new values: each column's value, or SQL (`enrolled_count + 1`). */
export type RowChanges<T extends keyof DB> = { [C in keyof Updateable<DB[T]>]?: Updateable<DB[T]>[C] | RawBuilder<unknown> };

/**
 * Changes one row of the business, found by its id, to `set`, and marks it changed now
 * (`updated_at`). What the change means is the caller's to audit.
 */
export async function updateOwned<T extends DatedTable>(db: Executor, table: T, businessId: string, id: string, set: RowChanges<T>): Promise<void> {
  const assignments = Object.entries(set)
    .filter(([, value]) => value !== undefined)
    .map(([column, value]) => sql`${sql.ref(column)} = ${value}`);
  await sql`UPDATE ${sql.table(table)} SET ${sql.join([...assignments, sql`updated_at = now()`])} WHERE business_id = ${businessId} AND id = ${id}`.execute(db);
}
