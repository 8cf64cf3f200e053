// PostgreSQL pass: day ranges in the business's time zone, cut by SQL.
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvedBusiness, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { errorOf, get } from '../support/identity';
import { firstColumnOf } from '../support/requests';
import { createTestApp, type TestApp } from '../support/test-app';

// The history's days of a billing report's figures (ADR 039): created (`from`/`to`), first sent
// (`sentFrom`/`sentTo`), a payment processed (`paidFrom`/`paidTo`) or returned
// (`returnedFrom`/`returnedTo`), each in the business's calendar days. Every instant below is late
// in its New York evening, already the next day in UTC, so a filter by UTC days would miss it.

let t: TestApp;
const db = () => t.runtime.database.db;
let mine: ApprovedBusiness;
let theirs: ApprovedBusiness;

/** A request written directly, created and first sent at the given instants, with its payments. */
async function insertRequest(
  biz: ApprovedBusiness,
  number: number,
  at: { created: string; sent: string | null; payments?: { processed: string; returned?: string }[] },
): Promise<string> {
  const payerId = await insertPayer(db(), biz.businessId, { displayName: `Payer ${number}` });
  const id = `req_day_filters_${biz.businessId}_${number}`;
  const returned = (at.payments ?? []).some((p) => p.returned);
  await sql`
    INSERT INTO payment_requests (business_id, id, number, payer_id, payer_display_name, payer_email, amount_cents, amount_paid_cents,
                                  due_date, expires_on, state, created_at, send_at, sent_at, first_sent_at)
    VALUES (${biz.businessId}, ${id}, ${number}, ${payerId}, ${`Payer ${number}`}, ${`p${number}@payers.example`}, 5000, ${at.payments && !returned ? 5000 : 0},
            '2026-03-20', '2026-04-20', ${at.payments ? (returned ? 'Error' : 'Paid') : at.sent ? 'Sent' : 'Pending'},
            ${at.created}::timestamptz, ${at.sent ? null : '2026-04-01T12:00:00Z'}::timestamptz, ${at.sent}::timestamptz, ${at.sent}::timestamptz)`.execute(
    db(),
  );
  for (const [i, p] of (at.payments ?? []).entries()) {
    await db()
      .insertInto('payments')
      .values({
        business_id: biz.businessId,
        id: `pay_${id}_${i}`,
        request_id: id,
        method: 'bank_account',
        instrument: 'Checking •••• 6789',
        amount_cents: 5000,
        fee_cents: 50,
        state: p.returned ? 'Returned' : 'Processed',
        created_at: new Date(p.processed),
        processed_at: new Date(p.processed),
        returned_at: p.returned ? new Date(p.returned) : null,
      })
      .execute();
  }
  return id;
}

async function listed(biz: ApprovedBusiness, query: string): Promise<string[]> {
  const res = await get(t.app, `/api/businesses/${biz.businessId}/payment-requests?pageSize=100&${query}`, biz.token);
  expect(res.statusCode, res.body).toBe(200);
  const data = res.json().data as { items: { referenceNumber: string }[]; total: number };
  // The total is the list's own count, not the business's per-state counts.
  expect(data.total, query).toBe(data.items.length);
  return data.items.map((r) => r.referenceNumber).sort();
}

async function exported(biz: ApprovedBusiness, query: string): Promise<string[]> {
  const res = await get(t.app, `/api/businesses/${biz.businessId}/payment-requests/export.csv?${query}`, biz.token);
  expect(res.statusCode, res.body).toBe(200);
  return firstColumnOf(res.body).sort();
}

const DAYS = ['2026-03-01', '2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05', '2026-03-06', '2026-03-07', '2026-03-08'];

