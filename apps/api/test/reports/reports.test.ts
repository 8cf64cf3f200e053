// PostgreSQL pass: reports aggregated by SQL in the business's time zone.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMoney, type BillingReport, type ReportOverview } from '@tay/contract';
import { todayIn } from '../../src/domain/payment-requests/request-record';
import { approvedBusiness, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { completeSetup, createBusiness, request } from '../support/businesses';
import { errorOf, registeredUser } from '../support/identity';
import { pdfText } from '../invoices/invoice-api';
import { BANK, CARDS, insertRequest, pay, paymentRow, requestRow, tokenize } from '../support/payments';
import { addMember } from '../support/payouts';
import { call } from '../support/requests';
import { createTestApp, eventually, type TestApp } from '../support/test-app';
import { expectedHours, expectedPayers, expectedReport, localDay, rawRows } from './recompute';

let t: TestApp;
const db = () => t.runtime.database.db;
const NY = 'America/New_York';

beforeAll(async () => {
  t = await createTestApp({ SANDBOX_SETTLEMENT_SECONDS: '1', SANDBOX_AUTO_APPROVE: 'false' }, { listen: true });
});
afterAll(async () => t?.close());

const card = (number = CARDS.visa) => tokenize(t.app, t.runtime, { card: number });
const bank = (account = BANK.settles) => tokenize(t.app, t.runtime, { bankAccount: account });

async function paid(payToken: string, body: Record<string, unknown>): Promise<string> {
  const res = await pay(t.app, payToken, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.payment.paymentId as string;
}

async function report(biz: ApprovedBusiness, query: string): Promise<BillingReport> {
  const res = await request(t.app, 'GET', `/api/businesses/${biz.businessId}/reports/billing?${query}`, biz.token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as BillingReport;
}

const at = (iso: string) => new Date(iso);

/** Moves a request's first send (and its send) to an instant, as if it had been sent then. */
async function sentAt(requestId: string, instant: string) {
  await db()
    .updateTable('payment_requests')
    .set({ sent_at: at(instant), first_sent_at: at(instant) })
    .where('id', '=', requestId)
    .execute();
}

/** The report's buckets and totals compared with the raw rows' recomputation, figure by figure. */
function expectMatches(actual: BillingReport, expected: ReturnType<typeof expectedReport>) {
  expect(actual.buckets.map(({ label: _label, ...figures }) => figures)).toEqual(expected.buckets);
  expect(actual.totals).toEqual(expected.totals);
  expect(actual.byStatus).toEqual(expect.arrayContaining(expected.byStatus));
  expect(actual.byStatus).toHaveLength(expected.byStatus.length);
  expect(actual.byMethod).toEqual(expected.byMethod);
  expect(actual.byKind).toEqual(expected.byKind);
}

describe('the billing report agrees with the raw rows', () => {
  let biz: ApprovedBusiness;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    biz = await approvedBusiness(t.app, db(), 'owner@reports-dst.example');
    const pat = await insertPayer(db(), biz.businessId, { email: 'pat@payers.example', displayName: 'Pat Payer' });
    const sam = await insertPayer(db(), biz.businessId, { email: 'sam@payers.example', displayName: 'Sam Sender' });

    // Paid in full by card, settled: Paid.
    const full = await insertRequest(db(), biz.businessId, pat, { amountCents: 12_500 });
    ids.full = full.requestId;
    ids.fullPayment = await paid(full.payToken, { method: 'card', processorToken: await card(), amountCents: 12_500 });
    // Part paid by card, the request an invoice's.
    const part = await insertRequest(db(), biz.businessId, sam, { amountCents: 20_000, allowPartial: true });
    ids.part = part.requestId;
    await db()
      .updateTable('payment_requests')
      .set({
        source_kind: 'invoice',
        source_id: 'inv_reports_test',
        source_number: 7,
        source: JSON.stringify({ list: { invoiceId: 'inv_reports_test', invoiceNumber: 'INV-0007' } }),
      })
      .where('id', '=', part.requestId)
      .execute();
    ids.partPayment = await paid(part.payToken, { method: 'card', processorToken: await card(CARDS.mastercard), amountCents: 5_000 });
    // Paid by a bank debit that is returned after it settles.
    const returned = await insertRequest(db(), biz.businessId, pat, { amountCents: 30_000 });
    ids.returned = returned.requestId;
    ids.returnedPayment = await paid(returned.payToken, { method: 'bank_account', processorToken: await bank(BANK.returned), amountCents: 30_000 });
    // Sent then cancelled; still open and unpaid; a draft (never billed).
    ids.cancelled = (await insertRequest(db(), biz.businessId, sam, { amountCents: 4_000, state: 'Cancelled' })).requestId;
    ids.open = (await insertRequest(db(), biz.businessId, sam, { amountCents: 8_000 })).requestId;
    ids.draft = (await insertRequest(db(), biz.businessId, pat, { amountCents: 9_900, state: 'Draft' })).requestId;
    // Paid with the card a payer's bank disputes once it settles (ADR 051), and won with evidence.
    const disputed = await insertRequest(db(), biz.businessId, sam, { amountCents: 6_000 });
    ids.disputed = disputed.requestId;
    ids.disputedPayment = await paid(disputed.payToken, { method: 'card', processorToken: await card(CARDS.disputed), amountCents: 6_000 });

    await eventually(async () => (await requestRow(db(), ids.full!)).state === 'Paid', 20_000);
    await eventually(async () => (await paymentRow(db(), ids.partPayment!)).settled_at !== null, 20_000);
    await eventually(async () => (await paymentRow(db(), ids.returnedPayment!)).state === 'Returned', 30_000);
    ids.dispute = (await eventually(() => db().selectFrom('disputes').select('id').where('business_id', '=', biz.businessId).executeTakeFirst(), 20_000)).id;
    const answered = await call(
      t.app,
      'POST',
      `/api/businesses/${biz.businessId}/disputes/${ids.dispute}/evidence`,
      biz.token,
      { productDescription: 'Delivered as ordered' },
      { 'idempotency-key': 'reports-dispute-evidence' },
    );
    expect(answered.statusCode, answered.body).toBe(200);
    await eventually(
      async () => (await db().selectFrom('disputes').select('state').where('id', '=', ids.dispute!).executeTakeFirstOrThrow()).state === 'Won',
      20_000,
    );
    // $20.00 of the full payment refunded (ADR 051); a refund asked for more than is left is refused and counts nowhere.
    const refund = (amountCents: number, key: string) =>
      call(
        t.app,
        'POST',
        `/api/businesses/${biz.businessId}/payment-requests/${ids.full}/refunds`,
        biz.token,
        { amountCents, reason: 'duplicate' },
        {
          'idempotency-key': key,
        },
      );
    const refunded = await refund(2_000, 'reports-refund-1');
    expect(refunded.statusCode, refunded.body).toBe(201);
    ids.refund = refunded.json().data.refundId as string;
    expect((await refund(20_000, 'reports-refund-2')).statusCode).toBe(409);

    // Now move everything to instants around midnight and the 2026 DST changes in New York.
    // Mar 8 2026 is 23 hours long (02:00 EST → 03:00 EDT); Nov 1 2026 is 25 (01:00–02:00 twice).
    await sentAt(ids.full!, '2026-03-08T04:30:00Z'); // Mar 7, 23:30 EST: Mar 7, not Mar 8
    await db()
      .updateTable('payments')
      .set({ processed_at: at('2026-03-08T07:30:00Z') })
      .where('id', '=', ids.fullPayment!)
      .execute(); // Mar 8, 03:30 EDT
    await db()
      .updateTable('payment_requests')
      .set({ paid_at: at('2026-03-09T03:59:00Z'), due_date: '2026-03-08' })
      .where('id', '=', ids.full!)
      .execute(); // Mar 8, 23:59 EDT: on time
    await sentAt(ids.part!, '2026-03-08T06:59:00Z'); // Mar 8, 01:59 EST, the last hour before the jump
    await db()
      .updateTable('payments')
      .set({ processed_at: at('2026-03-09T03:30:00Z') })
      .where('id', '=', ids.partPayment!)
      .execute(); // Mar 8, 23:30 EDT
    await sentAt(ids.returned!, '2026-11-01T05:30:00Z'); // Nov 1, 01:30 EDT (the first 01:30)
    await db()
      .updateTable('payments')
      .set({ processed_at: at('2026-11-01T06:30:00Z'), returned_at: at('2026-11-02T04:30:00Z') }) // 01:30 EST (the second); Nov 1, 23:30 EST
      .where('id', '=', ids.returnedPayment!)
      .execute();
    await sentAt(ids.cancelled!, '2026-11-01T04:00:00Z'); // Nov 1, 00:00 EDT: the day's first instant
    await sentAt(ids.open!, '2026-03-02T05:00:00Z'); // Monday Mar 2, 00:00 EST
    await db()
      .updateTable('refunds')
      .set({ processed_at: at('2026-03-10T03:30:00Z') })
      .where('id', '=', ids.refund!)
      .execute(); // Mar 9, 23:30 EDT
    // The disputed payment collected on Mar 3; its dispute opened late on Mar 4 and was won on Mar 6.
    await sentAt(ids.disputed!, '2026-03-03T15:00:00Z');
    await db()
      .updateTable('payments')
      .set({ processed_at: at('2026-03-03T16:00:00Z') })
      .where('id', '=', ids.disputedPayment!)
      .execute();
    await db()
      .updateTable('disputes')
      .set({ created_at: at('2026-03-05T04:30:00Z'), closed_at: at('2026-03-06T18:00:00Z') }) // Mar 4, 23:30 EST; Mar 6, 13:00 EST
      .where('id', '=', ids.dispute!)
      .execute();
  }, 120_000);

  it('puts each instant on its New York day: 23:30 stays on its day, the DST days have their payments', async () => {
    const days = await report(biz, 'from=2026-03-01&to=2026-03-09');
    const day = (d: string) => days.buckets.find((b) => b.from === d)!;
    expect(day('2026-03-07')).toMatchObject({ billedCount: 1, billedCents: 12_500, collectedCents: 0, label: 'Mar 07, 2026' });
    expect(day('2026-03-08')).toMatchObject({ billedCount: 1, billedCents: 20_000, collectedCount: 2, collectedCents: 17_500 });
    // The refund on the day it went through, whenever its payment was collected: off the net.
    expect(day('2026-03-09')).toMatchObject({ billedCount: 0, collectedCount: 0, refundedCount: 1, refundedCents: 2_000, netCents: -2_000 });
    expect(days.totals).toMatchObject({ refundedCount: 1, refundedCents: 2_000 });
    expect(days.totals.netCents).toBe(days.totals.collectedCents - days.totals.returnedCents - 2_000 - days.totals.feesCents);
    expect(day('2026-03-02')).toMatchObject({ billedCents: 8_000, outstandingCents: 8_000 });
    // The dispute: the amount and its fee off the day it opened, the amount back on the day it was won (the fee kept).
    expect(day('2026-03-04')).toMatchObject({ collectedCents: 0, disputedCount: 1, disputedCents: 6_000, feesCents: 1_500, netCents: -7_500 });
    expect(day('2026-03-06')).toMatchObject({ disputedCount: 0, disputedCents: -6_000, feesCents: 0, netCents: 6_000 });
    expect(days.totals).toMatchObject({ disputedCount: 1, disputedCents: 0 });
    expect(days.buckets).toHaveLength(9);

    const fall = await report(biz, 'from=2026-11-01&to=2026-11-02');
    expect(fall.buckets[0]).toMatchObject({ from: '2026-11-01', billedCount: 2, billedCents: 34_000, collectedCents: 30_000, returnedCents: 30_000 });
    // Collected and returned the same day: the fee comes back, nothing reaches the business.
    expect(fall.buckets[0]!.feesCents).toBe(0);
    expect(fall.buckets[0]!.netCents).toBe(0);
  });

  it('every figure by day, week and month equals the raw rows', async () => {
    const raw = await rawRows(db(), biz.businessId);
    for (const groupBy of ['day', 'week', 'month'] as const) {
      const actual = await report(biz, `from=2026-02-25&to=2026-11-30&groupBy=${groupBy}`);
      expect(actual).toMatchObject({ from: '2026-02-25', to: '2026-11-30', groupBy, timeZone: NY, hours: [] });
      expectMatches(actual, expectedReport(raw, NY, '2026-02-25', '2026-11-30', groupBy));
    }
    const weeks = await report(biz, 'from=2026-02-25&to=2026-03-10&groupBy=week');
    // Monday-start weeks cut to the range: Wed Feb 25 – Sun Mar 1, then Mar 2–8, then Mar 9–10.
    expect(weeks.buckets.map((b) => [b.from, b.to, b.label])).toEqual([
      ['2026-02-25', '2026-03-01', 'Week of Feb 23, 2026'],
      ['2026-03-02', '2026-03-08', 'Week of Mar 02, 2026'],
      ['2026-03-09', '2026-03-10', 'Week of Mar 09, 2026'],
    ]);
    const months = await report(biz, 'from=2026-02-25&to=2026-04-02&groupBy=month');
    expect(months.buckets.map((b) => [b.from, b.to, b.label])).toEqual([
      ['2026-02-25', '2026-02-28', 'February 2026'],
      ['2026-03-01', '2026-03-31', 'March 2026'],
      ['2026-04-01', '2026-04-02', 'April 2026'],
    ]);
    expect(months.byStatus).toEqual([
      { status: 'Sent', count: 1, cents: 8_000 },
      { status: 'Paid', count: 2, cents: 18_500 },
      { status: 'PartiallyPaid', count: 1, cents: 20_000 },
    ]);
  });

  it('a single day has its hours: 23 on the spring-forward day, 25 on the fall-back day, 24 otherwise', async () => {
    const raw = await rawRows(db(), biz.businessId);
    for (const [day, hours] of [
      ['2026-03-08', 23],
      ['2026-11-01', 25],
      ['2026-03-07', 24],
    ] as const) {
      const actual = await report(biz, `from=${day}&to=${day}`);
      expect(actual.hours).toHaveLength(hours);
      expect(actual.hours.map(({ label: _label, ...hour }) => hour)).toEqual(expectedHours(raw, NY, day));
      expectMatches(actual, expectedReport(raw, NY, day, day, 'day'));
    }
    const spring = await report(biz, 'from=2026-03-08&to=2026-03-08');
    expect(spring.hours.map((h) => h.label).slice(0, 4)).toEqual(['00:00', '01:00', '03:00', '04:00']);
    expect(spring.hours[1]).toMatchObject({ billedCount: 1, billedCents: 20_000 });
    expect(spring.hours[22]).toMatchObject({ label: '23:00', collectedCents: 5_000 });
    const fall = await report(biz, 'from=2026-11-01&to=2026-11-01');
    expect(fall.hours.map((h) => h.label).slice(0, 4)).toEqual(['00:00', '01:00', '01:00 (2nd)', '02:00']);
    expect(fall.hours[1]).toMatchObject({ billedCents: 30_000, collectedCents: 0 });
    expect(fall.hours[2]).toMatchObject({ billedCents: 0, collectedCents: 30_000 });
  });

  it('a resend moves the send, not the day the request was billed', async () => {
    await db()
      .updateTable('payment_requests')
      .set({ sent_at: at('2026-03-20T15:00:00Z'), state: 'Resent' })
      .where('id', '=', ids.open!)
      .execute();
    const row = await requestRow(db(), ids.open!);
    expect(row.first_sent_at).toEqual(at('2026-03-02T05:00:00Z'));
    const days = await report(biz, 'from=2026-03-02&to=2026-03-20');
    expect(days.buckets[0]).toMatchObject({ billedCents: 8_000, outstandingCents: 8_000 });
    expect(days.buckets.at(-1)).toMatchObject({ billedCents: 0 });
    expect(days.byStatus).toContainEqual({ status: 'Resent', count: 1, cents: 8_000 });
  });

  it('the rollup kept statement by statement equals one rebuilt from the raw rows', async () => {
    const tables = async () => {
      const days = await sql`SELECT * FROM report_days WHERE business_id = ${biz.businessId} ORDER BY day`.execute(db());
      const states = await sql`SELECT * FROM report_day_states WHERE business_id = ${biz.businessId} AND (n <> 0 OR cents <> 0) ORDER BY day, state`.execute(
        db(),
      );
      const payers =
        await sql`SELECT * FROM report_payer_months WHERE business_id = ${biz.businessId} AND (n <> 0 OR cents <> 0) ORDER BY month, payer_key`.execute(db());
      const nonZero = (row: Record<string, unknown>) => Object.entries(row).some(([key, value]) => key !== 'business_id' && key !== 'day' && value !== 0);
      return { days: days.rows.filter((row) => nonZero(row as Record<string, unknown>)), states: states.rows, payers: payers.rows };
    };
    const kept = await tables();
    expect(kept.days.length).toBeGreaterThanOrEqual(4);
    await sql`SELECT report_rebuild(${biz.businessId})`.execute(db());
    expect(await tables()).toEqual(kept);
  });

  it('a time-zone change rebuilds the rollup in the same transaction: the figures move days', async () => {
    const tokyo = 'Asia/Tokyo';
    await db().updateTable('businesses').set({ time_zone: tokyo }).where('id', '=', biz.businessId).execute();
    try {
      const raw = await rawRows(db(), biz.businessId);
      const actual = await report(biz, 'from=2026-02-25&to=2026-11-30');
      expect(actual.timeZone).toBe(tokyo);
      expectMatches(actual, expectedReport(raw, tokyo, '2026-02-25', '2026-11-30', 'day'));
      // Mar 8 23:30 in New York is Mar 9 afternoon in Tokyo.
      expect(localDay(at('2026-03-09T03:30:00Z'), tokyo)).toBe('2026-03-09');
      expect(actual.buckets.find((b) => b.from === '2026-03-09')).toMatchObject({ collectedCents: 5_000 });
    } finally {
      await db().updateTable('businesses').set({ time_zone: NY }).where('id', '=', biz.businessId).execute();
    }
    const raw = await rawRows(db(), biz.businessId);
    expectMatches(await report(biz, 'from=2026-02-25&to=2026-11-30'), expectedReport(raw, NY, '2026-02-25', '2026-11-30', 'day'));
  });

  it('the CSV is the report’s table: its rows and totals, in dollars; Accept: text/csv gives the same', async () => {
    const json = await report(biz, 'from=2026-03-01&to=2026-03-31&groupBy=week');
    const base = `/api/businesses/${biz.businessId}/reports`;
    const csv = await t.app.inject({
      method: 'GET',
      url: `${base}/billing.csv?from=2026-03-01&to=2026-03-31&groupBy=week`,
      headers: { authorization: `Bearer ${biz.token}` },
    });
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe('attachment; filename="billing-report-2026-03-01-to-2026-03-31.csv"');
    const lines = csv.body
      .replace(/^\ufeff/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe(
      'Period,Requests billed,Billed (USD),Payments,Collected (USD),Returned (USD),Refunded (USD),Disputed (USD),Fees (USD),Net (USD),Outstanding (USD)',
    );
    const dollars = (cents: number) => (cents / 100).toFixed(2);
    const row = (label: string, f: BillingReport['totals']) =>
      [
        label,
        f.billedCount,
        dollars(f.billedCents),
        f.collectedCount,
        dollars(f.collectedCents),
        dollars(f.returnedCents),
        dollars(f.refundedCents),
        dollars(f.disputedCents),
        dollars(f.feesCents),
        dollars(f.netCents),
        dollars(f.outstandingCents),
      ].join(',');
    expect(lines.slice(1)).toEqual([...json.buckets.map((b) => row(`"${b.label}"`, b)), row('Total', json.totals)]);

    const accepted = await t.app.inject({
      method: 'GET',
      url: `${base}/billing?from=2026-03-01&to=2026-03-31&groupBy=week`,
      headers: { authorization: `Bearer ${biz.token}`, accept: 'text/csv' },
    });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.body).toBe(csv.body);
  });

  it('a one-day CSV is the daily page’s table: one row per hour of the business’s day (23 on the spring-forward day), then the total', async () => {
    const json = await report(biz, 'from=2026-03-08&to=2026-03-08');
    expect(json.hours).toHaveLength(23);
    const csv = await t.app.inject({
      method: 'GET',
      url: `/api/businesses/${biz.businessId}/reports/billing.csv?from=2026-03-08&to=2026-03-08`,
      headers: { authorization: `Bearer ${biz.token}` },
    });
    expect(csv.statusCode, csv.body).toBe(200);
    const lines = csv.body
      .replace(/^\ufeff/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines).toHaveLength(1 + 23 + 1);
    const day = json.buckets[0]!.label;
    const dollars = (cents: number) => (cents / 100).toFixed(2);
    expect(lines.slice(1, -1)).toEqual(
      json.hours.map((h) =>
        [`"${day} ${h.label}"`, h.billedCount, dollars(h.billedCents), h.collectedCount, dollars(h.collectedCents), '', '', '', '', '', ''].join(','),
      ),
    );
    expect(lines[1]!.startsWith(`"${day} 00:00"`)).toBe(true);
    expect(lines.some((l) => l.startsWith(`"${day} 02:00"`))).toBe(false);
    expect(lines.at(-1)!.startsWith('Total,')).toBe(true);
    const collected = json.hours.reduce((sum, h) => sum + h.collectedCents, 0);
    expect(collected).toBe(json.totals.collectedCents);
  });

  it('the PDF names the business, the range, the time zone and the totals', async () => {
    const json = await report(biz, 'from=2026-03-01&to=2026-03-31');
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/businesses/${biz.businessId}/reports/billing.pdf?from=2026-03-01&to=2026-03-31`,
      headers: { authorization: `Bearer ${biz.token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(res.rawPayload);
    expect(text).toContain('Billing report');
    expect(text).toContain('Biz owner@reports-dst.example');
    expect(text).toContain('Mar 01, 2026 to Mar 31, 2026');
    expect(text).toContain(NY);
    expect(text).toContain(`${formatMoney(json.totals.collectedCents)} (${json.totals.collectedCount} payments)`);
    expect(text).toContain(formatMoney(json.totals.netCents));
    expect(text).toContain('Refunded');
    expect(text).toContain(`${formatMoney(2_000)} (1 refunds)`);
    expect(text).toContain('Disputed');
    expect(text).toContain(`${formatMoney(0)} (1 disputes)`);
    expect(text).toMatch(/Partially Paid\s+1\s+\$200\.00/);
    expect(text).toMatch(/Invoices\s+1\s+\$50\.00/);
  });
});

describe('the overview agrees with the raw rows', () => {
  it('this month against last, 90 days, methods, kinds, top payers and the share paid on time', async () => {
    const biz = await approvedBusiness(t.app, db(), 'owner@reports-overview.example');
    const payers = await Promise.all(
      ['ana', 'ben', 'cy'].map((name) => insertPayer(db(), biz.businessId, { email: `${name}@payers.example`, displayName: name })),
    );
    // A walk-in payer through a QR code: no payer record, known by the name given. (First: the
    // code's request takes the business's next number, which the requests written below skip.)
    const code = await request(t.app, 'POST', `/api/businesses/${biz.businessId}/qr-codes`, biz.token, { label: 'Front counter', amountMode: 'open' });
    expect(code.statusCode, code.body).toBe(201);
    const qr = await t.app.inject({
      method: 'POST',
      url: `/api/public/qr/${(code.json().data.payUrl as string).split('/pay/qr/')[1]}/payments`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ method: 'card', processorToken: await card(), amountCents: 12_000, payerName: 'Walk-in Wendy' }),
    });
    expect(qr.statusCode, qr.body).toBe(201);
    const qrRequest = await db()
      .selectFrom('payment_requests')
      .select('id')
      .where('business_id', '=', biz.businessId)
      .where('source_kind', '=', 'qr')
      .executeTakeFirstOrThrow();
    const made: { requestId: string; paymentId: string }[] = [];
    for (const [index, [payer, cents]] of (
      [
        [payers[0]!, 40_000],
        [payers[1]!, 25_000],
        [payers[2]!, 7_500],
        [payers[0]!, 3_000],
      ] as const
    ).entries()) {
      const email = ['ana', 'ben', 'cy', 'ana'][index]!;
      const { requestId, payToken } = await insertRequest(db(), biz.businessId, payer, { amountCents: cents, payerEmail: `${email}@payers.example` });
      const paymentId = await paid(payToken, {
        method: index === 2 ? 'bank_account' : 'card',
        processorToken: index === 2 ? await bank() : await card(),
        amountCents: cents,
      });
      made.push({ requestId, paymentId });
    }
    for (const requestId of [qrRequest.id, ...made.map((m) => m.requestId)]) {
      await eventually(async () => (await requestRow(db(), requestId)).state === 'Paid', 30_000);
    }
    // One was paid after its due date; one was collected last month.
    await db().updateTable('payment_requests').set({ due_date: '2020-01-01' }).where('id', '=', made[1]!.requestId).execute();
    const lastMonth = new Date(Date.now() - 40 * 86_400_000);
    await db().updateTable('payments').set({ processed_at: lastMonth }).where('id', '=', made[3]!.paymentId).execute();
    await sentAt(made[3]!.requestId, lastMonth.toISOString());

    const res = await request(t.app, 'GET', `/api/businesses/${biz.businessId}/reports/overview`, biz.token);
    expect(res.statusCode, res.body).toBe(200);
    const overview = res.json().data as ReportOverview;
    const raw = await rawRows(db(), biz.businessId);
    const today = todayIn(NY);
    expect(overview).toMatchObject({ timeZone: NY, today });
    const monthEnd = (month: string) => new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).toISOString().slice(0, 10);
    for (const which of ['thisMonth', 'lastMonth'] as const) {
      const { month } = overview[which];
      const expected = expectedReport(raw, NY, `${month}-01`, monthEnd(month), 'month');
      expect(overview[which].figures, which).toEqual(expected.totals);
    }
    expect(overview.thisMonth.month).toBe(today.slice(0, 7));
    expect(overview.thisMonth.figures.collectedCents).toBe(84_500);
    const thisMonth = expectedReport(raw, NY, `${today.slice(0, 7)}-01`, monthEnd(today.slice(0, 7)), 'month');
    expect(overview.byMethod).toEqual(thisMonth.byMethod);
    expect(overview.byKind).toEqual(thisMonth.byKind);
    expect(overview.onTime).toEqual({ paidCount: thisMonth.paidCount, onTimeCount: thisMonth.onTimeCount });
    expect(overview.onTime).toEqual({ paidCount: 5, onTimeCount: 4 });
    expect(overview.byKind.find((k) => k.kind === 'qr')).toEqual({ kind: 'qr', count: 1, cents: 12_000 });
    expect(overview.topPayers).toEqual(expectedPayers(raw, NY, today.slice(0, 7)).slice(0, 5));
    expect(overview.topPayers[2]).toMatchObject({ payerId: null, name: 'Walk-in Wendy', count: 1 });
    expect(overview.topPayers.map((p) => [p.email, p.cents])).toEqual([
      ['ana@payers.example', 40_000],
      ['ben@payers.example', 25_000],
      ['', 12_000],
      ['cy@payers.example', 7_500],
    ]);

    const from = new Date(Date.parse(`${today}T00:00:00Z`) - 89 * 86_400_000).toISOString().slice(0, 10);
    const days = expectedReport(raw, NY, from, today, 'day');
    expect(overview.daily).toHaveLength(90);
    expect(overview.daily).toEqual(days.buckets.map((b) => ({ date: b.from, collectedCents: b.collectedCents, collectedCount: b.collectedCount })));
  }, 120_000);
});

