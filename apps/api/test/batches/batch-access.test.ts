import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvedBusiness, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { createBusiness } from '../support/businesses';
import { errorOf, registeredUser } from '../support/identity';
import { dayIn } from '../support/requests';
import { createTestApp, type TestApp } from '../support/test-app';
import { batchCount, batchesApi, call, requestsOfBatch, type Batch, type BatchesApi } from './batch-api';

/**
 * Who may do what with a batch: another business sees none of it (404, as if it did not exist),
 * a viewer reads but changes nothing (403), and only an Approved business uploads and sends.
 */

let t: TestApp;
let acme: ApprovedBusiness;
let other: ApprovedBusiness;
let api: BatchesApi;
const db = () => t.runtime.database.db;
let checked: Batch;

const due = () => dayIn(15);
const columns = { email: 'Email', amount: 'Amount', dueDate: 'Due date' };
const file = () => `Email,Amount,Due date\nana@payers.example,10,${due()}\nnobody@payers.example,11,${due()}\n`;

async function userId(email: string): Promise<string> {
  return (await db().selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
}

/** A registered person added to acme's team with `role`. */
async function teammate(email: string, role: 'viewer' | 'member' | 'admin'): Promise<BatchesApi> {
  const token = await registeredUser(t.app, email);
  await db()
    .insertInto('business_members')
    .values({ business_id: acme.businessId, user_id: await userId(email), role })
    .execute();
  return batchesApi(t.app, { token, businessId: acme.businessId });
}

beforeAll(async () => {
  t = await createTestApp();
  acme = await approvedBusiness(t.app, db(), 'access-owner@example.com');
  other = await approvedBusiness(t.app, db(), 'access-other@example.com');
  api = batchesApi(t.app, acme);
  await insertPayer(db(), acme.businessId, { email: 'ana@payers.example', displayName: 'Ana Lopez' });
  // The other business has a payer with the same e-mail: nothing of acme's may reach it.
  await insertPayer(db(), other.businessId, { email: 'ana@payers.example', displayName: 'Ana Elsewhere' });
  const up = await api.uploaded(file());
  checked = await api.mapped(up.batchId, { columns });
}, 120_000);
afterAll(async () => t?.close());

/** Every batch endpoint on `batchId`, as `who` would call it under `businessId`. */
function everyEndpoint(token: string, businessId: string, batchId: string) {
  const base = `/api/businesses/${businessId}/batches`;
  const upload = () =>
    t.app.inject({
      method: 'POST',
      url: `${base}?kind=requests&fileName=x.csv`,
      payload: file(),
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
    });
  return {
    list: () => call(t.app, 'GET', base, token),
    upload,
    get: () => call(t.app, 'GET', `${base}/${batchId}`, token),
    map: () => call(t.app, 'PATCH', `${base}/${batchId}`, token, { mapping: { columns } }),
    rows: () => call(t.app, 'GET', `${base}/${batchId}/rows`, token),
    errorsCsv: () => call(t.app, 'GET', `${base}/${batchId}/errors.csv`, token),
    fixRow: () => call(t.app, 'PATCH', `${base}/${batchId}/rows/3`, token, { fields: { email: 'ana@payers.example' } }),
    dropRow: () => call(t.app, 'DELETE', `${base}/${batchId}/rows/3`, token),
    submit: () => call(t.app, 'POST', `${base}/${batchId}/submit`, token, { mode: 'send' }, { 'idempotency-key': `k-${token.slice(0, 8)}-${batchId}` }),
    unschedule: () => call(t.app, 'POST', `${base}/${batchId}/unschedule`, token, {}),
    discard: () => call(t.app, 'DELETE', `${base}/${batchId}`, token),
  };
}

async function unchanged() {
  expect(await api.batch(checked.batchId)).toMatchObject({ state: 'Draft', phase: 'validated', counts: { rows: 2, valid: 1, invalid: 1 } });
  expect((await api.row(checked.batchId, 3)).fields.email).toBe('nobody@payers.example');
  expect(await requestsOfBatch(db(), acme.businessId, checked.batchId)).toEqual([]);
}

describe('another business', () => {
  it.each(['list', 'upload', 'get', 'map', 'rows', 'errorsCsv', 'fixRow', 'dropRow', 'submit', 'unschedule', 'discard'] as const)(
    "under the business's address: %s is 404, and nothing changes",
    async (name) => {
      const before = await batchCount(db());
      const res = await everyEndpoint(other.token, acme.businessId, checked.batchId)[name]();
      expect(res.statusCode, res.body).toBe(404);
      expect(errorOf(res).code).toBe('NOT_FOUND');
      expect(await batchCount(db())).toBe(before);
      await unchanged();
    },
  );

  it.each(['get', 'map', 'rows', 'errorsCsv', 'fixRow', 'dropRow', 'submit', 'unschedule', 'discard'] as const)(
    'under its own address, with the batch id: %s is 404, and nothing changes',
    async (name) => {
      const res = await everyEndpoint(other.token, other.businessId, checked.batchId)[name]();
      expect(res.statusCode, res.body).toBe(404);
      expect(errorOf(res)).toMatchObject({ code: 'NOT_FOUND' });
      await unchanged();
    },
  );

  it("its own list does not show the batch, and its payer of the same e-mail is never used by acme's rows", async () => {
    const list = await everyEndpoint(other.token, other.businessId, checked.batchId).list();
    expect(list.json().data).toMatchObject({ total: 0, items: [] });
    expect((await api.row(checked.batchId, 2)).payerName).toBe('Ana Lopez');
  });
});

describe('a viewer', () => {
  let viewer: BatchesApi;
  beforeAll(async () => {
    viewer = await teammate('access-viewer@example.com', 'viewer');
  });

  it.each(['list', 'get', 'rows', 'errorsCsv'] as const)('reads: %s is 200', async (name) => {
    const res = await everyEndpoint(viewer.who.token, acme.businessId, checked.batchId)[name]();
    expect(res.statusCode, res.body).toBe(200);
  });

  it.each(['upload', 'map', 'fixRow', 'dropRow', 'submit', 'unschedule', 'discard'] as const)('changes nothing: %s is 403', async (name) => {
    const before = await batchCount(db());
    const res = await everyEndpoint(viewer.who.token, acme.businessId, checked.batchId)[name]();
    expect(res.statusCode, res.body).toBe(403);
    expect(errorOf(res)).toEqual({ code: 'FORBIDDEN', message: 'Your role in this business is view only: you can read and export, not change.' });
    expect(await batchCount(db())).toBe(before);
    await unchanged();
  });

  it('is refused before the body is even read: an unreadable file is 403, not 400', async () => {
    const res = await viewer.upload('');
    expect(res.statusCode).toBe(403);
  });
});

describe('a member', () => {
  it('uploads, maps, fixes and submits a batch', async () => {
    const member = await teammate('access-member@example.com', 'member');
    const up = await member.uploaded(file());
    expect(up.uploadedBy).toBe('access-member@example.com');
    await member.mapped(up.batchId, { columns });
    expect((await member.fix(up.batchId, 3, { email: 'ana@payers.example' })).statusCode).toBe(200);
    const done = await member.sent(up.batchId);
    expect(done).toMatchObject({ state: 'Processed', counts: { sent: 2 }, submittedBy: 'access-member@example.com' });
  });
});

describe('a business that is not Approved', () => {
  it('cannot upload: 403 BUSINESS_NOT_APPROVED, nothing saved', async () => {
    const token = await registeredUser(t.app, 'access-new@example.com');
    const { businessId } = await createBusiness(t.app, token);
    const before = await batchCount(db());
    const res = await batchesApi(t.app, { token, businessId }).upload(file());
    expect(res.statusCode, res.body).toBe(403);
    expect(errorOf(res)).toEqual({ code: 'BUSINESS_NOT_APPROVED', message: 'Bulk requests can be uploaded and sent once your business is approved.' });
    expect(await batchCount(db())).toBe(before);
    // Reading is allowed: there is nothing.
    expect((await batchesApi(t.app, { token, businessId }).list()).json().data.total).toBe(0);
  });

  it('a disabled business can read its batches but not upload, map or submit them', async () => {
    const biz = await approvedBusiness(t.app, db(), 'access-disabled@example.com');
    const mine = batchesApi(t.app, biz);
    await insertPayer(db(), biz.businessId, { email: 'ana@payers.example', displayName: 'Ana Lopez' });
    const up = await mine.uploaded(file());
    await mine.mapped(up.batchId, { columns });
    await db().updateTable('businesses').set({ state: 'Disabled' }).where('id', '=', biz.businessId).execute();
    const disabled = 'This business is disabled, so it cannot request payments. Contact Tay support.';
    for (const res of [await mine.upload(file()), await mine.map(up.batchId, { columns }), await mine.submit(up.batchId), await mine.discard(up.batchId)]) {
      expect(res.statusCode, res.body).toBe(403);
      expect(errorOf(res)).toEqual({ code: 'BUSINESS_NOT_APPROVED', message: disabled });
    }
    expect((await mine.get(up.batchId)).statusCode).toBe(200);
    expect((await mine.rowsRes(up.batchId)).statusCode).toBe(200);
  });
});

describe('without a session', () => {
  it('every endpoint is 401', async () => {
    for (const [name, act] of Object.entries(everyEndpoint('not-a-token', acme.businessId, checked.batchId))) {
      const res = await act();
      expect(res.statusCode, name).toBe(401);
    }
    await unchanged();
  });
});
