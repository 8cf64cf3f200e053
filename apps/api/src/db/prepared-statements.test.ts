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
