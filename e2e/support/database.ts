import pg from 'pg';
import { inject } from 'vitest';

/**
 * A statement on the browser tests' server's own database, for what a journey cannot wait for
 * (payments made on another day): the PostgreSQL database in DATABASE_URL, or the embedded one
 * through the socket the server keeps in its data directory (`apps/api/src/db/database.ts`).
 */
export async function sql<T extends object = Record<string, unknown>>(text: string, values: unknown[] = []): Promise<T[]> {
  const env = inject('serverEnv');
  const client = new pg.Client(
    env.DATABASE_URL ? { connectionString: env.DATABASE_URL } : { host: env.DATA_DIR, port: 5432, user: 'postgres', database: 'postgres' },
  );
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}
