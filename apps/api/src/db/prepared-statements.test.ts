import type pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { MAX_PREPARED_PER_CONNECTION, preparingPool, statementName } from './prepared-statements';

function fakePool() {
  const calls: unknown[][] = [];
  const client = { query: vi.fn((...args: unknown[]) => (calls.push(args), Promise.resolve({ rows: [] }))), release: vi.fn() };
  const pool = { connect: vi.fn(async () => client), end: vi.fn(async () => {}) } as unknown as pg.Pool;
  return { pool, client, calls };
}

describe('preparingPool', () => {
  it('sends queries as named statements, one stable name per text', async () => {
    const { pool, calls } = fakePool();
    const client = await preparingPool(pool).connect();
    await client.query('select * from payers where business_id = $1', ['b1']);
    await client.query('select * from payers where business_id = $1', ['b2']);
    await client.query('  WITH x AS (select 1) select * from x', []);
    expect(calls[0]).toEqual([
      { name: statementName('select * from payers where business_id = $1'), text: 'select * from payers where business_id = $1', values: ['b1'] },
    ]);
    expect((calls[1]![0] as { name: string }).name).toBe((calls[0]![0] as { name: string }).name);
    expect((calls[2]![0] as { name: string }).name).toMatch(/^k_[0-9a-f]{20}$/);
  });

  it('leaves transaction control and cursors as they are', async () => {
    const { pool, calls } = fakePool();
    const client = await preparingPool(pool).connect();
    await client.query('begin', []);
    const cursor = { submit: () => {} };
    await (client.query as unknown as (c: unknown) => unknown)(cursor);
    expect(calls[0]).toEqual(['begin', []]);
    expect(calls[1]![0]).toBe(cursor);
  });

  it('stops naming new texts past the cap on one connection, but keeps using the ones it has', async () => {
    const { pool, calls } = fakePool();
    const client = await preparingPool(pool).connect();
    for (let i = 0; i < MAX_PREPARED_PER_CONNECTION; i++) await client.query(`select ${i}`, []);
    await client.query('select 1 + 1', []);
    await client.query('select 0', []);
    expect(calls.at(-2)).toEqual(['select 1 + 1', []]);
    expect(calls.at(-1)![0]).toMatchObject({ name: statementName('select 0') });
  });
});

describe('preparingPool when a connection is lost under a statement', () => {
  /** Clients whose first one loses its connection on its first statement. */
  function losingPool() {
    const lost = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', syscall: 'read' });
    const clients = [0, 1].map((n) => ({
      n,
      query: vi.fn(() => (n === 0 ? Promise.reject(lost) : Promise.resolve({ rows: [{ n }] }))),
      release: vi.fn(),
    }));
    let next = 0;
    const pool = { connect: vi.fn(async () => clients[next++]), end: vi.fn(async () => {}) } as unknown as pg.Pool;
    return { pool, clients };
  }

  it('sends a read again on a new connection, and the broken one leaves the pool', async () => {
    const { pool, clients } = losingPool();
    const client = await preparingPool(pool).connect();
    const result = await client.query('select * from payers where business_id = $1', ['b1']);
    expect(result.rows).toEqual([{ n: 1 }]);
    expect(clients[0]!.release).toHaveBeenCalledWith(expect.objectContaining({ code: 'ECONNRESET' }));
    client.release();
    expect(clients[1]!.release).toHaveBeenCalledTimes(1);
  });

  it('never sends a write or a statement of a transaction again', async () => {
    for (const statements of [['insert into payers values ($1)'], ['begin', 'select * from payers']]) {
      const { pool } = losingPool();
      const client = await preparingPool(pool).connect();
      let failed: unknown = null;
      for (const text of statements) {
        try {
          await client.query(text, []);
        } catch (error) {
          failed = error;
          break;
        }
      }
      expect(failed).toMatchObject({ code: 'ECONNRESET' });
      expect(pool.connect).toHaveBeenCalledTimes(1);
    }
  });
});
