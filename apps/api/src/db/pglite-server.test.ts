import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guard, lastReadyStatus, PgliteServer, statementChange } from './pglite-server';

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

describe('PgliteServer: named statements shared by every client', () => {
  /** Every connection of a fresh pool, each running the named statement once, together. */
  async function onEveryConnection<T>(size: number, run: (client: pg.PoolClient, i: number) => Promise<T>): Promise<T[]> {
    const fresh = new pg.Pool({ ...connection, max: size });
    try {
      const clients = await Promise.all(Array.from({ length: size }, () => fresh.connect()));
      try {
        return await Promise.all(clients.map((client, i) => run(client, i)));
      } finally {
        for (const client of clients) client.release();
      }
    } finally {
      await fresh.end();
    }
  }
  const prepared = async (name: string) =>
    Number((await pool.query<{ n: string }>('SELECT count(*) AS n FROM pg_prepared_statements WHERE name = $1', [name])).rows[0]!.n);

  it('the first connection prepares a name for all: the others use it without preparing it again', async () => {
    const text = 'SELECT $1::int * 2 AS doubled';
    const results = await onEveryConnection(8, (client, i) => client.query({ name: 's_shared', text, values: [i] }));
    expect(results.map((r) => r.rows[0].doubled)).toEqual([0, 2, 4, 6, 8, 10, 12, 14]);
    expect(await prepared('s_shared')).toBe(1);
    // And again later, interleaved with other work, from connections that never prepared it.
    const again = await onEveryConnection(4, (client, i) => client.query({ name: 's_shared', text, values: [i + 10] }));
    expect(again.map((r) => r.rows[0].doubled)).toEqual([20, 22, 24, 26]);
  });

  it('a name the session holds with another text is refused, as PostgreSQL refuses it', async () => {
    await pool.query({ name: 's_taken', text: 'SELECT 1 AS one', values: [] });
    const other = new pg.Client(connection);
    await other.connect();
    try {
      await expect(other.query({ name: 's_taken', text: 'SELECT 2 AS two', values: [] })).rejects.toThrow(/already exists/);
      expect((await other.query('SELECT 3 AS three')).rows[0]).toEqual({ three: 3 });
    } finally {
      await other.end();
    }
  });

  it('a statement that failed to prepare is not taken as prepared', async () => {
    const results = await onEveryConnection(3, (client) =>
      client.query({ name: 's_broken', text: 'SELEC 1', values: [] }).then(
        () => 'ran',
        (error: Error) => error.message,
      ),
    );
    expect(results).toEqual(Array(3).fill('syntax error at or near "SELEC"'));
    expect(await prepared('s_broken')).toBe(0);
  });

  it('a statement prepared inside a transaction that rolls back stays prepared, as in PostgreSQL', async () => {
    const text = 'SELECT $1::text AS said';
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query({ name: 's_in_tx', text, values: ['first'] });
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
    const results = await onEveryConnection(2, (c) => c.query({ name: 's_in_tx', text, values: ['later'] }));
    expect(results.map((r) => r.rows[0].said)).toEqual(['later', 'later']);
  });

  it('after DEALLOCATE the next connection prepares the name again', async () => {
    const text = 'SELECT $1::int + 1 AS next';
    await onEveryConnection(2, (c) => c.query({ name: 's_dropped', text, values: [1] }));
    await pool.query('DEALLOCATE s_dropped');
    expect(await prepared('s_dropped')).toBe(0);
    // Were the name still taken as held, its Parse would be skipped and Bind would find nothing.
    const results = await onEveryConnection(2, (c) => c.query({ name: 's_dropped', text, values: [2] }));
    expect(results.map((r) => r.rows[0].next)).toEqual([3, 3]);
    expect(await prepared('s_dropped')).toBe(1);
    await pool.query('DEALLOCATE ALL');
    expect(await prepared('s_dropped')).toBe(0);
    expect((await onEveryConnection(2, (c) => c.query({ name: 's_dropped', text, values: [5] }))).map((r) => r.rows[0].next)).toEqual([6, 6]);
  });

  it('tells which messages change the named statements', () => {
    const message = (type: string, body: number[]) => new Uint8Array([type.charCodeAt(0), 0, 0, 0, 4 + body.length, ...body]);
    const text = (t: string) => [...Buffer.from(t), 0];
    const parse = statementChange(message('P', [...text('k_1'), ...text('SELECT 1'), 0, 0]));
    expect(parse).toMatchObject({ kind: 'parse', name: 'k_1' });
    expect(Buffer.from((parse as { body: Uint8Array }).body)).toEqual(Buffer.from([...text('SELECT 1'), 0, 0]));
    expect(statementChange(message('C', [0x53, ...text('k_1')]))).toEqual({ kind: 'close', name: 'k_1' });
    expect(statementChange(message('C', [0x50, ...text('portal')]))).toBeNull();
    expect(statementChange(message('Q', text('DEALLOCATE PREPARE K_1;')))).toEqual({ kind: 'deallocate', name: 'k_1' });
    expect(statementChange(message('Q', text('deallocate "Mixed"')))).toEqual({ kind: 'deallocate', name: 'Mixed' });
    expect(statementChange(message('Q', text('DEALLOCATE ALL')))).toEqual({ kind: 'deallocate', name: null });
    expect(statementChange(message('Q', text('discard all')))).toEqual({ kind: 'deallocate', name: null });
    expect(statementChange(message('Q', text('SELECT 1')))).toBeNull();
    expect(statementChange(message('B', [0, 0]))).toBeNull();
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

describe('PgliteServer.lockDown: the session becomes a role and stays it', () => {
  let locked: PGlite;
  let lockedServer: PgliteServer;
  let client: pg.Client;

  beforeAll(async () => {
    locked = await PGlite.create();
    await locked.exec(`CREATE ROLE app_only NOLOGIN; CREATE TABLE kept (id int); GRANT SELECT ON kept TO app_only;
      REVOKE USAGE ON LANGUAGE plpgsql FROM PUBLIC; REVOKE EXECUTE ON FUNCTION set_config(text, text, boolean) FROM PUBLIC`);
    lockedServer = new PgliteServer(locked);
    const { port } = await lockedServer.listen({ host: '127.0.0.1', port: 0 });
    await lockedServer.lockDown('app_only');
    client = new pg.Client({ host: '127.0.0.1', port: port!, user: 'postgres', database: 'postgres' });
    await client.connect();
    // A second PGlite starts slowly on a busy host.
  }, 60_000);
  afterAll(async () => {
    await client.end();
    await lockedServer.close();
    await locked.close();
  });

  const who = async () => (await client.query('SELECT current_user AS current, session_user AS session')).rows[0];

  it('every client is the role, whatever user it names', async () => {
    expect(await who()).toEqual({ current: 'app_only', session: 'app_only' });
    await expect(client.query('INSERT INTO kept VALUES (1)')).rejects.toMatchObject({ code: '42501' });
  });

  it('refuses what would change the role, in simple and extended queries, and goes on', async () => {
    for (const text of ["SET session_authorization = 'postgres'", 'SET SESSION AUTHORIZATION postgres', 'RESET ROLE', 'SELECT 1; SET ROLE postgres']) {
      await expect(client.query(text), text).rejects.toMatchObject({ code: '42501', message: expect.stringMatching(/is refused/) });
      expect(await who()).toEqual({ current: 'app_only', session: 'app_only' });
    }
    await expect(client.query({ name: 'climb', text: 'SET SESSION AUTHORIZATION postgres' })).rejects.toMatchObject({ code: '42501' });
    expect(await who()).toEqual({ current: 'app_only', session: 'app_only' });
    expect((await client.query({ name: 'fine', text: 'SELECT count(*)::int AS n FROM kept WHERE id > $1', values: [0] })).rows[0]).toEqual({ n: 0 });
  });

  it('rewrites only the messages that hold such a statement', () => {
    const text = (t: string) => [...Buffer.from(t), 0];
    const message = (type: string, body: number[]) => new Uint8Array([type.charCodeAt(0), 0, 0, 0, 4 + body.length, ...body]);
    const select = message('Q', text('SELECT 1'));
    expect(guard(select)).toBe(select);
    const bind = message('B', [0, 0, 0, 0, 0, 0, 0, 0]);
    expect(guard(bind)).toBe(bind);
    expect(Buffer.from(guard(message('Q', text('RESET ROLE'))))).toEqual(Buffer.from(message('Q', text("SELECT pg_temp.tay_refused('RESET ROLE')"))));
    // A Parse keeps its statement's name; the refusal takes no parameters.
    expect(Buffer.from(guard(message('P', [...text('s_1'), ...text('SET ROLE x'), 0, 1, 0, 0, 0, 25])))).toEqual(
      Buffer.from(message('P', [...text('s_1'), ...text("SELECT pg_temp.tay_refused('SET ROLE')"), 0, 0])),
    );
  });
});
