// PostgreSQL pass: balances aggregated by SQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaymentRequest, StudentBalances } from '@tay/contract';
import { todayIn } from '../../src/domain/payment-requests/request-record';
import { approvedBusiness, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { errorOf } from '../support/identity';
import { addMember } from '../support/payouts';
import { CARDS, pay, requestRow, tokenize } from '../support/payments';
import { call, dayIn, outbox } from '../support/requests';
import { insertStudent } from '../support/students';
import { createTestApp, eventually, type TestApp } from '../support/test-app';

/**
 * Students' balances (issue 21, /business/billing/students): per student, what was billed in a
 * month (or a range of months), what was paid on it, and what is outstanding, with a total.
 * Billed counts the student's requests that were sent and are owed or paid (Sent, Resent,
 * Accepted, Paid, PartiallyPaid, Error) whose period starts in the months (a request of no
 * period: its due date); a draft, a scheduled, a withdrawn, cancelled, declined or expired one is
 * not billed. Outstanding = billed − paid; refunded is what was given back of what was paid.
 */

let t: TestApp;
let biz: ApprovedBusiness;
let standard: ApprovedBusiness;
let viewerToken: string;
const db = () => t.runtime.database.db;
let month: string;

let mia: { studentId: string; email: string };
let leo: { studentId: string; email: string };
let zoe: { studentId: string; email: string };

const url = (q = '', b = biz) => `/api/businesses/${b.businessId}/students/balances${q}`;
const requestUrl = (studentId: string) => `/api/businesses/${biz.businessId}/students/${studentId}/payment-requests`;

async function student(first: string, last: string, number: string, grade: string) {
  const email = `${first.toLowerCase()}.${last.toLowerCase()}@balances.example`;
  const payer = await insertPayer(db(), biz.businessId, { email, displayName: `${first}'s guardian` });
  const studentId = await insertStudent(db(), biz.businessId, { firstName: first, lastName: last, studentNumber: number, grade, guardians: [payer] });
  return { studentId, email };
}

async function bill(studentId: string, amountCents: number, over: Record<string, unknown> = {}): Promise<PaymentRequest> {
  const res = await call(t.app, 'POST', requestUrl(studentId), biz.token, {
    amountCents,
    dueDate: dayIn(10),
    allowPartial: true,
    mode: 'send',
    billTo: 'guardian',
    period: month,
    ...over,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as PaymentRequest;
}

async function balances(q = ''): Promise<StudentBalances> {
  const res = await call(t.app, 'GET', url(q), biz.token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as StudentBalances;
}

const previousMonth = (m: string) => {
  const [y, mm] = m.split('-').map(Number) as [number, number];
  return mm === 1 ? `${y - 1}-12` : `${y}-${String(mm - 1).padStart(2, '0')}`;
};

beforeAll(async () => {
  // Card payments settle a second after they are taken.
  t = await createTestApp({ SANDBOX_SETTLEMENT_SECONDS: '1', SANDBOX_AUTO_APPROVE: 'false' }, { listen: true });
  biz = await approvedBusiness(t.app, db(), 'owner@balances.example', 'student');
  standard = await approvedBusiness(t.app, db(), 'owner@shop-balances.example');
  viewerToken = await addMember(t.app, db(), biz.businessId, 'viewer@balances.example', 'viewer');
  const zone = (await db().selectFrom('businesses').select('time_zone').where('id', '=', biz.businessId).executeTakeFirstOrThrow()).time_zone;
  month = todayIn(zone).slice(0, 7);
  mia = await student('Mia', 'Lopez', 'S-1', 'Year 5');
  leo = await student('Leo', 'Lee', 'S-2', 'Year 6');
  zoe = await student('Zoe', 'Zhu', 'S-3', 'Year 5');

  // Mia: $125.00 billed this month, $40.00 paid of it by card (a partial payment).
  const first = await bill(mia.studentId, 12_500);
  const [mail] = await outbox(t.app, mia.email);
  const token = /\/pay\/([\w-]+)/.exec(mail!.text)![1]!;
  const card = await tokenize(t.app, t.runtime, { card: CARDS.visa });
  const paid = await pay(t.app, token, { method: 'card', processorToken: card, amountCents: 4_000 });
  expect(paid.statusCode, paid.body).toBeLessThan(300);
  await eventually(async () => ((await requestRow(db(), first.transactionId)).state === 'PartiallyPaid' ? true : undefined), 60_000);
  // $15.00 of it refunded (ADR 051): refunded, and still owed as before.
  const refund = await call(
    t.app,
    'POST',
    `/api/businesses/${biz.businessId}/payment-requests/${first.transactionId}/refunds`,
    biz.token,
    { amountCents: 1_500, reason: 'requested_by_payer' },
    { 'idempotency-key': 'balances-refund' },
  );
  expect(refund.statusCode, refund.body).toBe(201);
  // Mia: $30.00 more this month; a withdrawn $99.00 and a $77.00 draft that do not count; $50.00 last month.
  await bill(mia.studentId, 3_000);
  const withdrawn = await bill(mia.studentId, 9_900);
  const w = await call(t.app, 'POST', `/api/businesses/${biz.businessId}/payment-requests/${withdrawn.transactionId}/withdraw`, biz.token);
  expect(w.statusCode, w.body).toBe(200);
  await bill(mia.studentId, 7_700, { mode: 'draft' });
  await bill(mia.studentId, 5_000, { period: previousMonth(month) });
  // Leo: $20.00 this month, nothing paid. Zoe: nothing.
  await bill(leo.studentId, 2_000);
}, 180_000);
afterAll(async () => t?.close());

describe('GET /api/businesses/:id/students/balances', () => {
  it('adds up billed, paid, refunded and outstanding per student for the current month, with a total', async () => {
    const data = await balances();
    expect(data.from).toBe(month);
    expect(data.to).toBe(month);
    const byName = Object.fromEntries(data.items.map((b) => [b.name, b]));
    expect(byName['Mia Lopez']).toMatchObject({
      studentNumber: 'S-1',
      requests: 2,
      billedCents: 15_500,
      paidCents: 4_000,
      refundedCents: 1_500,
      outstandingCents: 11_500,
    });
    expect(byName['Leo Lee']).toMatchObject({ requests: 1, billedCents: 2_000, paidCents: 0, refundedCents: 0, outstandingCents: 2_000 });
    expect(byName['Zoe Zhu']).toMatchObject({ studentId: zoe.studentId, requests: 0, billedCents: 0, paidCents: 0, outstandingCents: 0 });
    expect(data.totals).toEqual({ billedCents: 17_500, paidCents: 4_000, refundedCents: 1_500, outstandingCents: 13_500 });
    expect(data.total).toBe(3);
    // Sorted by name by default.
    expect(data.items.map((b) => b.name)).toEqual(['Leo Lee', 'Mia Lopez', 'Zoe Zhu']);
  });

  it('counts another month, or a range of months', async () => {
    const last = await balances(`?period=${previousMonth(month)}`);
    expect(last.items.find((b) => b.name === 'Mia Lopez')).toMatchObject({ billedCents: 5_000, outstandingCents: 5_000 });
    expect(last.totals.billedCents).toBe(5_000);
    const both = await balances(`?from=${previousMonth(month)}&to=${month}`);
    expect(both.totals).toEqual({ billedCents: 22_500, paidCents: 4_000, refundedCents: 1_500, outstandingCents: 18_500 });
    expect(both.label).toContain('–');
  });

  it('searches by name or student id, filters by grade, sorts and pages; the total covers every match', async () => {
    expect((await balances('?search=leo')).items.map((b) => b.name)).toEqual(['Leo Lee']);
    expect((await balances('?search=S-3')).items.map((b) => b.name)).toEqual(['Zoe Zhu']);
    const grade = await balances(`?grade=${encodeURIComponent('Year 5')}`);
    expect(grade.items.map((b) => b.name)).toEqual(['Mia Lopez', 'Zoe Zhu']);
    expect(grade.totals.billedCents).toBe(15_500);
    const byOutstanding = await balances('?sortBy=outstanding&sortDirection=desc');
    expect(byOutstanding.items.map((b) => b.name)).toEqual(['Mia Lopez', 'Leo Lee', 'Zoe Zhu']);
    const page2 = await balances('?pageSize=2&page=2');
    expect(page2.items.map((b) => b.name)).toEqual(['Zoe Zhu']);
    expect(page2.total).toBe(3);
    expect(page2.totals.billedCents).toBe(17_500);
  });

  it('refuses bad months with the field named', async () => {
    for (const [q, field] of [
      ['?period=2026-13', 'period'],
      ['?period=December', 'period'],
      ['?from=2026-12&to=2026-10', 'from'],
      ['?sortBy=age', 'sortBy'],
    ] as const) {
      const res = await call(t.app, 'GET', url(q), biz.token);
      expect(res.statusCode, q).toBe(400);
      expect(errorOf(res).fields, q).toHaveProperty(field);
    }
  });

  it('exports the same query as CSV with a total line', async () => {
    const res = await call(t.app, 'GET', url(`/export.csv?grade=${encodeURIComponent('Year 5')}`), biz.token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/csv/);
    const lines = res.body
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('Student id,Student,Grade,Status,Period,Requests,Billed (USD),Paid (USD),Refunded (USD),Outstanding (USD)');
    expect(lines[1]).toMatch(/^S-1,Mia Lopez,Year 5,active,.+,2,155\.00,40\.00,15\.00,115\.00$/);
    expect(lines[2]).toMatch(/^S-3,Zoe Zhu,Year 5,active,.+,0,0\.00,0\.00,0\.00,0\.00$/);
    expect(lines[3]).toMatch(/^,Total,,,.+,2,155\.00,40\.00,15\.00,115\.00$/);
    expect(lines).toHaveLength(4);
  });

  it('lets a viewer read and export; another template’s business gets 404', async () => {
    expect((await call(t.app, 'GET', url(), viewerToken)).statusCode).toBe(200);
    expect((await call(t.app, 'GET', url('/export.csv'), viewerToken)).statusCode).toBe(200);
    const res = await call(t.app, 'GET', url('', standard), standard.token);
    expect(res.statusCode).toBe(404);
    expect(errorOf(res).message).toMatch(/student template/);
  });

  it('shows no other business’s students', async () => {
    const other = await approvedBusiness(t.app, db(), 'owner@other-balances.example', 'student');
    const res = await call(t.app, 'GET', url('', other), other.token);
    expect(res.json().data.items).toEqual([]);
    expect(res.json().data.totals).toEqual({ billedCents: 0, paidCents: 0, refundedCents: 0, outstandingCents: 0 });
    // Nor may its owner read this business's balances.
    expect((await call(t.app, 'GET', url(), other.token)).statusCode).toBe(404);
  });
});
