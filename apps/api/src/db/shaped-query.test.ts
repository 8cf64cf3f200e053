import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { RequestState } from '@tay/contract';
import type { DB } from './schema';
import { shapedQuery, type Params } from './shaped-query';

const db = new Kysely<DB>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

type Shape = { byPayer: boolean; limit: number };
type Values = { businessId: string; states: RequestState[]; payerId: string | undefined };

function counted() {
  let builds = 0;
  const query = shapedQuery((s: Shape, p: Params<Values>, k) => {
    builds++;
    let q = k.selectFrom('payment_requests').select('id').where('business_id', '=', p.businessId).where('memo', '=', 'fixed');
    if (p.states.length > 0) q = q.where('state', 'in', p.states);
    if (s.byPayer) q = q.where('payer_id', '=', p.payerId);
    return q.limit(sql.lit(s.limit));
  });
  return { query, builds: () => builds };
}

describe('shapedQuery', () => {
  it('builds a shape once and gives each execution its own values, in place', () => {
    const { query, builds } = counted();
    const a = query(db, { byPayer: true, limit: 25 }, { businessId: 'biz_a', states: ['Paid', 'Sent'], payerId: 'pyr_a' });
    const b = query(db, { byPayer: true, limit: 25 }, { businessId: 'biz_b', states: ['Error', 'Draft'], payerId: 'pyr_b' });
    expect(builds()).toBe(1);
    expect(b.sql).toBe(a.sql);
    expect(a.sql).toBe('select "id" from "payment_requests" where "business_id" = $1 and "memo" = $2 and "state" in ($3, $4) and "payer_id" = $5 limit 25');
    // A constant the builder wrote stays as it was; every value is the execution's own.
    expect(a.parameters).toEqual(['biz_a', 'fixed', 'Paid', 'Sent', 'pyr_a']);
    expect(b.parameters).toEqual(['biz_b', 'fixed', 'Error', 'Draft', 'pyr_b']);
  });

  it('builds again for another shape or another list length, never reusing a wrong text', () => {
    const { query, builds } = counted();
    const one = query(db, { byPayer: false, limit: 25 }, { businessId: 'biz_a', states: ['Paid'], payerId: undefined });
    const two = query(db, { byPayer: false, limit: 25 }, { businessId: 'biz_a', states: ['Paid', 'Sent'], payerId: undefined });
    const none = query(db, { byPayer: false, limit: 25 }, { businessId: 'biz_a', states: [], payerId: undefined });
    const fifty = query(db, { byPayer: false, limit: 50 }, { businessId: 'biz_a', states: [], payerId: undefined });
    expect(builds()).toBe(4);
    expect(one.sql).toContain('"state" in ($3)');
    expect(two.sql).toContain('"state" in ($3, $4)');
    expect(none.sql).not.toContain('"state"');
    expect(fifty.sql).toMatch(/limit 50$/);
    expect(two.parameters).toEqual(['biz_a', 'fixed', 'Paid', 'Sent']);
  });

  it('compiles raw SQL templates with the database given', () => {
    const query = shapedQuery((_: null, p: Params<{ id: string }>) => sql<{ id: string }>`SELECT id FROM payers WHERE id = ${p.id} OR email = ${p.id}`);
    const compiled = query(db, null, { id: 'pyr_1' });
    expect(compiled.sql).toBe('SELECT id FROM payers WHERE id = $1 OR email = $2');
    expect(compiled.parameters).toEqual(['pyr_1', 'pyr_1']);
  });

  it('refuses a builder that reads a value the caller did not give', () => {
    const query = shapedQuery((_: null, p: Params<{ id: string; other: string }>, k) => k.selectFrom('payers').select('id').where('id', '=', p.other));
    expect(() => query(db, null, { id: 'pyr_1' } as unknown as { id: string; other: string })).toThrow('no value named "other"');
  });
});
