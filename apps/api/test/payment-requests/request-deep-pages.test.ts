// PostgreSQL pass: the history's keyset pages at depth.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvedBusiness, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { get } from '../support/identity';
import { createTestApp, type TestApp } from '../support/test-app';

// Pages far down by their number are found from per-day counts (migration 0012) rather than by
// walking every row before them. Each page must be exactly the page a plain ORDER BY … OFFSET gives.

let t: TestApp;
const db = () => t.runtime.database.db;
let biz: ApprovedBusiness;
const ROWS = 6_000;
const PAGE = 100;

beforeAll(async () => {
  t = await createTestApp();
  biz = await approvedBusiness(t.app, db(), 'owner@deep-pages.example');
  const other = await approvedBusiness(t.app, db(), 'owner@deep-pages-other.example');
  for (const b of [biz, other]) {
    const payer = await insertPayer(db(), b.businessId, { email: `payer@${b.businessId}.example`, displayName: 'Deep Payer' });
    // Uneven days (busy at first, sparse later), many rows sharing a minute (ties broken by id),
    // and a mix of states, drafts among them.
    await sql`
      INSERT INTO payment_requests (business_id, id, number, payer_id, payer_display_name, payer_email, amount_cents, due_date, expires_on, state, send_at, created_at)
      SELECT ${b.businessId}, 'req_deep_' || ${b.businessId} || '_' || lpad(g::text, 5, '0'), 70000 + g, ${payer}, 'Deep Payer', 'deep@payers.example', g,
             current_date, current_date + 30, s, CASE WHEN s = 'Pending' THEN now() + interval '1 day' END,
             timestamptz '2026-01-01 20:00:00+00' + make_interval(mins => (g * g / 3000)::int)
      FROM (SELECT g, CASE WHEN g % 10 = 1 THEN 'Draft' WHEN g % 10 = 0 THEN 'Paid' WHEN g % 13 = 0 THEN 'Expired' WHEN g % 29 = 0 THEN 'Pending' ELSE 'Sent' END AS s
            FROM generate_series(1, ${ROWS}) g) x`.execute(db());
  }
});
afterAll(async () => t?.close());

/** The page as a plain walk over every matching row gives it: the ground truth. */
async function truth(view: 'history' | 'draft', states: string[], direction: 'asc' | 'desc', page: number): Promise<string[]> {
  const dir = sql.raw(direction);
  const { rows } = await sql<{ id: string }>`
    SELECT id FROM payment_requests
    WHERE business_id = ${biz.businessId} AND ${view === 'draft' ? sql`state = 'Draft'` : sql`state <> 'Draft'`}
      AND (${states.length === 0} OR state = ANY(${states}))
    ORDER BY created_at ${dir}, id ${dir} OFFSET ${(page - 1) * PAGE} LIMIT ${PAGE}`.execute(db());
  return rows.map((r) => r.id);
}

async function listed(query: string): Promise<{ ids: string[]; total: number }> {
  const res = await get(t.app, `/api/businesses/${biz.businessId}/payment-requests?pageSize=${PAGE}&${query}`, biz.token);
  expect(res.statusCode, res.body).toBe(200);
  const data = res.json().data as { items: { transactionId: string }[]; total: number };
  return { ids: data.items.map((i) => i.transactionId), total: data.total };
}

async function expectEveryPage(view: 'history' | 'draft', states: string[], direction: 'asc' | 'desc') {
  const query = `view=${view}&sortDirection=${direction}${states.length ? `&status=${states.join(',')}` : ''}`;
  const { total } = await listed(`${query}&page=1`);
  expect(total).toBeGreaterThan(0);
  const last = Math.ceil(total / PAGE);
  for (let page = 1; page <= last + 1; page++) {
    expect((await listed(`${query}&page=${page}`)).ids, `${query} page ${page} of ${last}`).toEqual(await truth(view, states, direction, page));
  }
}