beforeAll(async () => {
  t = await createTestApp();
  mine = await approvedBusiness(t.app, db(), 'owner@day-filters-mine.example');
  theirs = await approvedBusiness(t.app, db(), 'owner@day-filters-theirs.example');
  await db().updateTable('businesses').set({ time_zone: 'America/New_York' }).where('id', 'in', [mine.businessId, theirs.businessId]).execute();

  // TRX-1: created Mar 1 23:30 EST, first sent Mar 3 22:00 EST, paid Mar 5 23:59 EST, and that
  // payment returned Mar 7 23:30 EST (04:30 UTC on Mar 8, the day clocks go forward).
  await insertRequest(mine, 1, {
    created: '2026-03-02T04:30:00Z',
    sent: '2026-03-04T03:00:00Z',
    payments: [{ processed: '2026-03-06T04:59:00Z', returned: '2026-03-08T04:30:00Z' }],
  });
  // TRX-2: created and sent Mar 3 at noon, never paid. TRX-3: scheduled, never sent.
  await insertRequest(mine, 2, { created: '2026-03-03T17:00:00Z', sent: '2026-03-03T17:00:00Z' });
  await insertRequest(mine, 3, { created: '2026-03-03T18:00:00Z', sent: null });
  // Another business's request on the same days as TRX-1.
  await insertRequest(theirs, 1, {
    created: '2026-03-02T04:30:00Z',
    sent: '2026-03-04T03:00:00Z',
    payments: [{ processed: '2026-03-06T04:59:00Z', returned: '2026-03-08T04:30:00Z' }],
  });
});
afterAll(async () => t?.close());

