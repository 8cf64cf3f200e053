// PostgreSQL pass: COPY into the database.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyRows } from '../../src/db/copy-in';
import { createTestApp, type TestApp } from '../support/test-app';

// COPY … FROM STDIN is PostgreSQL's: the embedded database's server takes no COPY data.
describe.skipIf(!process.env.DATABASE_URL)('rows copied in with COPY FROM STDIN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('arrive exactly as given — quotes, commas, new lines, empty text, nulls, JSON — inside the caller’s transaction', async () => {
    const db = t.runtime.database.db;
    const tricky = ['a "quoted", comma', 'two\nlines', '', 'ünïcødé ✓', '{"k": ["v", 1]}'];
    const read = await db.transaction().execute(async (trx) => {
      await sql`CREATE TEMP TABLE copied (n int, t text, j jsonb) ON COMMIT DROP`.execute(trx);
      const copied = await copyRows(
        trx,
        'copied',
        ['n', 't', 'j'],
        tricky.map((text, i) => [i, text, JSON.stringify({ text })]),
      );
      expect(copied).toBe(tricky.length);
      await copyRows(trx, 'copied', ['n', 't', 'j'], [[99, null, null]]);
      return (await sql<{ n: number; t: string | null; j: { text: string } | null }>`SELECT n, t, j FROM copied ORDER BY n`.execute(trx)).rows;
    });
    expect(read).toEqual([...tricky.map((text, n) => ({ n, t: text, j: { text } })), { n: 99, t: null, j: null }]);
  });

  it('a bad row fails the COPY and the transaction: nothing is kept', async () => {
    const db = t.runtime.database.db;
    await expect(
      db.transaction().execute(async (trx) => {
        await sql`CREATE TEMP TABLE copied_bad (n int) ON COMMIT DROP`.execute(trx);
        await copyRows(trx, 'copied_bad', ['n'], [[1], ['not a number']]);
      }),
    ).rejects.toThrow(/invalid input syntax/);
    // The connection is usable again afterwards.
    expect((await sql<{ one: number }>`SELECT 1 AS one`.execute(db)).rows[0]!.one).toBe(1);
  });
});
