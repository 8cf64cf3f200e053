import { sql, type Kysely } from 'kysely';
import { BILLED_STATES, csvRow, monthPeriod, type StudentBalancesQuery, type StudentBalance, type StudentBalances } from '@tay/contract';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import type { ScopedBusiness } from '../businesses/business-scope';
import { todayIn } from '../payment-requests/request-record';

export type BalancesQuery = ReturnType<typeof StudentBalancesQuery.parse>;

/** The months counted: `period`, else `from`–`to` (either alone is one month), else the business's current month. */
export function monthsOf(query: Pick<BalancesQuery, 'period' | 'from' | 'to'>, timeZone: string): { from: string; to: string; label: string } {
  let from: string;
  let to: string;
  if (query.period) {
    if (query.from || query.to) throw AppError.validation('Give one month or a range of months, not both.', { period: 'Leave out the month, or the range.' });
    from = to = query.period;
  } else if (query.from || query.to) {
    from = query.from ?? query.to!;
    to = query.to ?? query.from!;
  } else {
    from = to = todayIn(timeZone).slice(0, 7);
  }
  if (from > to) throw AppError.validation('The range of months ends before it starts.', { from: 'Must not be after the last month.' });
  const first = monthPeriod(`${from}-01`).label;
  return { from, to, label: from === to ? first : `${first} – ${monthPeriod(`${to}-01`).label}` };
}

/**
 * The students matched (search by name or student id, grade), each with the requests counted:
 * the student's requests of a period starting in the months (a request of no period: its due
 * date), in a billed state (`BILLED_STATES`: sent and still owed, or paid — not a draft, a
 * scheduled, withdrawn, cancelled, declined or expired one). Billed is their amounts; paid what was
 * paid on them; outstanding the difference; refunded what was given back of what was paid (ADR 051).
 */
function balances(db: Kysely<DB>, businessId: string, query: BalancesQuery, months: { from: string; to: string }) {
  const first = monthPeriod(`${months.from}-01`).start;
  const last = monthPeriod(`${months.to}-01`).end;
  let q = db
    .selectFrom('students as s')
    .leftJoin('payment_requests as r', (j) =>
      j
        .onRef('r.business_id', '=', 's.business_id')
        .on('r.source_kind', '=', 'student')
        .onRef('r.source_id', '=', 's.id')
        .on('r.state', 'in', [...BILLED_STATES])
        .on(sql<boolean>`coalesce((r.source ->> 'periodStart')::date, r.due_date) BETWEEN ${first}::date AND ${last}::date`),
    )
    .where('s.business_id', '=', businessId);
  if (query.search) {
    const needle = query.search.toLowerCase();
    q = q.where(sql<boolean>`(strpos(lower(s.first_name || ' ' || s.last_name), ${needle}) > 0 OR strpos(lower(s.student_number), ${needle}) > 0)`);
  }
  if (query.grade) q = q.where(sql<boolean>`lower(s.grade) = lower(${query.grade})`);
  return q
    .select([
      's.id',
      's.student_number',
      's.first_name',
      's.last_name',
      's.grade',
      's.status',
      sql<string>`count(r.id)`.as('requests'),
      sql<string>`coalesce(sum(r.amount_cents), 0)`.as('billed'),
      sql<string>`coalesce(sum(r.amount_paid_cents), 0)`.as('paid'),
      sql<string>`coalesce(sum(r.refunded_cents), 0)`.as('refunded'),
    ])
    .groupBy(['s.id', 's.student_number', 's.first_name', 's.last_name', 's.grade', 's.status']);
}