/** The per-day counts (per state, and for the history view per day and per hour), recounted from the rows themselves. */
async function expectDayCountsTrue() {
  const { rows } = await sql<{ kept: string; counted: string }>`
    SELECT
      (SELECT string_agg(business_id || ':' || day || ':' || state || ':' || n, ',' ORDER BY business_id, day, state) FROM payment_request_day_counts WHERE n <> 0) AS kept,
      (SELECT string_agg(k, ',' ORDER BY k) FROM (
         SELECT business_id || ':' || floor(extract(epoch FROM created_at) / 86400)::int || ':' || state || ':' || count(*) AS k,
                business_id, floor(extract(epoch FROM created_at) / 86400)::int AS day, state
         FROM payment_requests GROUP BY business_id, day, state ORDER BY business_id, day, state) c) AS counted`.execute(db());
  const sorted = (s: string) => s.split(',').sort();
  expect(sorted(rows[0]!.kept)).toEqual(sorted(rows[0]!.counted));
  const history = await sql<{ kept: string; counted: string }>`
    SELECT
      (SELECT string_agg(business_id || ':' || day || ':' || n, ',' ORDER BY business_id, day) FROM payment_request_history_days WHERE n <> 0) AS kept,
      (SELECT string_agg(business_id || ':' || day || ':' || c, ',' ORDER BY business_id, day) FROM (
         SELECT business_id, floor(extract(epoch FROM created_at) / 86400)::int AS day, count(*) AS c
         FROM payment_requests WHERE state <> 'Draft' GROUP BY 1, 2) h) AS counted`.execute(db());
  expect(history.rows[0]!.kept).toBe(history.rows[0]!.counted);
  const hours = await sql<{ kept: string; counted: string }>`
    SELECT
      (SELECT string_agg(business_id || ':' || hour || ':' || n, ',' ORDER BY business_id, hour) FROM payment_request_history_hours WHERE n <> 0) AS kept,
      (SELECT string_agg(business_id || ':' || hour || ':' || c, ',' ORDER BY business_id, hour) FROM (
         SELECT business_id, floor(extract(epoch FROM created_at) / 3600)::int AS hour, count(*) AS c
         FROM payment_requests WHERE state <> 'Draft' GROUP BY 1, 2) h) AS counted`.execute(db());
  expect(hours.rows[0]!.kept).toBe(hours.rows[0]!.counted);
}

describe('pages far down by their number', () => {
  it('are exactly the pages a walk over every row gives, newest or oldest first, with or without a status filter', async () => {
    await expectDayCountsTrue();
    await expectEveryPage('history', [], 'desc');
    await expectEveryPage('history', [], 'asc');
    await expectEveryPage('history', ['Sent'], 'desc');
    await expectEveryPage('history', ['Paid', 'Expired'], 'asc');
    await expectEveryPage('draft', [], 'desc');
  });

  it('stay exact as requests change state, are deleted and arrive', async () => {
    await sql`UPDATE payment_requests SET state = 'Withdrawn' WHERE business_id = ${biz.businessId} AND state = 'Sent' AND amount_cents % 17 = 0`.execute(db());
    await sql`UPDATE payment_requests SET state = 'Sent', sent_at = now() WHERE business_id = ${biz.businessId} AND state = 'Draft' AND amount_cents % 3 = 0`.execute(
      db(),
    );
    await sql`DELETE FROM payment_requests WHERE business_id = ${biz.businessId} AND state = 'Draft' AND amount_cents % 7 = 0`.execute(db());
    // An update that moves nothing between counts changes no count.
    await sql`UPDATE payment_requests SET memo = 'touched' WHERE business_id = ${biz.businessId} AND amount_cents < 500`.execute(db());
    await expectDayCountsTrue();
    await expectEveryPage('history', [], 'desc');
    await expectEveryPage('history', ['Withdrawn'], 'desc');
    await expectEveryPage('draft', [], 'asc');
  });
});
