// PostgreSQL pass: the portal's search, the database's text matching.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchResult } from '@tay/contract';
import { approvedBusiness, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { insertPatient } from '../support/patients';
import { addMember, enablePayouts, fund, insertReceiver } from '../support/payouts';
import { call, requestsApi } from '../support/requests';
import { insertStudent } from '../support/students';
import { createTestApp, type TestApp } from '../support/test-app';
import { invoicesApi } from '../invoices/invoice-api';

/**
 * Find anything (issue 35, point 18): one search over the business — payers, requests by TRX- or
 * INV- number, memo or amount, invoices, QR codes, receivers and payouts (payouts enabled),
 * students and patients (their templates) — and the history's own search by an INV- number.
 */

let t: TestApp;
let biz: ApprovedBusiness;
let other: ApprovedBusiness;
let viewer: string;
const db = () => t.runtime.database.db;
let requestId: string;
let requestNumber: string;
let invoiceRequestId: string;
let invoiceNumber: string;

beforeAll(async () => {
  t = await createTestApp();
  biz = await approvedBusiness(t.app, db(), 'owner@search.example');
  other = await approvedBusiness(t.app, db(), 'owner@search-other.example');
  viewer = await addMember(t.app, db(), biz.businessId, 'viewer@search.example', 'viewer');
  const ana = await insertPayer(db(), biz.businessId, { email: 'ana.lopez@families.example', displayName: 'Ana Lopez', reference: 'FAM-77' });
  await insertPayer(db(), other.businessId, { email: 'ana.other@families.example', displayName: 'Ana Otherbiz' });
  const api = requestsApi(t.app, biz);
  const made = await api.create(ana, { amountCents: 12_345, memo: 'Violin lessons for spring' });
  requestId = made.transactionId;
  requestNumber = made.referenceNumber;
  const invoice = await invoicesApi(t.app, biz).sent(ana);
  invoiceRequestId = invoice.transactionId!;
  invoiceNumber = invoice.number;
  await call(t.app, 'POST', `/api/businesses/${biz.businessId}/qr-codes`, biz.token, {
    label: 'Bake sale jar',
    amountMode: 'open',
    memo: '',
  });
}, 120_000);
afterAll(async () => t?.close());

async function search(q: string, token = biz.token, b = biz): Promise<SearchResult> {
  const res = await call(t.app, 'GET', `/api/businesses/${b.businessId}/search?q=${encodeURIComponent(q)}`, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as SearchResult;
}
const kinds = (r: SearchResult) => r.groups.map((g) => g.kind);
const titles = (r: SearchResult, kind: string) => r.groups.find((g) => g.kind === kind)?.hits.map((h) => h.title) ?? [];

describe('the search of a business', () => {
  it('finds a payer by name, e-mail or reference, and only this business’s', async () => {
    expect(titles(await search('ana'), 'payers')).toEqual(['Ana Lopez']);
    expect(titles(await search('FAM-77'), 'payers')).toEqual(['Ana Lopez']);
    expect(titles(await search('lopez@fam'), 'payers')).toEqual(['Ana Lopez']);
    expect(JSON.stringify(await search('Otherbiz'))).not.toContain('Ana Otherbiz');
  });

  it('finds a request by its TRX- number, its memo and its amount, linking to it in the history', async () => {
    const byNumber = await search(requestNumber);
    const hit = byNumber.groups.find((g) => g.kind === 'requests')!.hits[0]!;
    expect(hit).toMatchObject({ id: requestId, href: `/business/payment/transactions/history?transid=${requestId}` });
    expect(hit.title).toBe(`${requestNumber} · Ana Lopez`);
    expect(titles(await search('violin'), 'requests')).toEqual([`${requestNumber} · Ana Lopez`]);
    expect(titles(await search('$123.45'), 'requests')).toEqual([`${requestNumber} · Ana Lopez`]);
  });

  it('finds an invoice and the request that collects it by the INV- number; the history’s own search does too', async () => {
    const found = await search(invoiceNumber);
    expect(titles(found, 'invoices')).toEqual([`${invoiceNumber} · Ana Lopez`]);
    expect(found.groups.find((g) => g.kind === 'requests')!.hits.map((h) => h.id)).toEqual([invoiceRequestId]);
    const history = await call(t.app, 'GET', `/api/businesses/${biz.businessId}/payment-requests?search=${invoiceNumber}`, biz.token);
    expect(history.statusCode, history.body).toBe(200);
    expect(history.json().data.items.map((r: { transactionId: string }) => r.transactionId)).toEqual([invoiceRequestId]);
    expect(history.json().data.total).toBe(1);
  });

  it('finds QR codes by label; a viewer may search; another business’s id is not found (404)', async () => {
    expect(titles(await search('bake', viewer), 'qrCodes')).toEqual(['Bake sale jar']);
    const foreign = await call(t.app, 'GET', `/api/businesses/${other.businessId}/search?q=ana`, biz.token);
    expect(foreign.statusCode).toBe(404);
    const empty = await call(t.app, 'GET', `/api/businesses/${biz.businessId}/search?q=`, biz.token);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errorDetails.fields).toEqual({ q: 'Type what to find.' });
  });

  it('shows receivers and payouts only with payouts enabled, and finds a payout by its PAY- number', async () => {
    const receiverId = await insertReceiver(t.runtime, biz.businessId, { firstName: 'Rita', lastName: 'Receiver', email: 'rita@receivers.example' });
    expect(kinds(await search('rita'))).not.toContain('receivers');
    await enablePayouts(db(), biz.businessId);
    await fund(db(), biz.businessId, 100_000);
    const payout = await call(t.app, 'POST', `/api/businesses/${biz.businessId}/payouts`, biz.token, { receiverId, amountCents: 2_500 });
    expect(payout.statusCode, payout.body).toBe(201);
    expect(titles(await search('rita'), 'receivers')).toEqual(['Rita Receiver']);
    expect(titles(await search(payout.json().data.reference), 'payouts')).toEqual([`${payout.json().data.reference} · Rita Receiver`]);
  });

  it('shows students only in the student template, patients only in the healthcare template', async () => {
    const school = await approvedBusiness(t.app, db(), 'owner@search-school.example', 'student');
    await insertStudent(db(), school.businessId, { firstName: 'Sofia', lastName: 'Reyes', studentNumber: 'S-100' });
    const clinic = await approvedBusiness(t.app, db(), 'owner@search-clinic.example', 'healthCare');
    await insertPatient(db(), clinic.businessId, { firstName: 'Sofia', lastName: 'Patient', mrn: 'MRN-9' });
    expect(titles(await search('sofia', school.token, school), 'students')).toEqual(['Sofia Reyes']);
    expect(kinds(await search('sofia', school.token, school))).not.toContain('patients');
    expect(titles(await search('mrn-9', clinic.token, clinic), 'patients')).toEqual(['Sofia Patient']);
    expect(kinds(await search('sofia', clinic.token, clinic))).not.toContain('students');
  });
});