function orderOf(query: BalancesQuery) {
  const dir = sql.raw(query.sortDirection === 'asc' ? 'ASC' : 'DESC');
  const name = sql`lower(first_name || ' ' || last_name) ${dir}, id ${dir}`;
  switch (query.sortBy) {
    case 'studentNumber':
      return sql`lower(student_number) ${dir}, id ${dir}`;
    case 'grade':
      return sql`lower(grade) ${dir}, ${name}`;
    case 'billed':
      return sql`billed ${dir}, ${name}`;
    case 'paid':
      return sql`paid ${dir}, ${name}`;
    case 'outstanding':
      return sql`billed - paid ${dir}, ${name}`;
    default:
      return name;
  }
}

type BalanceRow = {
  id: string;
  student_number: string;
  first_name: string;
  last_name: string;
  grade: string;
  status: 'active' | 'Disabled';
  requests: string;
  billed: string;
  paid: string;
  refunded: string;
};

function toBalance(r: BalanceRow): StudentBalance {
  const billed = Number(r.billed);
  const paid = Number(r.paid);
  return {
    studentId: r.id,
    studentNumber: r.student_number,
    name: `${r.first_name} ${r.last_name}`,
    grade: r.grade,
    status: r.status,
    requests: Number(r.requests),
    billedCents: billed,
    paidCents: paid,
    refundedCents: Number(r.refunded),
    outstandingCents: billed - paid,
  };
}

/** GET …/students/balances: a page of students' balances, with the total over every student matched. */
export async function studentBalances(db: Kysely<DB>, { business, query }: { business: ScopedBusiness; query: BalancesQuery }): Promise<StudentBalances> {
  const months = monthsOf(query, business.timeZone);
  const per = balances(db, business.id, query, months);
  const [rows, totals] = await Promise.all([
    db
      .selectFrom(per.as('b'))
      .selectAll()
      .orderBy(orderOf(query))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute(),
    db
      .selectFrom(per.as('b'))
      .select([
        sql<string>`count(*)`.as('n'),
        sql<string>`coalesce(sum(billed), 0)`.as('billed'),
        sql<string>`coalesce(sum(paid), 0)`.as('paid'),
        sql<string>`coalesce(sum(refunded), 0)`.as('refunded'),
      ])
      .executeTakeFirstOrThrow(),
  ]);
  const billed = Number(totals.billed);
  const paid = Number(totals.paid);
  return {
    ...months,
    items: (rows as BalanceRow[]).map(toBalance),
    page: query.page,
    pageSize: query.pageSize,
    total: Number(totals.n),
    totals: { billedCents: billed, paidCents: paid, refundedCents: Number(totals.refunded), outstandingCents: billed - paid },
  };
}

const dollars = (cents: number) => (cents / 100).toFixed(2);

/** The CSV of the same query (every matching student, in its order), then a total line. */
export async function* exportStudentBalances(db: Kysely<DB>, { business, query }: { business: ScopedBusiness; query: BalancesQuery }): AsyncGenerator<string> {
  const months = monthsOf(query, business.timeZone);
  const rows = (
    (await db
      .selectFrom(balances(db, business.id, query, months).as('b'))
      .selectAll()
      .orderBy(orderOf(query))
      .execute()) as BalanceRow[]
  ).map(toBalance);
  yield `\ufeff${csvRow(['Student id', 'Student', 'Grade', 'Status', 'Period', 'Requests', 'Billed (USD)', 'Paid (USD)', 'Refunded (USD)', 'Outstanding (USD)'])}\r\n`;
  let billed = 0;
  let paid = 0;
  let refunded = 0;
  const lines = rows.map((b) => {
    billed += b.billedCents;
    paid += b.paidCents;
    refunded += b.refundedCents;
    return `${csvRow([b.studentNumber, b.name, b.grade, b.status, months.label, b.requests, dollars(b.billedCents), dollars(b.paidCents), dollars(b.refundedCents), dollars(b.outstandingCents)])}\r\n`;
  });
  yield lines.join('');
  yield `${csvRow(['', 'Total', '', '', months.label, rows.reduce((n, b) => n + b.requests, 0), dollars(billed), dollars(paid), dollars(refunded), dollars(billed - paid)])}\r\n`;
}