describe('the history filtered by the days of a report’s figures', () => {
  it.each([
    ['from', 'to', '2026-03-01', 'created'],
    ['sentFrom', 'sentTo', '2026-03-03', 'first sent'],
    ['paidFrom', 'paidTo', '2026-03-05', 'paid (processed)'],
    ['returnedFrom', 'returnedTo', '2026-03-07', 'returned'],
  ])('%s/%s finds a request only on the New York day it was %s (%s)', async (start, end, day, _what) => {
    for (const d of DAYS) {
      const trx1 = (await listed(mine, `${start}=${d}&${end}=${d}`)).includes('TRX-1');
      expect(trx1, `${start}=${d}`).toBe(d === day);
    }
  });

  it('lists exactly the requests a report counts on the day: billed, collected, returned', async () => {
    expect(await listed(mine, 'sentFrom=2026-03-03&sentTo=2026-03-03')).toEqual(['TRX-1', 'TRX-2']);
    expect(await listed(mine, 'from=2026-03-03&to=2026-03-03')).toEqual(['TRX-2', 'TRX-3']);
    expect(await listed(mine, 'paidFrom=2026-03-05&paidTo=2026-03-05')).toEqual(['TRX-1']);
    expect(await listed(mine, 'returnedFrom=2026-03-07&returnedTo=2026-03-07')).toEqual(['TRX-1']);
  });

  it('takes open-ended ranges, combines with the other filters, and pages by keyset', async () => {
    expect(await listed(mine, 'sentFrom=2026-03-04')).toEqual([]);
    expect(await listed(mine, 'sentTo=2026-03-03')).toEqual(['TRX-1', 'TRX-2']);
    expect(await listed(mine, 'paidFrom=2026-03-01')).toEqual(['TRX-1']);
    expect(await listed(mine, 'returnedTo=2026-03-06')).toEqual([]);
    expect(await listed(mine, 'sentFrom=2026-03-03&sentTo=2026-03-03&status=Sent')).toEqual(['TRX-2']);
    expect(await listed(mine, 'sentFrom=2026-03-01&sentTo=2026-03-31&paidFrom=2026-03-05&paidTo=2026-03-05')).toEqual(['TRX-1']);
    // Page 2 after TRX-2's row (newest first): TRX-1, from the same sorted matches.
    const first = await get(t.app, `/api/businesses/${mine.businessId}/payment-requests?pageSize=1&sentFrom=2026-03-03&sentTo=2026-03-03`, mine.token);
    expect(first.json().data.items.map((r: { referenceNumber: string }) => r.referenceNumber)).toEqual(['TRX-2']);
    const anchor = first.json().data.items[0].transactionId as string;
    const second = await get(
      t.app,
      `/api/businesses/${mine.businessId}/payment-requests?pageSize=1&page=2&after=${anchor}&sentFrom=2026-03-03&sentTo=2026-03-03`,
      mine.token,
    );
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().data).toMatchObject({ total: 2, items: [{ referenceNumber: 'TRX-1' }] });
  });

  it('exports what the list shows', async () => {
    expect(await exported(mine, 'sentFrom=2026-03-03&sentTo=2026-03-03')).toEqual(['TRX-1', 'TRX-2']);
    expect(await exported(mine, 'paidFrom=2026-03-05&paidTo=2026-03-05')).toEqual(['TRX-1']);
    expect(await exported(mine, 'returnedFrom=2026-03-07&returnedTo=2026-03-07')).toEqual(['TRX-1']);
    expect(await exported(mine, 'returnedFrom=2026-03-05&returnedTo=2026-03-05')).toEqual([]);
  });

  it.each([
    ['sentFrom', 'sentTo', 'sent'],
    ['paidFrom', 'paidTo', 'paid'],
    ['returnedFrom', 'returnedTo', 'returned'],
  ])('refuses %s after %s, naming the field, in the list and its CSV', async (start, end, what) => {
    for (const path of ['payment-requests', 'payment-requests/export.csv']) {
      const res = await get(t.app, `/api/businesses/${mine.businessId}/${path}?${start}=2026-03-05&${end}=2026-03-03`, mine.token);
      expect(res.statusCode, res.body).toBe(400);
      expect(errorOf(res).message).toBe(`The ${what} date range ends before it starts.`);
      expect(errorOf(res).fields).toEqual({ [start]: 'Must not be after the end date.' });
    }
  });

  it('refuses a day that is not a calendar day, naming the field', async () => {
    const res = await get(t.app, `/api/businesses/${mine.businessId}/payment-requests?paidTo=2026-02-30`, mine.token);
    expect(res.statusCode).toBe(400);
    expect(Object.keys(errorOf(res).fields ?? {})).toEqual(['paidTo']);
    const early = await get(t.app, `/api/businesses/${mine.businessId}/payment-requests?returnedFrom=0001-01-01`, mine.token);
    expect(early.statusCode).toBe(400);
    expect(errorOf(early).fields).toEqual({ returnedFrom: 'Returned from date must be on or after Jan 01, 1900.' });
  });

  it('keeps each business to its own requests and payments', async () => {
    for (const query of ['sentFrom=2026-03-03&sentTo=2026-03-03', 'paidFrom=2026-03-05&paidTo=2026-03-05', 'returnedFrom=2026-03-07&returnedTo=2026-03-07']) {
      expect(await listed(theirs, query), query).toEqual(['TRX-1']);
      const ids = await get(t.app, `/api/businesses/${theirs.businessId}/payment-requests?${query}`, theirs.token);
      expect(ids.json().data.items.map((r: { transactionId: string }) => r.transactionId)).toEqual([`req_day_filters_${theirs.businessId}_1`]);
      // Another business's history is not found, filtered or not.
      const other = await get(t.app, `/api/businesses/${theirs.businessId}/payment-requests?${query}`, mine.token);
      expect(other.statusCode).toBe(404);
      const csv = await get(t.app, `/api/businesses/${theirs.businessId}/payment-requests/export.csv?${query}`, mine.token);
      expect(csv.statusCode).toBe(404);
    }
  });
});