describe('who may read which report', () => {
  let biz: ApprovedBusiness;
  beforeAll(async () => {
    biz = await approvedBusiness(t.app, db(), 'owner@reports-access.example');
  });
  const get = (path: string, token = biz.token, businessId = biz.businessId) => request(t.app, 'GET', `/api/businesses/${businessId}/reports/${path}`, token);

  it('refuses a range that ends before it starts, one over two years, and an unknown grouping, naming the field', async () => {
    const reversed = await get('billing?from=2026-03-10&to=2026-03-09');
    expect(reversed.statusCode).toBe(400);
    expect(errorOf(reversed).fields).toEqual({ to: 'The To date must be on or after the From date.' });
    const long = await get('billing?from=2024-01-01&to=2026-01-02');
    expect(long.statusCode).toBe(400);
    expect(errorOf(long).fields?.to).toMatch(/at most two years/);
    expect((await get('billing?from=2024-01-01&to=2025-12-31')).statusCode).toBe(200);
    const grouping = await get('billing?from=2026-03-01&to=2026-03-09&groupBy=year');
    expect(grouping.statusCode).toBe(400);
    expect(Object.keys(errorOf(grouping).fields ?? {})).toEqual(['groupBy']);
    expect((await get('billing.csv?from=2026-03-10&to=2026-03-09')).statusCode).toBe(400);
    expect((await get('billing.pdf?from=2026-03-01')).statusCode).toBe(400);
  });

  it("answers 404 for another business's reports, 403 while the business is not approved, and lets a viewer read", async () => {
    const other = await approvedBusiness(t.app, db(), 'other@reports-access.example');
    for (const path of [
      'overview',
      'billing?from=2026-03-01&to=2026-03-02',
      'billing.csv?from=2026-03-01&to=2026-03-02',
      'billing.pdf?from=2026-03-01&to=2026-03-02',
    ]) {
      expect((await get(path, other.token)).statusCode, path).toBe(404);
    }

    const pendingOwner = await registeredUser(t.app, 'pending@reports-access.example');
    const { businessId } = await createBusiness(t.app, pendingOwner, { businessName: 'Pending Reports', entityType: 'standard' });
    await completeSetup(t.app, pendingOwner, businessId);
    const submitted = await request(t.app, 'PATCH', `/api/businesses/${businessId}/update/submit`, pendingOwner, {});
    expect(submitted.json().data.businessState).toBe('Pending');
    const pending = await get('overview', pendingOwner, businessId);
    expect(pending.statusCode).toBe(403);
    expect(errorOf(pending)).toMatchObject({ code: 'BUSINESS_NOT_APPROVED', message: 'Analytics open once your business is approved.' });

    const viewer = await addMember(t.app, db(), biz.businessId, 'viewer@reports-access.example', 'viewer');
    expect((await get('overview', viewer)).statusCode).toBe(200);
    expect((await get('billing?from=2026-03-01&to=2026-03-02', viewer)).statusCode).toBe(200);
  });

  it('a business with nothing yet reads zeros, not an error', async () => {
    const empty = await report(biz, 'from=2026-03-01&to=2026-03-03');
    expect(empty.buckets.map((b) => b.collectedCents)).toEqual([0, 0, 0]);
    expect(empty.byStatus).toEqual([]);
    expect(empty.byMethod).toEqual([
      { method: 'card', count: 0, cents: 0 },
      { method: 'bank_account', count: 0, cents: 0 },
    ]);
  });
});
