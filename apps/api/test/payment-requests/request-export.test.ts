import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvedBusiness, inDays, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { errorOf, get } from '../support/identity';
import { firstColumnOf } from '../support/requests';
import { createTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
let biz: ApprovedBusiness;
const db = () => t.runtime.database.db;

/** A request written directly, with the columns each sort looks at under the test's control. */
async function insert(number: number, over: { payer: string; amountCents: number; dueDate: string; state: string; createdAt: string }) {
  const payerId = await insertPayer(db(), biz.businessId, { displayName: over.payer });
  await sql`
    INSERT INTO payment_requests (business_id, id, number, payer_id, payer_display_name, payer_email, amount_cents, due_date, expires_on, state, sent_at, created_at)
    VALUES (${biz.businessId}, ${`req_export${number}`}, ${number}, ${payerId}, ${over.payer}, ${`p${number}@payers.example`}, ${over.amountCents},
            ${over.dueDate}::date, ${over.dueDate}::date + 30, ${over.state}, now(), ${over.createdAt}::timestamptz)`.execute(db());
}

/** The TRX numbers of an export, in its order. */
async function exported(query: string): Promise<string[]> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/businesses/${biz.businessId}/payment-requests/export.csv?${query}`,
    headers: { authorization: `Bearer ${biz.token}` },
  });
  expect(res.statusCode, res.body).toBe(200);
  return firstColumnOf(res.body);
}

async function listed(query: string): Promise<string[]> {
  const res = await get(t.app, `/api/businesses/${biz.businessId}/payment-requests?pageSize=100&${query}`, biz.token);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data.items as { referenceNumber: string }[]).map((r) => r.referenceNumber);
}

beforeAll(async () => {
  t = await createTestApp();
  biz = await approvedBusiness(t.app, db(), 'owner@export.example');
  // Created oldest → newest as 1..5; every other column orders them differently.
  await insert(1, { payer: 'Cora', amountCents: 30_000, dueDate: inDays(9), state: 'Sent', createdAt: '2026-01-01T10:00:00Z' });
  await insert(2, { payer: 'Abe', amountCents: 50_000, dueDate: inDays(3), state: 'Paid', createdAt: '2026-01-02T10:00:00Z' });
  await insert(3, { payer: 'Eve', amountCents: 10_000, dueDate: inDays(7), state: 'Expired', createdAt: '2026-01-03T10:00:00Z' });
  await insert(4, { payer: 'Bo', amountCents: 40_000, dueDate: inDays(1), state: 'Withdrawn', createdAt: '2026-01-04T10:00:00Z' });
  await insert(5, { payer: 'Dee', amountCents: 20_000, dueDate: inDays(5), state: 'Accepted', createdAt: '2026-01-05T10:00:00Z' });
});
afterAll(async () => t?.close());

describe('CSV export of requests follows the list’s sort', () => {
  it('orders by amount, smallest first, when the list does (not newest first)', async () => {
    expect(await exported('sortBy=amount&sortDirection=asc')).toEqual(['TRX-3', 'TRX-5', 'TRX-1', 'TRX-4', 'TRX-2']);
    expect(await exported('sortBy=payer&sortDirection=desc')).toEqual(['TRX-3', 'TRX-5', 'TRX-1', 'TRX-4', 'TRX-2']);
    expect(await exported('sortBy=dueDate&sortDirection=asc')).toEqual(['TRX-4', 'TRX-2', 'TRX-5', 'TRX-3', 'TRX-1']);
    expect(await exported('sortBy=createdAt&sortDirection=asc')).toEqual(['TRX-1', 'TRX-2', 'TRX-3', 'TRX-4', 'TRX-5']);
  });

  it.each(['createdAt', 'dueDate', 'amount', 'payer', 'state', 'reference'])(
    'gives the rows in the list’s order when sorted by %s, both ways',
    async (sortBy) => {
      for (const direction of ['asc', 'desc']) {
        const query = `sortBy=${sortBy}&sortDirection=${direction}`;
        expect(await exported(query), query).toEqual(await listed(query));
      }
    },
  );

  it('sorts the filtered rows only', async () => {
    expect(await exported('sortBy=amount&sortDirection=desc&minAmountCents=20000&maxAmountCents=40000')).toEqual(['TRX-4', 'TRX-1', 'TRX-5']);
  });

  it('refuses an unknown sort with a clear error, as the list does', async () => {
    const res = await get(t.app, `/api/businesses/${biz.businessId}/payment-requests/export.csv?sortBy=colour`, biz.token);
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).message).toMatch(/sortBy/);
  });

  it('streams past one batch with ties on the sort value: every row once, in the list’s order', async () => {
    // 2,150 more rows (beyond one 2,000-row batch), created in one statement (the same created_at
    // to the microsecond) with only three amounts: the batch edge falls inside a tie.
    const payerId = await insertPayer(db(), biz.businessId, { displayName: 'Bulk Payer' });
    await sql`
      INSERT INTO payment_requests (business_id, id, number, payer_id, payer_display_name, payer_email, amount_cents, due_date, expires_on, state, sent_at)
      SELECT ${biz.businessId}, 'req_bulk' || lpad(n::text, 5, '0'), 100 + n, ${payerId}, 'Bulk Payer', 'bulk@payers.example',
             1000 * (1 + n % 3), current_date + 3, current_date + 33, 'Sent', now()
      FROM generate_series(1, 2150) AS n`.execute(db());
    for (const query of ['sortBy=amount&sortDirection=asc', 'sortBy=createdAt&sortDirection=desc']) {
      const rows = await exported(query);
      expect(rows, query).toHaveLength(2155);
      expect(new Set(rows).size, query).toBe(2155);
      // The list's own pages, read through to the end, agree row for row.
      const pages: string[] = [];
      for (let page = 1; pages.length < 2155; page++) pages.push(...(await listed(`${query}&page=${page}`)));
      expect(rows, query).toEqual(pages);
    }
  });
});
