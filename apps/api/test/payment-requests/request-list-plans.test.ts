// PostgreSQL pass: the query plans of the history's lists.
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvedBusiness, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { get } from '../support/identity';
import { createTestApp, type TestApp } from '../support/test-app';

// On PostgreSQL each list query is a named prepared statement (ADR 009) that should be planned
// once and then run on its generic plan (ADR 010): planning a search cost more than running it.
// PostgreSQL keeps re-planning a statement whose custom plans look cheaper than the generic one,
// as a prefix range with known bounds does against the column's histogram (ADR 015). One pooled
// connection, so every statement is seen by the session this test asks.

let t: TestApp;
const db = () => t.runtime.database.db;
let biz: ApprovedBusiness;
const onPostgres = () => t.runtime.database.kind === 'postgres';

beforeAll(async () => {
  t = await createTestApp({ DATABASE_POOL_MAX: '1' });
  if (!onPostgres()) return;
  biz = await approvedBusiness(t.app, db(), 'owner@list-plans.example');
  const names = ['Avery', 'Blake', 'Casey', 'Devon', 'Emery', 'Finley', 'Gray', 'Harper', 'Indy', 'Jules'];
  const ids: string[] = [];
  for (const name of names) ids.push(await insertPayer(db(), biz.businessId, { email: `${name.toLowerCase()}@plans.example`, displayName: `${name} Payer` }));
  // Enough rows, with statistics, for the planner to tell one prefix's matches from another's.
  await sql`
    INSERT INTO payment_requests (business_id, id, number, payer_id, payer_display_name, payer_email, amount_cents, due_date, expires_on, state, created_at)
    SELECT ${biz.businessId}, 'req_plans_' || g, 90000 + g, (${ids}::text[])[1 + g % 10],
           (${names}::text[])[1 + g % 10] || ' Payer ' || (g % 500), lower((${names}::text[])[1 + g % 10]) || (g % 500) || '@plans.example',
           1000 + g, current_date, current_date + 30, CASE WHEN g % 3 = 0 THEN 'Paid' ELSE 'Sent' END, now() - make_interval(mins => g)
    FROM generate_series(1, 20000) g`.execute(db());
  // Statistics are the owner's to gather: the app's role may not ANALYZE (ADR 022).
  const owner = new pg.Client({ connectionString: t.ownerUrl });
  await owner.connect();
  await owner.query('ANALYZE payment_requests');
  await owner.end();
});
afterAll(async () => t?.close());

async function plans(marker: string) {
  const { rows } = await sql<{ generic_plans: string; custom_plans: string }>`
    SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE statement LIKE ${`%${marker}%`}`.execute(db());
  return rows.map((r) => ({ generic: Number(r.generic_plans), custom: Number(r.custom_plans) }));
}

describe.runIf(process.env.DATABASE_URL)('history list plans on PostgreSQL', () => {
  it('a search is planned a few times, then runs on its generic plan, whatever the text', async () => {
    expect(onPostgres()).toBe(true);
    // Each matches a few dozen of the 20,000 requests: far fewer than a generic plan assumes.
    const texts = [
      'Casey Payer 122',
      'Avery Payer 100',
      'devon33@',
      'Jules Payer 99',
      'Gray Payer 496',
      'harper17@',
      'Blake Payer 11',
      'Emery Payer 244',
      'Indy Payer 8',
      'finley45@',
      'Casey Payer 2',
      'Avery Payer 490',
    ];
    for (const search of texts) {
      const res = await get(t.app, `/api/businesses/${biz.businessId}/payment-requests?search=${encodeURIComponent(search)}`, biz.token);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.total, search).toBeGreaterThan(0);
    }
    const searches = await plans('~>=~');
    expect(searches).toHaveLength(1);
    // PostgreSQL tries five custom plans before it compares them with the generic one.
    expect(searches[0]).toEqual({ generic: texts.length - 5, custom: 5 });
  });

  it('so do page 1, a status filter and a far page', async () => {
    for (let i = 0; i < 8; i++) {
      for (const query of ['', 'status=Paid', `page=${300 + i}`]) {
        const res = await get(t.app, `/api/businesses/${biz.businessId}/payment-requests?${query}`, biz.token);
        expect(res.statusCode, res.body).toBe(200);
      }
    }
    const all = await plans('t AS MATERIALIZED');
    expect(all.length).toBeGreaterThanOrEqual(3);
    for (const p of all) expect(p.generic, JSON.stringify(all)).toBeGreaterThan(0);
  });
});
