import { sql, type Transaction } from 'kysely';
import type { Executor } from '../../db/executor';
import type { DB } from '../../db/schema';

/**
 * Billed once (ADR 036): a student is billed for a program over any day at most once, whichever
 * enrollment, period or path billed it — a cycle's run, Program Billing, a CSV row or a single
 * request. A new period is refused when it meets days of one already billed for the same student
 * and program (an overlap, not only the same first day: a custom period inside a billed month, a
 * term over billed months, a re-enrollment after a withdrawal); a one-time program is billed once
 * at all.
 */
export interface ChargeWant {
  studentId: string;
  programId: string;
  /** The period's first and last day ('YYYY-MM-DD'). */
  start: string;
  end: string;
  oneTime: boolean;
}

export interface ChargeClaim extends ChargeWant {
  enrollmentId: string;
  requestId: string;
  amountCents: number;
}

/** The request that billed those days already (its TRX number; null when unknown). */
export interface BilledBy {
  requestId: string;
  number: number | null;
}

interface Billed {
  studentId: string;
  programId: string;
  start: string;
  end: string;
  requestId: string;
  number: number | null;
}

const meets = (b: Billed, w: ChargeWant) => b.studentId === w.studentId && b.programId === w.programId && (w.oneTime || (b.start <= w.end && b.end >= w.start));

async function billedOf(db: Executor, businessId: string, wants: readonly ChargeWant[]): Promise<Billed[]> {
  const studentIds = [...new Set(wants.map((w) => w.studentId))];
  if (studentIds.length === 0) return [];
  const programIds = new Set(wants.map((w) => w.programId));
  const rows = await db
    .selectFrom('student_charges as c')
    .leftJoin('payment_requests as r', (join) => join.onRef('r.business_id', '=', 'c.business_id').onRef('r.id', '=', 'c.request_id'))
    .select(['c.student_id', 'c.program_id', 'c.period_start', 'c.period_end', 'c.request_id', 'r.number'])
    .where('c.business_id', '=', businessId)
    .where('c.student_id', 'in', studentIds)
    .execute();
  return rows
    .filter((r) => programIds.has(r.program_id))
    .map((r) => ({
      studentId: r.student_id,
      programId: r.program_id,
      start: String(r.period_start).slice(0, 10),
      end: String(r.period_end).slice(0, 10),
      requestId: r.request_id,
      number: r.number === null ? null : Number(r.number),
    }));
}

/** For each want, what billed those days already, or undefined: the review and the previews flag it. */
export async function billedAlready(db: Executor, businessId: string, wants: readonly ChargeWant[]): Promise<(BilledBy | undefined)[]> {
  const billed = await billedOf(db, businessId, wants);
  return wants.map((w) => {
    const hit = billed.find((b) => meets(b, w));
    return hit ? { requestId: hit.requestId, number: hit.number } : undefined;
  });
}

/**
 * Writes the charges of requests being made, in their transaction. Each student and program is
 * locked first (transaction-scoped advisory locks, taken in one order so two senders wait for each
 * other and never deadlock), so the overlap test and the insert cannot interleave with another
 * transaction's. Returns, for each claim in order, null when written, or what billed those days
 * already (an earlier claim of the same call counts too): that request is not to be made.
 */
export async function claimCharges(trx: Transaction<DB>, businessId: string, claims: readonly ChargeClaim[]): Promise<(BilledBy | null)[]> {
  if (claims.length === 0) return [];
  const keys = [...new Set(claims.map((c) => `${businessId}:${c.studentId}:${c.programId}`))].sort();
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(k, 0)) FROM (SELECT k FROM unnest(${keys}::text[]) AS k ORDER BY k) AS ordered`.execute(trx);
  const billed = await billedOf(trx, businessId, claims);
  const outcomes: (BilledBy | null)[] = [];
  const accepted: ChargeClaim[] = [];
  for (const claim of claims) {
    const hit = billed.find((b) => meets(b, claim));
    if (hit) {
      outcomes.push({ requestId: hit.requestId, number: hit.number });
      continue;
    }
    outcomes.push(null);
    accepted.push(claim);
    billed.push({ studentId: claim.studentId, programId: claim.programId, start: claim.start, end: claim.end, requestId: claim.requestId, number: null });
  }
  if (accepted.length > 0) {
    await trx
      .insertInto('student_charges')
      .values(
        accepted.map((c) => ({
          business_id: businessId,
          enrollment_id: c.enrollmentId,
          period_start: c.start,
          period_end: c.end,
          student_id: c.studentId,
          program_id: c.programId,
          request_id: c.requestId,
          amount_cents: c.amountCents,
        })),
      )
      .execute();
  }
  return outcomes;
}
