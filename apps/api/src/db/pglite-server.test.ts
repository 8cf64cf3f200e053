import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastReadyStatus, PgliteServer } from './pglite-server';

let db: PGlite;
let server: PgliteServer;
let pool: pg.Pool;
let connection: pg.PoolConfig;

beforeAll(async () => {
  db = await PGlite.create();
  server = new PgliteServer(db);
  const { port } = await server.listen({ host: '127.0.0.1', port: 0 });
  connection = { host: '127.0.0.1', port: port!, user: 'postgres', database: 'postgres' };
  pool = new pg.Pool({ ...connection, max: 10 });
  await pool.query('CREATE TABLE t (id serial PRIMARY KEY, owner int NOT NULL, n int NOT NULL)');
});

afterAll(async () => {
  await pool.end();
  await server.close();
  await db.close();
});

describe('PgliteServer: one session, many clients', () => {
  it('never mixes up the statements of concurrent clients, with and without transactions', async () => {
    const work = Array.from({ length: 400 }, async (_, i) => {
      if (i % 3 === 0) {
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          await client.query('INSERT INTO t (owner, n) VALUES ($1, $2)', [i, i * 2]);
          const { rows } = await client.query<{ n: number }>('SELECT n FROM t WHERE owner = $1', [i]);
          await client.query('COMMIT');
          return rows[0]?.n === i * 2;
        } finally {
          client.release();
        }
      }
      // Different numbers of parameters, so a mixed-up statement fails loudly.
      const params = Array.from({ length: (i % 5) + 1 }, (_, k) => i + k);
      const placeholders = params.map((_, k) => `$${k + 1}::int`).join(' + ');
      const { rows } = await pool.query<{ sum: number }>(`SELECT ${placeholders} AS sum`, params);
      return rows[0]?.sum === params.reduce((a, b) => a + b, 0);
    });
    const results = await Promise.all(work);
    expect(results.every(Boolean)).toBe(true);
  });

  it('a client inside a transaction has the database to itself until it ends', async () => {
    const a = await pool.connect();
    const b = await pool.connect();
    try {
      await a.query('BEGIN');
      await a.query('INSERT INTO t (owner, n) VALUES (-1, 1)');
      let bDone = false;
      const bRead = b.query<{ c: string }>('SELECT count(*) AS c FROM t WHERE owner = -1').then((r) => {
        bDone = true;
        return Number(r.rows[0]!.c);
      });
      await new Promise((r) => setTimeout(r, 100));
      expect(bDone).toBe(false);
      await a.query('COMMIT');
      expect(await bRead).toBe(1);
    } finally {
      a.release();
      b.release();
    }
  });

  it('rolls back the transaction of a client that disconnects inside it', async () => {
    const quitter = new pg.Client(connection);
    await quitter.connect();
    await quitter.query('BEGIN');
    await quitter.query('INSERT INTO t (owner, n) VALUES (-2, 1)');
    await quitter.end();
    const { rows } = await pool.query<{ c: string }>('SELECT count(*) AS c FROM t WHERE owner = -2');
    expect(Number(rows[0]!.c)).toBe(0);
  });

  it('keeps serving after a failed statement inside a transaction', async () => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await expect(client.query('SELECT * FROM no_such_table')).rejects.toThrow(/does not exist/);
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
    expect((await pool.query('SELECT 1 AS one')).rows[0]).toEqual({ one: 1 });
  });
});

describe('lastReadyStatus', () => {
  it('reads the status byte of the last ReadyForQuery', () => {
    const z = (s: string) => [0x5a, 0, 0, 0, 5, s.charCodeAt(0)];
    const c = [0x43, 0, 0, 0, 8, 65, 66, 67, 0];
    expect(lastReadyStatus(new Uint8Array([...c, ...z('T')]))).toBe('T');
    expect(lastReadyStatus(new Uint8Array([...z('T'), ...c, ...z('I')]))).toBe('I');
    expect(lastReadyStatus(new Uint8Array(c))).toBeNull();
  });
});
