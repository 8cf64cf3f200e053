// PostgreSQL pass: dates at the bounds of the database's date type.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvedBusiness, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { OWNER } from '../support/businesses';
import { errorOf } from '../support/identity';
import { requestsApi } from '../support/requests';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * Every date the API takes is a day of 1900 through 2099 (ADR 023), refused otherwise with a
 * message naming the bound. Before, a due date of 9999-12-31 answered 500 (its default expiry
 * fell in year 10000) and a history filter from 0000-01-01 failed its statement.
 */
let t: TestApp;
let biz: ApprovedBusiness;
let payerId: string;
beforeAll(async () => {
  t = await createTestApp({ SANDBOX_AUTO_APPROVE: 'false' });
  biz = await approvedBusiness(t.app, t.runtime.database.db, 'dates-owner@example.com');
  payerId = await insertPayer(t.runtime.database.db, biz.businessId);
});
afterAll(async () => t?.close());

const auth = () => ({ authorization: `Bearer ${biz.token}` });
const TOO_LATE = (label: string) => `${label} must be before Jan 01, 2100.`;
const TOO_EARLY = (label: string) => `${label} must be on or after Jan 01, 1900.`;

function expectField(res: { statusCode: number; body: string; json(): unknown }, field: string, message: string) {
  expect(res.statusCode, res.body).toBe(400);
  const error = errorOf(res);
  expect(error.code).toBe('VALIDATION_FAILED');
  expect(error.fields).toEqual({ [field]: message });
}

async function requestCount(): Promise<number> {
  const rows = await t.runtime.database.db.selectFrom('payment_requests').select('id').where('business_id', '=', biz.businessId).execute();
  return rows.length;
}

describe('dates of a request to pay', () => {
  it('refuses a due date of 9999-12-31 with the bound, saving nothing', async () => {
    const api = requestsApi(t.app, biz);
    expectField(await api.post(api.body(payerId, { dueDate: '9999-12-31' })), 'dueDate', TOO_LATE('Due date'));
    expectField(await api.post(api.body(payerId, { dueDate: '9999-12-31', mode: 'send' })), 'dueDate', TOO_LATE('Due date'));
    expect(await requestCount()).toBe(0);
  });

  it('refuses an expiry and a send time past 2099', async () => {
    const api = requestsApi(t.app, biz);
    expectField(await api.post(api.body(payerId, { expiresOn: '9999-12-31' })), 'expiresOn', TOO_LATE('Expiry date'));
    expectField(await api.post(api.body(payerId, { expiresOn: '2100-01-01' })), 'expiresOn', TOO_LATE('Expiry date'));
    expectField(await api.post(api.body(payerId, { mode: 'schedule', sendAt: '9999-12-31T10:00:00Z' })), 'sendAt', TOO_LATE('Send time'));
    expectField(await api.post(api.body(payerId, { mode: 'schedule', sendAt: '0000-01-01T10:00:00Z' })), 'sendAt', TOO_EARLY('Send time'));
    expect(await requestCount()).toBe(0);
  });

  it('keeps the default expiry of a due date late in 2099 at Dec 31, 2099, so an edit can send it back', async () => {
    const api = requestsApi(t.app, biz);
    const created = await api.create(payerId, { dueDate: '2099-12-20' });
    expect(created.expiresOn).toBe('2099-12-31');
    const edited = await api.patch(created.transactionId, api.body(payerId, { dueDate: created.dueDate, expiresOn: created.expiresOn, memo: 'Edited' }));
    expect(edited.statusCode, edited.body).toBe(200);
  });
});

describe('date of birth', () => {
  const update = (dateOfBirth: string) =>
    t.app.inject({
      method: 'PATCH',
      url: `/api/businesses/${biz.businessId}/update`,
      headers: { ...auth(), 'content-type': 'application/json' },
      payload: JSON.stringify({ owners: [{ ...OWNER, dateOfBirth }] }),
    });

  it('is a day from 1900 to today', async () => {
    expectField(await update('1850-04-12'), 'owners.0.dateOfBirth', TOO_EARLY('Date of birth'));
    expectField(await update('0000-01-01'), 'owners.0.dateOfBirth', TOO_EARLY('Date of birth'));
    expectField(await update('9999-12-31'), 'owners.0.dateOfBirth', 'The date of birth cannot be in the future.');
    const ok = await update('1900-01-01');
    expect(ok.statusCode, ok.body).toBe(200);
  });
});

describe('history filters', () => {
  const list = (query: string, path = 'payment-requests') =>
    t.app.inject({ method: 'GET', url: `/api/businesses/${biz.businessId}/${path}?${query}`, headers: auth() });

  it('refuses `from` and `to` outside 1900 through 2099, in the list and its CSV export', async () => {
    expectField(await list('from=0000-01-01'), 'from', TOO_EARLY('From date'));
    expectField(await list('to=9999-12-31'), 'to', TOO_LATE('To date'));
    const csv = await list('from=0000-01-01', 'payment-requests/export.csv');
    expectField(csv, 'from', TOO_EARLY('From date'));
    const ok = await list('from=1900-01-01&to=2099-12-31');
    expect(ok.statusCode, ok.body).toBe(200);
  });
});
