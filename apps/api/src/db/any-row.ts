import { sql } from 'kysely';
import type { Executor } from './executor';
import type { DB } from './schema';

/** The tables that belong to a business (their rows carry its id). */
type BusinessTable = { [T in keyof DB]: DB[T] extends { business_id: unknown } ? T : never }[keyof DB];

/**
 * Whether the business has any row of `table` whose columns equal `where`'s values: what is
 * asked before deleting a record those rows name (a program with enrollments, a receiver with a
 * check-in), which then stays on record. One indexed probe, `LIMIT 1`.
 */
export async function anyRow<T extends BusinessTable>(
  db: Executor,
  table: T,
  businessId: string,
  where: Partial<Record<keyof DB[T] & string, string>>,
): Promise<boolean> {
  const conditions = Object.entries(where).map(([column, value]) => sql`${sql.ref(column)} = ${value as string}`);
  const { rows } = await sql`SELECT 1 FROM ${sql.table(table)} WHERE business_id = ${businessId} AND ${sql.join(conditions, sql` AND `)} LIMIT 1`.execute(db);
  return rows.length > 0;
}
