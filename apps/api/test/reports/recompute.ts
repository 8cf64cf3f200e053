import type { Kysely } from 'kysely';
import type { BillingReport, ReportFigures, ReportGroupBy, ReportHour } from '@tay/contract';
import type { DB } from '../../src/db/schema';

/**
 * The billing report's figures worked out again from the raw rows (payment_requests, payments, refunds, disputes),
 * with the time-zone arithmetic done by `Intl` in the test rather than by the database: what the
 * rollup (migration 0042) and the API answer must equal, to the cent.
 */
export interface RawRows {
  requests: Awaited<ReturnType<typeof rawRequests>>;
  payments: Awaited<ReturnType<typeof rawPayments>>;
  refunds: Awaited<ReturnType<typeof rawRefunds>>;
  disputes: Awaited<ReturnType<typeof rawDisputes>>;
}

function rawRequests(db: Kysely<DB>, businessId: string) {
  return db
    .selectFrom('payment_requests')
    .select([
      'id',
      'state',
      'amount_cents',
      'amount_paid_cents',
      'first_sent_at',
      'paid_at',
      'due_date',
      'source_kind',
      'payer_id',
      'payer_display_name',
      'payer_email',
    ])
    .where('business_id', '=', businessId)
    .execute();
}

function rawPayments(db: Kysely<DB>, businessId: string) {
  return db
    .selectFrom('payments')
    .select(['id', 'request_id', 'method', 'amount_cents', 'fee_cents', 'processed_at', 'returned_at'])
    .where('business_id', '=', businessId)
    .execute();
}

function rawRefunds(db: Kysely<DB>, businessId: string) {
  return db.selectFrom('refunds').select(['id', 'state', 'amount_cents', 'fee_returned_cents', 'processed_at']).where('business_id', '=', businessId).execute();
}

function rawDisputes(db: Kysely<DB>, businessId: string) {
  return db
    .selectFrom('disputes')
    .select(['id', 'state', 'amount_cents', 'fee_cents', 'fee_returned_cents', 'created_at', 'closed_at'])
    .where('business_id', '=', businessId)
    .execute();
}

export async function rawRows(db: Kysely<DB>, businessId: string): Promise<RawRows> {
  return {
    requests: await rawRequests(db, businessId),
    payments: await rawPayments(db, businessId),
    refunds: await rawRefunds(db, businessId),
    disputes: await rawDisputes(db, businessId),
  };
}

const formats = new Map<string, Intl.DateTimeFormat>();
/** The calendar day an instant falls on in a time zone, 'YYYY-MM-DD'. */
export function localDay(instant: Date, timeZone: string): string {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formats.set(timeZone, format);
  }
  return format.format(instant);
}

const OPEN = ['Sent', 'Resent', 'Accepted', 'PartiallyPaid', 'Error'];

/** The kind a report counts a collection under: what its request was made for (ADR 045). */
function kindOf(r: RawRows['requests'][number]): string {
  return r.source_kind;
}

const zero = (): ReportFigures => ({
  billedCount: 0,
  billedCents: 0,
  collectedCount: 0,
  collectedCents: 0,
  returnedCount: 0,
  returnedCents: 0,
  refundedCount: 0,
  refundedCents: 0,
  disputedCount: 0,
  disputedCents: 0,
  feesCents: 0,
  netCents: 0,
  outstandingCents: 0,
});

type Expected = Pick<BillingReport, 'totals' | 'byStatus' | 'byMethod' | 'byKind'> & {
  buckets: (ReportFigures & { from: string; to: string })[];
  paidCount: number;
  onTimeCount: number;
};

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