// On PostgreSQL the list is a prepared statement run on its generic plan (ADR 009, 010), which
// cannot see the days asked for. Walking the history's index (newest first) for a day's matches
// reads every request since that day — for a day a year back, most of a big business's history.
// The day filters' pages must start from their own index instead: the first send's, or the
// payments' by processing or return time, whatever the day.
describe.runIf(process.env.DATABASE_URL)('the day filters’ plans on PostgreSQL', () => {
  let p: TestApp;
  let big: ApprovedBusiness;
  const pdb = () => p.runtime.database.db;

  beforeAll(async () => {
    // One pooled connection: the statements the list prepared are this session's to read.
    p = await createTestApp({ DATABASE_POOL_MAX: '1' });
    big = await approvedBusiness(p.app, pdb(), 'owner@day-filters-plans.example');
    const payerId = await insertPayer(pdb(), big.businessId, { displayName: 'Plan Payer' });
    // 20,000 requests over 400 days, each sent when made; a third paid the next day, some returned.
    await sql`
      INSERT INTO payment_requests (business_id, id, number, payer_id, payer_display_name, payer_email, amount_cents, due_date, expires_on,
                                    state, created_at, sent_at)
      SELECT ${big.businessId}, 'req_plan_' || g, 50000 + g, ${payerId}, 'Plan Payer', 'plan@payers.example', 1000 + g, current_date, current_date + 30,
             CASE WHEN g % 3 = 0 THEN 'Paid' ELSE 'Sent' END, now() - make_interval(mins => g * 29), now() - make_interval(mins => g * 29)
      FROM generate_series(1, 20000) g`.execute(pdb());
    await sql`
      INSERT INTO payments (business_id, id, request_id, method, instrument, amount_cents, fee_cents, state, created_at, processed_at, returned_at)
      SELECT business_id, 'pay_' || id, id, 'card', 'Visa •••• 4242', amount_cents, 10, CASE WHEN number % 30 = 20 THEN 'Returned' ELSE 'Processed' END,
             created_at + interval '1 day', created_at + interval '1 day', CASE WHEN number % 30 = 20 THEN created_at + interval '5 days' END
      FROM payment_requests WHERE business_id = ${big.businessId} AND state = 'Paid'`.execute(pdb());
    // Statistics are the owner's to gather: the app's role may not ANALYZE (ADR 022).
    const owner = new pg.Client({ connectionString: p.ownerUrl });
    await owner.connect();
    await owner.query('ANALYZE payment_requests; ANALYZE payments');
    await owner.end();
  }, 120_000);
  afterAll(async () => p?.close());

  /** The generic plans of the prepared page statements whose text has `marker`: what every later request runs. */
  async function genericPlans(marker: string): Promise<string[]> {
    const { rows } = await sql<{ statement: string; n: number }>`
      SELECT statement, cardinality(parameter_types) AS n FROM pg_prepared_statements WHERE statement LIKE ${`%${marker}%`}`.execute(pdb());
    const plans: string[] = [];
    for (const [i, row] of rows.entries()) {
      const name = `day_filter_plan_${i}`;
      await sql`SET plan_cache_mode = force_generic_plan`.execute(pdb());
      // As for a business with millions of requests, where walking the history's index (already in
      // the list's order) looks cheaper to the generic plan than sorting a day's matches: the
      // page's order must leave it no such walk.
      await sql`SET enable_sort = off`.execute(pdb());
      await sql.raw(`PREPARE ${name} AS ${row.statement}`).execute(pdb());
      // The values do not matter to a generic plan: it is made before any is known.
      const nulls = Array.from({ length: row.n }, () => 'NULL').join(', ');
      const explained = await sql.raw<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE ${name}(${nulls})`).execute(pdb());
      plans.push(explained.rows.map((r) => r['QUERY PLAN']).join('\n'));
      await sql.raw(`DEALLOCATE ${name}`).execute(pdb());
      await sql`RESET plan_cache_mode`.execute(pdb());
      await sql`RESET enable_sort`.execute(pdb());
    }
    return plans;
  }

  it.each([
    ['sentFrom', 'sentTo', 'first_sent_at', 'payment_requests_first_sent_idx'],
    ['paidFrom', 'paidTo', 'processed_at', 'payments_processed_idx'],
    ['returnedFrom', 'returnedTo', 'returned_at', 'payments_returned_idx'],
  ])('%s/%s starts from %s’s index (%s), not a walk of the history', async (start, end, column, index) => {
    expect(p.runtime.database.kind).toBe('postgres');
    const day = new Date(Date.now() - 300 * 86_400_000).toISOString().slice(0, 10);
    for (let i = 0; i < 7; i++) {
      const res = await get(p.app, `/api/businesses/${big.businessId}/payment-requests?${start}=${day}&${end}=${day}`, big.token);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.total).toBeGreaterThan(0);
    }
    const plans = await genericPlans(`"${column}" >=`);
    expect(plans.length).toBeGreaterThan(0);
    for (const plan of plans) {
      expect(plan).toContain(index);
      expect(plan).not.toContain('payment_requests_history_idx');
    }
  });
});
