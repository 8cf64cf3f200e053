import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvedBusiness, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { GOOD_PASSWORD, post, signIn } from '../support/identity';
import { createTestApp, type TestApp } from '../support/test-app';

// The history list checks the session inside its own statement (ADR 010). These tests hold it to
// what `requireUser` and the membership check answer everywhere else, on every way a page is read.

let t: TestApp;
const db = () => t.runtime.database.db;
let a: ApprovedBusiness;
let b: ApprovedBusiness;
const ROWS = 2_100;
/** The last row of page 1, which the web app sends as `after` for page 2. */
let anchor: string;

beforeAll(async () => {
  t = await createTestApp();
  a = await approvedBusiness(t.app, db(), 'owner@list-a.example');
  b = await approvedBusiness(t.app, db(), 'owner@list-b.example');
  const payer = await insertPayer(db(), a.businessId, { email: 'casey@payers.example', displayName: 'Casey Payer' });
  // Enough rows for a page read far down by number (beyond the direct walk), written in bulk.
  await sql`
    INSERT INTO payment_requests (business_id, id, number, payer_id, payer_display_name, payer_email, amount_cents, amount_paid_cents,
                                  memo, reference, due_date, expires_on, state, sent_at, created_at, updated_at)
    SELECT ${a.businessId}, 'req_list_' || g, 50000 + g, ${payer}, 'Casey Payer', 'casey@payers.example', 1000 + g, 0,
           'Seeded', '', current_date + 14, current_date + 44, 'Sent', now(), now() - make_interval(secs => g), now() - make_interval(secs => g)
    FROM generate_series(1, ${ROWS}) g`.execute(db());
  anchor = (await list(a.businessId, 'page=1&pageSize=25', `Bearer ${a.token}`)).json().data.items.at(-1).transactionId;
});
afterAll(async () => t?.close());

const list = (businessId: string, query: string, authorization?: string) =>
  t.app.inject({ method: 'GET', url: `/api/businesses/${businessId}/payment-requests?${query}`, headers: authorization ? { authorization } : {} });
const summary = (businessId: string, authorization?: string) =>
  t.app.inject({ method: 'GET', url: `/api/businesses/${businessId}/payment-requests/summary`, headers: authorization ? { authorization } : {} });

/** Every way a page is found: from the counts, by counting rows, by keyset, and far down by number. */
async function everyPath(businessId: string, authorization?: string) {
  return {
    counts: await list(businessId, 'page=1&pageSize=25', authorization),
    counted: await list(businessId, 'page=1&search=casey', authorization),
    keyset: await list(businessId, `page=2&pageSize=25&after=${anchor}`, authorization),
    deep: await list(businessId, 'page=60&pageSize=25', authorization),
  };
}

function expectAll(results: Record<string, { statusCode: number; json(): unknown }>, status: number, body: unknown) {
  for (const [path, res] of Object.entries(results)) {
    expect(res.statusCode, path).toBe(status);
    expect(res.json(), path).toEqual(body);
  }
}

describe('the history list checks the session in its own statement', () => {
  it('reads every kind of page for a member', async () => {
    const pages = await everyPath(a.businessId, `Bearer ${a.token}`);
    for (const [path, res] of Object.entries(pages)) expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
    expect(pages.counts.json().data.total).toBe(ROWS);
    expect(pages.counted.json().data.total).toBe(ROWS);
    expect(pages.deep.json().data.items).toHaveLength(25);
    expect(pages.keyset.json().data.items[0].transactionId).toBe(
      (await list(a.businessId, 'page=2&pageSize=25', `Bearer ${a.token}`)).json().data.items[0].transactionId,
    );
  });

  it('answers 401 without a token, with a forged one, and after signing out — as every other signed-in route does', async () => {
    const expected = (await summary(a.businessId)).json();
    expect(expected.errorDetails.code).toBe('UNAUTHORIZED');
    expectAll(await everyPath(a.businessId), 401, expected);
    expectAll(await everyPath(a.businessId, `Bearer ${a.token.split('.')[0]}.${'A'.repeat(43)}=`), 401, expected);

    const again = (await signIn(t.app, a.email, GOOD_PASSWORD)).headers['set-auth-token'] as string;
    expect((await post(t.app, '/api/auth/sign-out', {}, again)).statusCode).toBe(200);
    expect((await summary(a.businessId, `Bearer ${again}`)).statusCode).toBe(401);
    expectAll(await everyPath(a.businessId, `Bearer ${again}`), 401, expected);
  });

  it('answers 401 once the session has expired', async () => {
    const later = (await signIn(t.app, a.email, GOOD_PASSWORD)).headers['set-auth-token'] as string;
    expect((await list(a.businessId, 'page=1', `Bearer ${later}`)).statusCode).toBe(200);
    await sql`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE token = ${decodeURIComponent(later).split('.')[0]}`.execute(db());
    const expected = (await summary(a.businessId, `Bearer ${later}`)).json();
    expect(expected.errorDetails.code).toBe('UNAUTHORIZED');
    expectAll(await everyPath(a.businessId, `Bearer ${later}`), 401, expected);
  });

  it('answers 403 while the person must still replace a temporary password', async () => {
    await sql`UPDATE users SET must_change_password = true WHERE email = ${a.email}`.execute(db());
    try {
      const expected = (await summary(a.businessId, `Bearer ${a.token}`)).json();
      expect(expected.errorDetails.code).toBe('NEW_PASSWORD_REQUIRED');
      expectAll(await everyPath(a.businessId, `Bearer ${a.token}`), 403, expected);
    } finally {
      await sql`UPDATE users SET must_change_password = false WHERE email = ${a.email}`.execute(db());
    }
  });

  it('answers who may not read before what is wrong with the filters', async () => {
    const bad = ['status=Bogus', 'minAmountCents=500&maxAmountCents=100', 'from=2026-02-01&to=2026-01-01', `page=2&after=${anchor}&before=${anchor}`];
    for (const query of bad) {
      expect((await list(a.businessId, query)).statusCode, query).toBe(401);
      expect((await list(a.businessId, query, `Bearer ${b.token}`)).statusCode, query).toBe(404);
      const mine = await list(a.businessId, query, `Bearer ${a.token}`);
      expect(mine.statusCode, query).toBe(400);
      expect(mine.json().errorDetails.code, query).toBe('VALIDATION_FAILED');
    }
  });

  it("answers 404 for another business's list, never a row of it", async () => {
    const expected = (await summary(a.businessId, `Bearer ${b.token}`)).json();
    expect(expected.errorDetails.code).toBe('NOT_FOUND');
    expectAll(await everyPath(a.businessId, `Bearer ${b.token}`), 404, expected);
    expect((await list('biz_doesnotexist', 'page=1', `Bearer ${a.token}`)).statusCode).toBe(404);
  });
});