function bucketStart(day: string, groupBy: ReportGroupBy, from: string): string {
  let start = day;
  if (groupBy === 'week') {
    const weekday = (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7;
    start = new Date(Date.parse(`${day}T00:00:00Z`) - weekday * 86_400_000).toISOString().slice(0, 10);
  } else if (groupBy === 'month') {
    start = `${day.slice(0, 7)}-01`;
  }
  return start < from ? from : start;
}

/** Every figure of a report from `from` to `to` by `groupBy`, from the raw rows. */
export function expectedReport(raw: RawRows, timeZone: string, from: string, to: string, groupBy: ReportGroupBy): Expected {
  const inRange = (instant: Date | null) => (instant ? localDay(instant, timeZone) : null);
  const within = (day: string | null): day is string => day !== null && day >= from && day <= to;
  const buckets = new Map<string, ReportFigures & { from: string; to: string }>();
  for (let day = from; day <= to; day = nextDay(day)) {
    const start = bucketStart(day, groupBy, from);
    const bucket = buckets.get(start) ?? { ...zero(), from: start, to: day };
    bucket.to = day;
    buckets.set(start, bucket);
  }
  const bucketOf = (day: string) => buckets.get(bucketStart(day, groupBy, from))!;
  const totals = zero();
  const states = new Map<string, { count: number; cents: number }>();
  const methods = { card: { count: 0, cents: 0 }, bank_account: { count: 0, cents: 0 } };
  const kinds: Record<string, { count: number; cents: number }> = {};
  for (const k of ['request', 'invoice', 'qr', 'student', 'patient']) kinds[k] = { count: 0, cents: 0 };
  let paidCount = 0;
  let onTimeCount = 0;
  const add = (day: string, apply: (f: ReportFigures) => void) => {
    apply(bucketOf(day));
    apply(totals);
  };

  for (const r of raw.requests) {
    const sent = inRange(r.first_sent_at);
    if (within(sent)) {
      const owed = OPEN.includes(r.state) ? r.amount_cents - r.amount_paid_cents : 0;
      add(sent, (f) => {
        f.billedCount += 1;
        f.billedCents += r.amount_cents;
        f.outstandingCents += owed;
      });
      const s = states.get(r.state) ?? { count: 0, cents: 0 };
      s.count += 1;
      s.cents += r.amount_cents;
      states.set(r.state, s);
    }
    const paid = r.state === 'Paid' ? inRange(r.paid_at) : null;
    if (within(paid)) {
      paidCount += 1;
      if (paid <= r.due_date) onTimeCount += 1;
    }
  }
  const requests = new Map(raw.requests.map((r) => [r.id, r]));
  for (const p of raw.payments) {
    const processed = inRange(p.processed_at);
    if (within(processed)) {
      add(processed, (f) => {
        f.collectedCount += 1;
        f.collectedCents += p.amount_cents;
        f.feesCents += p.fee_cents;
      });
      methods[p.method].count += 1;
      methods[p.method].cents += p.amount_cents;
      const kind = kinds[kindOf(requests.get(p.request_id)!)]!;
      kind.count += 1;
      kind.cents += p.amount_cents;
    }
    const returned = inRange(p.returned_at);
    if (within(returned)) {
      add(returned, (f) => {
        f.returnedCount += 1;
        f.returnedCents += p.amount_cents;
        f.feesCents -= p.fee_cents;
      });
    }
  }
  // A refund counts once it succeeded, on the day it did; the fee it gave back comes off the fees.
  for (const f of raw.refunds) {
    const refunded = f.state === 'Succeeded' ? inRange(f.processed_at) : null;
    if (within(refunded)) {
      add(refunded, (figures) => {
        figures.refundedCount += 1;
        figures.refundedCents += Number(f.amount_cents);
        figures.feesCents -= Number(f.fee_returned_cents);
      });
    }
  }
  // A dispute counts on the day it opened, its fee with it; a won one gives the amount (and any fee returned) back on the day it closed.
  for (const d of raw.disputes) {
    const opened = inRange(d.created_at);
    if (within(opened)) {
      add(opened, (figures) => {
        figures.disputedCount += 1;
        figures.disputedCents += Number(d.amount_cents);
        figures.feesCents += Number(d.fee_cents);
      });
    }
    const won = d.state === 'Won' ? inRange(d.closed_at) : null;
    if (within(won)) {
      add(won, (figures) => {
        figures.disputedCents -= Number(d.amount_cents);
        figures.feesCents -= Number(d.fee_returned_cents);
      });
    }
  }
  const net = <F extends ReportFigures>(f: F): F => ({
    ...f,
    netCents: f.collectedCents - f.returnedCents - f.refundedCents - f.disputedCents - f.feesCents,
  });
  return {
    totals: net(totals),
    buckets: [...buckets.values()].map(net),
    byStatus: [...states].map(([status, s]) => ({ status: status as BillingReport['byStatus'][number]['status'], ...s })),
    byMethod: [
      { method: 'card', ...methods.card },
      { method: 'bank_account', ...methods.bank_account },
    ],
    byKind: Object.entries(kinds).map(([kind, k]) => ({ kind: kind as BillingReport['byKind'][number]['kind'], ...k })),
    paidCount,
    onTimeCount,
  };
}

/** The hours of `day` on the business's clock (found by walking UTC hours), with what was billed and collected in each. */
export function expectedHours(raw: RawRows, timeZone: string, day: string): Omit<ReportHour, 'label'>[] {
  const starts: number[] = [];
  for (let t = Date.parse(`${day}T00:00:00Z`) - 86_400_000; t < Date.parse(`${day}T00:00:00Z`) + 2 * 86_400_000; t += 3_600_000) {
    if (localDay(new Date(t), timeZone) === day) starts.push(t);
  }
  return starts.map((start) => {
    const inHour = (instant: Date | null) => instant !== null && instant.getTime() >= start && instant.getTime() < start + 3_600_000;
    const billed = raw.requests.filter((r) => inHour(r.first_sent_at));
    const collected = raw.payments.filter((p) => inHour(p.processed_at));
    return {
      start: new Date(start).toISOString(),
      billedCount: billed.length,
      billedCents: billed.reduce((sum, r) => sum + r.amount_cents, 0),
      collectedCount: collected.length,
      collectedCents: collected.reduce((sum, p) => sum + p.amount_cents, 0),
    };
  });
}

/** Money collected by payer in a month (net of that month's returns), as the overview's top payers count it. */
export function expectedPayers(raw: RawRows, timeZone: string, month: string) {
  const requests = new Map(raw.requests.map((r) => [r.id, r]));
  const payers = new Map<string, { payerId: string | null; name: string; email: string; count: number; cents: number }>();
  const add = (p: RawRows['payments'][number], sign: number) => {
    const r = requests.get(p.request_id)!;
    const key = r.payer_id ?? `walk-in:${r.payer_email.toLowerCase()}:${r.payer_display_name}`;
    const entry = payers.get(key) ?? { payerId: r.payer_id, name: r.payer_display_name, email: r.payer_email, count: 0, cents: 0 };
    entry.count += sign;
    entry.cents += sign * p.amount_cents;
    payers.set(key, entry);
  };
  for (const p of raw.payments) {
    if (p.processed_at && localDay(p.processed_at, timeZone).slice(0, 7) === month) add(p, 1);
    if (p.returned_at && localDay(p.returned_at, timeZone).slice(0, 7) === month) add(p, -1);
  }
  return [...payers.values()].filter((p) => p.cents > 0).sort((a, b) => b.cents - a.cents || b.count - a.count);
}
