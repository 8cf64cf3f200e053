import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvedBusiness, inDays, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { request } from '../support/businesses';
import { errorOf, get, post } from '../support/identity';
import { createTestApp, eventually, type TestApp } from '../support/test-app';
import type { Batch, Row } from './batch-api';

let t: TestApp;
let acme: ApprovedBusiness;
let other: ApprovedBusiness;

const db = () => t.runtime.database.db;
const base = (b = acme) => `/api/businesses/${b.businessId}/batches`;

function upload(body: string | Buffer, { fileName = 'families.csv', token = acme.token, business = acme, contentType = 'text/csv', kind = 'requests' } = {}) {
  return t.app.inject({
    method: 'POST',
    url: `${base(business)}?kind=${kind}&fileName=${encodeURIComponent(fileName)}`,
    payload: body,
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
  });
}

async function batch(id: string, token = acme.token): Promise<Batch> {
  const res = await get(t.app, `${base()}/${id}`, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as Batch;
}

async function rows(id: string, query = ''): Promise<{ items: Row[]; total: number }> {
  const res = await get(t.app, `${base()}/${id}/rows${query}`, acme.token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

async function mapAndCheck(id: string, mapping: Batch['mapping']): Promise<Batch> {
  const res = await request(t.app, 'PATCH', `${base()}/${id}`, acme.token, { mapping });
  expect(res.statusCode, res.body).toBe(202);
  return eventually(async () => {
    const b = await batch(id);
    return b.phase === 'validated' ? b : undefined;
  }, 30_000);
}

async function uploaded(csv: string | Buffer, fileName?: string): Promise<Batch> {
  const res = await upload(csv, fileName ? { fileName } : {});
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as Batch;
}

beforeAll(async () => {
  t = await createTestApp();
  acme = await approvedBusiness(t.app, db(), 'bulk-owner@example.com');
  other = await approvedBusiness(t.app, db(), 'bulk-other@example.com');
  await insertPayer(db(), acme.businessId, { email: 'ana@payers.example', displayName: 'Ana Lopez', reference: 'FAM-1' });
  await insertPayer(db(), acme.businessId, { email: 'sam@payers.example', displayName: 'Sam Lee', reference: 'FAM-2' });
  await insertPayer(db(), acme.businessId, { email: 'off@payers.example', displayName: 'Off Person', status: 'Disabled' });
}, 120_000);
afterAll(async () => t?.close());

describe('upload', () => {
  it('stores a file as a Draft with its columns and the mapping its headers suggest', async () => {
    const b = await uploaded(`Email,Amount,Memo,Due date\nana@payers.example,125.5,Tuition,${inDays(10)}\n`);
    expect(b).toMatchObject({
      state: 'Draft',
      phase: 'uploaded',
      columns: ['Email', 'Amount', 'Memo', 'Due date'],
      mapping: { payer: 'existing', columns: { email: 'Email', amount: 'Amount', memo: 'Memo', dueDate: 'Due date' } },
      duplicateOf: null,
    });
    expect(b.batchId).toMatch(/^bat_/);
  });
});

describe('a whole run', () => {
  it('checks each row, reports the bad ones with their reasons, and sends the good ones once', async () => {
    const due = inDays(10);
    const csv = [
      'Email,Reference,Amount,Memo,Due date,Partial',
      `ana@payers.example,R1,125.5,Tuition,${due},yes`,
      `sam@payers.example,R2,"$1,234.50",Fees,${due},no`,
      `nobody@payers.example,R3,10,X,${due},`,
      `ana@payers.example,R4,abc,X,${due},`,
      `ana@payers.example,R1,125.50,Again,${due},`,
      `off@payers.example,R5,5,X,${due},`,
      `sam@payers.example,R6,7,X,2001-01-01,`,
    ].join('\n');
    const up = await uploaded(csv);
    const checked = await mapAndCheck(up.batchId, {
      payer: 'existing',
      columns: { email: 'Email', reference: 'Reference', amount: 'Amount', memo: 'Memo', dueDate: 'Due date', allowPartial: 'Partial' },
    });
    expect(checked.counts).toEqual({ rows: 7, valid: 2, invalid: 5, sent: 0, failed: 0 });
    expect(checked.totalCents).toBe(12_550 + 123_450);
    const bad = await rows(up.batchId, '?status=invalid');
    expect(bad.items.map((r) => [r.row, Object.keys(r.errors)])).toEqual([
      [4, ['email']],
      [5, ['amount']],
      [6, ['row']],
      [7, ['email']],
      [8, ['dueDate']],
    ]);
    expect(bad.items[2]!.errors.row).toBe('Same payer, amount and reference as line 2 of the file. Change the reference, or drop one of them.');

    const submitted = await t.app.inject({
      method: 'POST',
      url: `${base()}/${up.batchId}/submit`,
      payload: { mode: 'send' },
      headers: { authorization: `Bearer ${acme.token}`, 'idempotency-key': `submit-${up.batchId}` },
    });
    expect(submitted.statusCode, submitted.body).toBe(202);
    const done = await eventually(async () => {
      const b = await batch(up.batchId);
      return b.phase === 'done' ? b : undefined;
    }, 30_000);
    expect(done).toMatchObject({ state: 'Processed', counts: { rows: 7, valid: 0, invalid: 5, sent: 2, failed: 0 } });
    const sent = await rows(up.batchId, '?status=sent');
    expect(sent.items.map((r) => r.referenceNumber)).toEqual([expect.stringMatching(/^TRX-\d+$/), expect.stringMatching(/^TRX-\d+$/)]);
    const history = await get(t.app, `/api/businesses/${acme.businessId}/payment-requests?batchId=${up.batchId}`, acme.token);
    expect(history.json().data.total).toBe(2);
    const detail = await get(t.app, `/api/businesses/${acme.businessId}/payment-requests/${sent.items[0]!.requestId}`, acme.token);
    expect(detail.json().data).toMatchObject({ transactionState: 'Sent', amountCents: 12_550, allowPartial: true, batch: { batchId: up.batchId } });
  });
});

describe('the Idempotency-Key of a submit', () => {
  it('is refused on another batch, so a copied key cannot send a second file', async () => {
    const due = inDays(10);
    const csv = `Email,Amount,Reference,Due date\nana@payers.example,42,KEY-1,${due}\n`;
    const columns = { email: 'Email', amount: 'Amount', reference: 'Reference', dueDate: 'Due date' };
    const first = await uploaded(csv, 'first.csv');
    await mapAndCheck(first.batchId, { payer: 'existing', columns });
    const second = await uploaded(csv, 'second.csv');
    await mapAndCheck(second.batchId, { payer: 'existing', columns });
    const submit = (batchId: string) =>
      t.app.inject({
        method: 'POST',
        url: `${base()}/${batchId}/submit`,
        payload: { mode: 'send' },
        headers: { authorization: `Bearer ${acme.token}`, 'idempotency-key': 'one-key-for-two-batches' },
      });
    expect((await submit(first.batchId)).statusCode).toBe(202);
    const reused = await submit(second.batchId);
    expect(reused.statusCode, reused.body).toBe(422);
    expect((await batch(second.batchId)).state).toBe('Draft');
    // The same key on the same batch is the same submit: answered again, sent once.
    const again = await submit(first.batchId);
    expect(again.statusCode).toBe(202);
    expect(again.headers['idempotent-replayed']).toBe('true');
    await eventually(async () => (await batch(first.batchId)).phase === 'done', 30_000);
    const made = async (batchId: string) =>
      (await get(t.app, `/api/businesses/${acme.businessId}/payment-requests?batchId=${batchId}`, acme.token)).json().data.total;
    expect([await made(first.batchId), await made(second.batchId)]).toEqual([1, 0]);
  });
});

describe('the audit trail of a batch', () => {
  it('says who chose the columns, fixed and dropped rows, and which payers the file added, in each payer’s history', async () => {
    const due = inDays(10);
    const csv = [
      'First,Last,Email,Amount,Reference,Due date',
      `Noa,Fresh,noa.fresh@payers.example,30,AU-1,${due}`,
      `Ivo,Fresh,ivo.fresh@payers.example,abc,AU-2,${due}`,
      `Ola,Fresh,ola.fresh@payers.example,12,AU-3,${due}`,
    ].join('\n');
    const up = await uploaded(csv, 'audited.csv');
    await mapAndCheck(up.batchId, {
      payer: 'create',
      columns: { firstName: 'First', lastName: 'Last', email: 'Email', amount: 'Amount', reference: 'Reference', dueDate: 'Due date' },
    });
    expect((await request(t.app, 'PATCH', `${base()}/${up.batchId}/rows/3`, acme.token, { fields: { amount: '45.00' } })).statusCode).toBe(200);
    expect((await request(t.app, 'DELETE', `${base()}/${up.batchId}/rows/4`, acme.token)).statusCode).toBe(200);
    const submitted = await t.app.inject({
      method: 'POST',
      url: `${base()}/${up.batchId}/submit`,
      payload: { mode: 'send' },
      headers: { authorization: `Bearer ${acme.token}`, 'idempotency-key': `audit-${up.batchId}` },
    });
    expect(submitted.statusCode, submitted.body).toBe(202);
    await eventually(async () => (await batch(up.batchId)).phase === 'done', 30_000);

    const log = await get(t.app, `/api/businesses/${acme.businessId}/audit?pageSize=100`, acme.token);
    const entries = (log.json().data.items as { action: string; actor: string; summary: string }[]).filter((e) => e.summary.includes('audited.csv'));
    expect(entries.map((e) => [e.action, e.summary])).toEqual([
      ['payers.imported', 'Added 2 payers from the bulk batch audited.csv'],
      ['batch.submitted', expect.stringContaining('audited.csv')],
      ['batch.row_dropped', 'Dropped line 4 of the bulk batch audited.csv'],
      ['batch.row_fixed', 'Fixed line 3 of the bulk batch audited.csv (amount)'],
      ['batch.mapped', 'Chose the columns of the bulk batch audited.csv and checked its rows again'],
      ['batch.uploaded', expect.stringContaining('audited.csv')],
    ]);
    expect(entries.every((e) => e.actor === acme.email)).toBe(true);

    const payer = await db().selectFrom('payers').select('id').where('email', '=', 'noa.fresh@payers.example').executeTakeFirstOrThrow();
    const history = await get(t.app, `/api/businesses/${acme.businessId}/payers/${payer.id}/history`, acme.token);
    expect(history.json().data.items.map((i: { action: string; actor: string }) => [i.action, i.actor])).toEqual([['imported', acme.email]]);
    // The dropped row's payer was never made.
    expect(await db().selectFrom('payers').select('id').where('email', '=', 'ola.fresh@payers.example').executeTakeFirst()).toBeUndefined();
  });
});

describe('a row sent by text message', () => {
  it("texts the request's TRX- reference and its link to the payer's mobile", async () => {
    const payerId = await insertPayer(db(), acme.businessId, { email: 'tex@payers.example', displayName: 'Tex Payer' });
    await db().updateTable('payers').set({ mobile_number: '+15550009876' }).where('id', '=', payerId).execute();
    const up = await uploaded(`Email,Amount,Due date,Channel\ntex@payers.example,12.00,${inDays(10)},sms\n`, 'texts.csv');
    await mapAndCheck(up.batchId, { payer: 'existing', columns: { email: 'Email', amount: 'Amount', dueDate: 'Due date', channel: 'Channel' } });
    const submitted = await t.app.inject({
      method: 'POST',
      url: `${base()}/${up.batchId}/submit`,
      payload: { mode: 'send' },
      headers: { authorization: `Bearer ${acme.token}`, 'idempotency-key': `submit-${up.batchId}` },
    });
    expect(submitted.statusCode, submitted.body).toBe(202);
    await eventually(async () => (await batch(up.batchId)).phase === 'done', 30_000);
    const texts = (await get(t.app, `/api/dev/outbox?to=${encodeURIComponent('+15550009876')}`)).json() as { channel: string; text: string }[];
    expect(texts).toHaveLength(1);
    expect(texts[0]!.text).toMatch(/^.+ requests \$12\.00 \(TRX-\d+\), due .+\. Pay or decline: http.+\/pay\/.+$/);
  });
});

describe('tenancy', () => {
  it("answers another business's batch as not found", async () => {
    const up = await uploaded(`Email,Amount,Due date\nana@payers.example,1,${inDays(3)}\n`);
    const res = await get(t.app, `${base()}/${up.batchId}`, other.token);
    expect(res.statusCode).toBe(404);
    expect(errorOf(await post(t.app, `${base(other)}/${up.batchId}/submit`, { mode: 'send' }, other.token)).code).toBe('NOT_FOUND');
  });
});
