import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvedBusiness, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { OWNER } from '../support/businesses';
import { errorOf } from '../support/identity';
import { insertRequest, requestRow } from '../support/payments';
import { requestsApi } from '../support/requests';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * Text that PostgreSQL cannot store (U+0000) or that has no UTF-8 form (an unpaired surrogate)
 * is refused with 400 naming the field, wherever it comes in: a JSON body, a query string, a
 * path parameter, an identity endpoint, a CSV export's query, an imported file. Before, each of
 * these failed its statement (500), or the export answered 200 and broke off.
 */
let t: TestApp;
let biz: ApprovedBusiness;
let payerId: string;
beforeAll(async () => {
  t = await createTestApp({ SANDBOX_AUTO_APPROVE: 'false' });
  biz = await approvedBusiness(t.app, t.runtime.database.db, 'text-owner@example.com');
  payerId = await insertPayer(t.runtime.database.db, biz.businessId);
});
afterAll(async () => t?.close());

const NUL = '\u0000';
const headers = () => ({ authorization: `Bearer ${biz.token}`, 'content-type': 'application/json' });
const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: headers(), ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }) });
const base = () => `/api/businesses/${biz.businessId}`;

function expectRefused(res: { statusCode: number; body: string; json(): unknown }, field: string, what = /U\+0000/) {
  expect(res.statusCode, res.body).toBe(400);
  const error = errorOf(res);
  expect(error.code).toBe('VALIDATION_FAILED');
  expect(Object.keys(error.fields ?? {})).toEqual([field]);
  expect(error.fields?.[field]).toMatch(what);
  // One field: the message is its sentence, for screens that show only the message.
  expect(error.message).toBe(error.fields?.[field]);
}

describe('text that cannot be stored', () => {
  it('is refused in a JSON body, naming the field, and nothing is saved', async () => {
    const api = requestsApi(t.app, biz);
    expectRefused(await api.post(api.body(payerId, { memo: `Spring${NUL} term` })), 'memo');
    expectRefused(await api.post(api.body(payerId, { memo: 'ok', mode: 'send', reference: `INV${NUL}` })), 'reference');
    const drafts = await call('GET', `${base()}/payment-requests?view=draft`);
    const history = await call('GET', `${base()}/payment-requests`);
    expect(drafts.json().data.total + history.json().data.total).toBe(0);
  });

  it('lets every other control character through as text, stored as sent', async () => {
    const api = requestsApi(t.app, biz);
    const controls = Array.from({ length: 31 }, (_, i) => String.fromCharCode(i + 1)).join('') + '\u007f';
    const created = await api.create(payerId, { memo: `a${controls}b`, reference: 'CTRL-1' });
    expect((await api.detail(created.transactionId)) as unknown as { memo: string }).toMatchObject({ memo: `a${controls}b` });
  });

  it('is refused deep in a body, by its dotted path', async () => {
    const res = await call('PATCH', `${base()}/update`, { owners: [{ ...OWNER, firstName: `Ana${NUL}` }] });
    expectRefused(res, 'owners.0.firstName');
  });

  it('is refused in a payer, and an unpaired surrogate is refused rather than stored as U+FFFD', async () => {
    expectRefused(await call('POST', `${base()}/payers`, { firstName: `Bo${NUL}`, lastName: 'B', email: 'bo@payers.example' }), 'firstName');
    expectRefused(
      await call('POST', `${base()}/payers`, { firstName: 'Bo', lastName: 'Br\ud800', email: 'bo@payers.example' }),
      'lastName',
      /unpaired surrogate, U\+D800/,
    );
    const list = await call('GET', `${base()}/payers?search=bo`);
    expect(list.json().data.total).toBe(0);
  });

  it('is refused in a query string, the CSV export included', async () => {
    expectRefused(await call('GET', `${base()}/payment-requests?payerId=pyr%00x`), 'payerId');
    const res = await call('GET', `${base()}/payment-requests/export.csv?payerId=pyr%00x`);
    expectRefused(res, 'payerId');
    expect(res.headers['content-type']).toContain('application/json');
    expectRefused(await call('GET', `${base()}/payers/export.csv?search=a%00`), 'search');
  });

  it('is refused in a path parameter, on signed-in and public routes', async () => {
    expectRefused(await call('GET', `/api/businesses/biz%00x`), 'id');
    expectRefused(await t.app.inject({ method: 'GET', url: '/api/businesses/biz%00x/logo' }), 'id');
  });

  it('answers a path whose %-encoding is not text (an encoded unpaired surrogate) in the one error shape', async () => {
    const res = await call('GET', '/api/businesses/biz%ED%A0%80');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      status: 'Error',
      errorDetails: { code: 'BAD_REQUEST', message: 'The address has a %-encoded character that is not valid text. Check the link and try again.' },
    });
  });

  it("is refused in the identity endpoints' bodies", async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email: `ana${NUL}@example.com`, password: 'Correct-Horse-42' },
    });
    expectRefused(res, 'email');
  });

  it("is refused on the payer's public pages, and the request stays as it was", async () => {
    const { requestId, payToken } = await insertRequest(t.runtime.database.db, biz.businessId, payerId);
    const res = await t.app.inject({ method: 'POST', url: `/api/public/pay/${payToken}/decline`, payload: { reason: `Not mine${NUL}` } });
    expectRefused(res, 'reason');
    expect((await requestRow(t.runtime.database.db, requestId)).state).toBe('Sent');
  });

  it('is refused in an imported CSV file with the line it is on, importing nothing', async () => {
    const csv = `First name,Last name,Email\r\nAna,Lopez,ana@payers.example\r\nBo,Br${NUL},bo@payers.example\r\n`;
    const preview = await call('POST', `${base()}/payers/import/preview`, { csv });
    expectRefused(preview, 'csv', /^This is not a text file: line 3 has a NUL character \(U\+0000\)/);
    expectRefused(await call('POST', `${base()}/payers/import`, { csv }), 'csv');
    expect((await call('GET', `${base()}/payers?search=ana`)).json().data.total).toBe(0);
  });
});
