import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentRequest, RequestState } from '@tay/contract';
import { approvedBusiness, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { get } from '../support/identity';
import { createTestApp, type TestApp } from '../support/test-app';

// The history list's items are written as JSON by PostgreSQL (ADR 015), every other view of a
// request by `toPaymentRequest` in Node. Both must say the same thing about every request: here
// every state, empty and set timestamps (microseconds truncated to milliseconds, as Node's
// Date does), and text that JSON must escape.

let t: TestApp;
const db = () => t.runtime.database.db;
let biz: ApprovedBusiness;

const AWKWARD = [
  'Plain memo',
  'Quote " and backslash \\ and slash /',
  'Line one\nline two\r\n\ttabbed',
  'Control \u0001\u0008\u000c\u001f characters',
  'Émile Zoë — ünïcödé, 漢字 and 😀',
  '</script><script>alert(1)</script>',
  '=SUM(A1:A2)',
  '',
];

beforeAll(async () => {
  t = await createTestApp();
  biz = await approvedBusiness(t.app, db(), 'owner@list-json.example');
  const payerIds: string[] = [];
  for (const [i, name] of ['Ana "The Payer" Díaz', 'Back\\slash Co', 'Tab\tName 😀'].entries()) {
    payerIds.push(await insertPayer(db(), biz.businessId, { email: `payer${i}@list-json.example`, displayName: name }));
  }
  const names = ['Ana "The Payer" Díaz', 'Back\\slash Co', 'Tab\tName 😀'];
  const rows = RequestState.options.flatMap((state, s) =>
    AWKWARD.map((text, i) => {
      const n = s * AWKWARD.length + i;
      const p = n % payerIds.length;
      return {
        business_id: biz.businessId,
        id: `req_json_${String(n).padStart(3, '0')}`,
        number: 5000 + n,
        payer_id: payerIds[p]!,
        payer_display_name: names[p]!,
        payer_email: `payer${p}@list-json.example`,
        amount_cents: 1 + n * 1_234_567,
        amount_paid_cents: state === 'Paid' ? 1 + n * 1_234_567 : state === 'PartiallyPaid' ? 1 : 0,
        memo: text,
        reference: AWKWARD[(i + 3) % AWKWARD.length]!,
        due_date: `2026-0${1 + (n % 9)}-${String(1 + (n % 28)).padStart(2, '0')}`,
        expires_on: '2026-12-31',
        allow_partial: n % 2 === 0,
        state,
        send_at: state === 'Pending' || n % 3 === 0 ? new Date(Date.UTC(2026, 10, 1, 9, 30, 0, n)) : null,
        sent_at: state === 'Pending' ? null : n % 2 === 0 ? new Date(Date.UTC(2026, 10, 2, 23, 59, 59, 999)) : null,
        paid_at: state === 'Paid' ? new Date(Date.UTC(2026, 10, 3, 0, 0, 0, 0)) : null,
      };
    }),
  );
  await db().insertInto('payment_requests').values(rows).execute();
  // Microseconds that Node's Date never holds: 0.999999 s must read .999, not round up.
  await sql`UPDATE payment_requests SET created_at = timestamptz '2026-11-05 10:20:30.999999+00' + make_interval(mins => number::int - 5000),
                                       updated_at = timestamptz '1999-12-31 23:59:59.000001+00' + make_interval(secs => number::int - 5000)
            WHERE business_id = ${biz.businessId}`.execute(db());
});
afterAll(async () => t?.close());

async function listAll(view: 'history' | 'draft', extra = '') {
  const res = await get(t.app, `/api/businesses/${biz.businessId}/payment-requests?view=${view}&pageSize=100${extra}`, biz.token);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  return res;
}

describe('list items written by PostgreSQL', () => {
  it('are exactly what the detail view says about each request, field by field', async () => {
    const items = [...(await listAll('history')).json().data.items, ...(await listAll('draft')).json().data.items] as PaymentRequest[];
    expect(items).toHaveLength(RequestState.options.length * AWKWARD.length);
    for (const item of items) {
      // The contract's own schema accepts it, with nothing more and nothing less.
      expect(PaymentRequest.strict().parse(item)).toEqual(item);
      const detail = await get(t.app, `/api/businesses/${biz.businessId}/payment-requests/${item.transactionId}`, biz.token);
      expect(detail.statusCode, detail.body).toBe(200);
      // What only the detail has: its link, timeline, payments, channel, messages, batch, and what a QR code's payer gave.
      const {
        payLink: _link,
        timeline: _timeline,
        payments: _payments,
        channel: _channel,
        emails: _emails,
        batch: _batch,
        payerPhone: _phone,
        payerNote: _note,
        ...fields
      } = detail.json().data as Record<string, unknown>;
      expect(item).toEqual(fields);
    }
  });

  it('keep the fields in the order and compact form JSON.stringify gives', async () => {
    const res = await listAll('history', '&sortBy=reference&sortDirection=asc');
    expect(res.body).toBe(JSON.stringify(res.json()));
    const first = res.json().data.items[0] as PaymentRequest;
    expect(Object.keys(first)).toEqual(Object.keys(PaymentRequest.shape));
    // The first non-draft request (drafts are the first eight numbers).
    const n = Number(first.referenceNumber.slice('TRX-'.length)) - 5000;
    expect(n).toBe(AWKWARD.length);
    expect(first.createdAt).toBe(new Date(Date.UTC(2026, 10, 5, 10, 20 + n, 30, 999)).toISOString());
    expect(first.updatedAt).toBe(new Date(Date.UTC(1999, 11, 31, 23, 59, 59 + n, 0)).toISOString());
    expect(first.memo).toBe('Plain memo');
    expect(first.amountCents).toBe(1 + n * 1_234_567);
  });

  it('escape text so that it reads back as written', async () => {
    const items = (await listAll('history', '&sortBy=reference&sortDirection=asc')).json().data.items as PaymentRequest[];
    expect(new Set(items.map((i) => i.memo))).toEqual(new Set(AWKWARD));
    expect(new Set(items.map((i) => i.payerName))).toEqual(new Set(['Ana "The Payer" Díaz', 'Back\\slash Co', 'Tab\tName 😀']));
  });

  it('come in the list order, each page its own rows, in either direction', async () => {
    const pages: string[] = [];
    for (const page of [1, 2, 3, 4, 5]) {
      const res = await get(t.app, `/api/businesses/${biz.businessId}/payment-requests?sortBy=amount&sortDirection=desc&pageSize=20&page=${page}`, biz.token);
      const items = res.json().data.items as PaymentRequest[];
      expect(items.map((i) => i.amountCents)).toEqual([...items.map((i) => i.amountCents)].sort((a, b) => b - a));
      pages.push(...items.map((i) => i.transactionId));
    }
    expect(new Set(pages).size).toBe(pages.length);
    const empty = await get(t.app, `/api/businesses/${biz.businessId}/payment-requests?search=nobody-matches&pageSize=20`, biz.token);
    expect(empty.json()).toEqual({ status: 'Success', data: { items: [], page: 1, pageSize: 20, total: 0 } });
  });
});
