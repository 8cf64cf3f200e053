import type { Insertable, InsertObject } from 'kysely';
import { newId } from '../lib/ids';
import type { Executor } from './executor';
import type { DB } from './schema';

/** The tables whose rows have an id of their own and belong to a business. */
type OwnedTable = { [T in keyof DB]: DB[T] extends { id: unknown; business_id: unknown } ? T : never }[keyof DB];

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
