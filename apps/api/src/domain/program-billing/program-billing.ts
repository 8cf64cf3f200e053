import type { Kysely } from 'kysely';
import {
  programCharge,
  overlaps,
  type BillableStudent,
  type BillableStudentsQuery,
  type BillingPeriod,
  type ProgramBillingAdjustment,
  type ProgramBillingLine,
  type ProgramBillingPreview,
  type StudentBillingBatchResult,
  type StudentBillTo,
} from '@tay/contract';
import type { DB } from '../../db/schema';
import type { Executor } from '../../db/executor';
import { AppError } from '../../lib/app-error';
import type { ScopedBusiness } from '../businesses/business-scope';
import { createStudentBillingBatch, type StudentBillingLine } from '../batches/student-billing-batch';
import { referenceNumber, todayIn } from '../payment-requests/request-record';
import { billedAlready } from '../students/charges';

type Actor = { userId: string; email: string; ip?: string | undefined };

/** A due date the single request would refuse is refused here too, naming the field. */
function checkDueDate(business: ScopedBusiness, dueDate: string) {
  if (dueDate < todayIn(business.timeZone))
    throw AppError.validation('The due date cannot be in the past.', { dueDate: 'The due date cannot be in the past.' });
}

/** The programs asked for, all of this business and active; otherwise 404 / 422 naming the field. */
async function programsOf(db: Executor, business: ScopedBusiness, programIds: string[]) {
  const programs = await db
    .selectFrom('programs')
    .select(['id', 'name', 'fee_cents', 'prorate', 'status', 'frequency', 'start_date', 'end_date'])
    .where('business_id', '=', business.id)
    .where('id', 'in', programIds)
    .execute();
  if (programs.length !== programIds.length) throw AppError.notFound('Program');
  const disabled = programs.find((p) => p.status !== 'active');
  if (disabled) throw AppError.validation(`${disabled.name} is disabled; enable it first.`, { programIds: `${disabled.name} is disabled; enable it first.` });
  const order = new Map(programIds.map((id, i) => [id, i]));
  return programs.map((p) => ({ ...p, fee_cents: Number(p.fee_cents) })).sort((a, b) => order.get(a.id)! - order.get(b.id)!);
}

/**
 * POST …/program-billing/preview: one line per enrollment of the programs that is active and
 * overlaps the period — the student, who pays, the amount (`chargeFor`, prorated when the program
 * says so), and the request that billed this enrollment's period already. Nothing is saved.
 */
export async function previewProgramBilling(
  db: Executor,
  business: ScopedBusiness,
  body: { programIds: string[]; period: BillingPeriod; dueDate?: string | undefined },
): Promise<ProgramBillingPreview> {
  if (body.dueDate) checkDueDate(business, body.dueDate);
  const programs = await programsOf(db, business, body.programIds);
  const { period } = body;
  const enrollments = await db
    .selectFrom('enrollments as e')
    .innerJoin('students as s', (join) => join.onRef('s.business_id', '=', 'e.business_id').onRef('s.id', '=', 'e.student_id'))
    .select(['e.id', 'e.student_id', 'e.program_id', 'e.start_date', 'e.end_date', 's.student_number', 's.first_name', 's.last_name', 's.grade', 's.status'])
    .where('e.business_id', '=', business.id)
    .where('e.program_id', 'in', body.programIds)
    .where('e.status', '=', 'active')
    .where('e.start_date', '<=', period.end)
    .where((eb) => eb.or([eb('e.end_date', 'is', null), eb('e.end_date', '>=', period.start)]))
    .orderBy('s.last_name')
    .orderBy('s.first_name')
    .orderBy('s.student_number')
    .execute();
  const studentIds = [...new Set(enrollments.map((e) => e.student_id))];
  const [guardians, charges] = await Promise.all([
    studentIds.length === 0
      ? []
      : db
          .selectFrom('student_guardians as g')
          .innerJoin('payers as p', (join) => join.onRef('p.business_id', '=', 'g.business_id').onRef('p.id', '=', 'g.payer_id'))
          .select(['g.student_id', 'g.position', 'p.id', 'p.display_name', 'p.email', 'p.status'])
          .where('g.business_id', '=', business.id)
          .where('g.student_id', 'in', studentIds)
          .orderBy('g.position')
          .execute(),
    // Billed once (ADR 036): what billed each student and program over these days already.
    billedAlready(
      db,
      business.id,
      enrollments.map((e) => ({
        studentId: e.student_id,
        programId: e.program_id,
        start: period.start,
        end: period.end,
        oneTime: programs.find((p) => p.id === e.program_id)?.frequency === 'one_time',
      })),
    ),
  ]);
  const programOf = new Map(programs.map((p) => [p.id, p]));
  const chargeOf = new Map(enrollments.map((e, i) => [e.id, charges[i]]));
  const lines: ProgramBillingLine[] = enrollments
    .filter((e) => overlaps(e.start_date, e.end_date, period.start, period.end))
    .map((e) => {
      const program = programOf.get(e.program_id)!;
      const charge = programCharge(
        { feeCents: program.fee_cents, frequency: program.frequency, prorate: program.prorate, startDate: program.start_date, endDate: program.end_date },
        period,
        { start: e.start_date, end: e.end_date },
      );
      const mine = guardians.filter((g) => g.student_id === e.student_id);
      const first = mine[0] ?? null;
      const second = mine[1] ?? null;
      const name = `${e.first_name} ${e.last_name}`;
      const billed = chargeOf.get(e.id);
      let problem: string | null = null;
      if (e.status !== 'active') problem = `${name} is deactivated; activate them first.`;
      else if (!first) problem = `${name} has no guardian to bill. Add a guardian to the student first.`;
      else if (first.status !== 'active') problem = `${first.display_name}, the guardian of ${name}, is deactivated; activate them first.`;
      const person = (g: (typeof mine)[number] | null) => (g ? { payerId: g.id, name: g.display_name, email: g.email } : null);
      return {
        enrollmentId: e.id,
        student: { studentId: e.student_id, studentNumber: e.student_number, name, grade: e.grade, status: e.status },
        guardian: person(first),
        secondGuardian: person(second),
        program: { programId: program.id, name: program.name, feeCents: program.fee_cents, prorate: program.prorate },
        enrollmentStart: e.start_date,
        enrollmentEnd: e.end_date,
        amountCents: charge.amountCents,
        days: charge.days,
        periodDays: charge.periodDays,
        prorated: charge.prorated,
        alreadyBilled: billed ? { requestId: billed.requestId, referenceNumber: billed.number === null ? '' : referenceNumber(billed.number) } : null,
        problem,
      };
    });
  const billable = lines.filter((l) => !l.alreadyBilled && !l.problem && l.amountCents > 0);
  return {
    period: { start: period.start, end: period.end, label: period.label },
    lines,
    totals: {
      count: billable.length,
      totalCents: billable.reduce((sum, l) => sum + l.amountCents, 0),
      alreadyBilled: lines.filter((l) => l.alreadyBilled).length,
      problems: lines.filter((l) => !l.alreadyBilled && l.problem).length,
    },
  };
}

/**
 * POST …/program-billing: the preview's lines, with their adjustments and skips, as a batch of
 * kind `student-billing` in review (one transaction: the batch, its rows and the audit entry).
 * Lines already billed are left out; a line whose enrollment was billed meanwhile becomes a row
 * with that error, and sending refuses it again (the charge row).
 */
export async function createProgramBilling(
  db: Kysely<DB>,
  business: ScopedBusiness,
  user: Actor,
  body: {
    programIds: string[];
    period: BillingPeriod;
    dueDate: string;
    memo?: string | undefined;
    billTo: StudentBillTo;
    adjustments: ProgramBillingAdjustment[];
  },
): Promise<StudentBillingBatchResult> {
  checkDueDate(business, body.dueDate);
  return db.transaction().execute(async (trx) => {
    const preview = await previewProgramBilling(trx, business, body);
    const byEnrollment = new Map(preview.lines.map((l) => [l.enrollmentId, l]));
    body.adjustments.forEach((a, i) => {
      if (!byEnrollment.has(a.enrollmentId)) {
        const message = 'This enrollment is not billed for these programs and this period.';
        throw AppError.validation(message, { [`adjustments.${i}.enrollmentId`]: message });
      }
    });
    const adjusted = new Map(body.adjustments.map((a) => [a.enrollmentId, a]));
    const lines: StudentBillingLine[] = [];
    for (const l of preview.lines) {
      const a = adjusted.get(l.enrollmentId);
      if ((a && 'skip' in a) || l.alreadyBilled) continue;
      const amountCents = a && 'amountCents' in a ? a.amountCents : l.amountCents;
      if (amountCents <= 0) continue;
      lines.push({
        studentId: l.student.studentId,
        programId: l.program.programId,
        enrollmentId: l.enrollmentId,
        amountCents,
        period: preview.period,
        memo: body.memo?.trim() || `${l.program.name}, ${preview.period.label}`,
        dueDate: body.dueDate,
        billTo: body.billTo === 'both' && !l.secondGuardian ? 'guardian' : body.billTo,
      });
    }
    if (lines.length === 0) {
      const message =
        preview.lines.length === 0
          ? `No student is enrolled in ${preview.lines.length === 0 && body.programIds.length === 1 ? 'this program' : 'these programs'} for ${preview.period.label}.`
          : 'Every student of this preview was billed for this period already, or skipped: there is nothing to bill.';
      throw AppError.validation(message, { programIds: message });
    }
    const names = [...new Set(preview.lines.map((l) => l.program.name))];
    const slug =
      `${names.length === 1 ? names[0]! : 'programs'}-${preview.period.label}`
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '')
        .slice(0, 80) || 'program-billing';
    return createStudentBillingBatch(trx, business, { lines, fileName: `${slug}.csv`, billingRunId: null, user });
  });
}

/**
 * POST …/student-billing (Request to Pay Multiple Students): the same amount, memo and due date for
 * every student chosen, as a batch of kind `student-billing` in review. A student of another
 * business is a 404; a student who cannot be billed (no guardian, deactivated) is a row with that
 * error, to fix or drop on the review page. With a program and a period, each student's enrollment
 * in it is billed once.
 */
export async function createBulkStudentBilling(
  db: Kysely<DB>,
  business: ScopedBusiness,
  user: Actor,
  body: {
    studentIds: string[];
    amountCents: number;
    memo: string;
    dueDate: string;
    billTo: StudentBillTo;
    programId?: string | null | undefined;
    period: BillingPeriod | null;
  },
): Promise<StudentBillingBatchResult> {
  checkDueDate(business, body.dueDate);
  return db.transaction().execute(async (trx) => {
    const students = await trx
      .selectFrom('students')
      .select(['id', 'last_name', 'first_name'])
      .where('business_id', '=', business.id)
      .where('id', 'in', body.studentIds)
      .execute();
    if (students.length !== body.studentIds.length) throw AppError.notFound('Student');
    let program: { id: string; name: string } | null = null;
    if (body.programId) program = (await programsOf(trx, business, [body.programId]))[0]!;
    const enrollments =
      program && body.period
        ? await trx
            .selectFrom('enrollments')
            .select(['id', 'student_id', 'start_date', 'end_date', 'status'])
            .where('business_id', '=', business.id)
            .where('program_id', '=', program.id)
            .where('student_id', 'in', body.studentIds)
            .orderBy('created_at', 'desc')
            .execute()
        : [];
    const enrollmentOf = (studentId: string) => {
      const period = body.period!;
      const mine = enrollments.filter((e) => e.student_id === studentId && overlaps(e.start_date, e.end_date, period.start, period.end));
      return (mine.find((e) => e.status === 'active') ?? mine[0])?.id ?? null;
    };
    const lines: StudentBillingLine[] = body.studentIds.map((studentId) => ({
      studentId,
      programId: program?.id ?? null,
      enrollmentId: program && body.period ? enrollmentOf(studentId) : null,
      amountCents: body.amountCents,
      period: body.period,
      memo: body.memo,
      dueDate: body.dueDate,
      billTo: body.billTo,
    }));
    const slug =
      [program?.name ?? 'students', body.period?.label ?? body.dueDate]
        .join('-')
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '')
        .slice(0, 80) || 'students';
    return createStudentBillingBatch(trx, business, { lines, fileName: `${slug}.csv`, billingRunId: null, user });
  });
}

/**
 * GET …/student-billing/students: every active student matching the grade, program (an active
 * enrollment) and search, with guardians and programs, for the bulk page's table ("select all
 * matching" selects exactly these). The grades and active programs come along for the filters.
 */
export async function billableStudents(
  db: Executor,
  business: ScopedBusiness,
  query: BillableStudentsQuery,
): Promise<{ items: BillableStudent[]; total: number; grades: string[]; programs: { programId: string; name: string }[] }> {
  let q = db
    .selectFrom('students as s')
    .select(['s.id', 's.student_number', 's.first_name', 's.last_name', 's.grade'])
    .where('s.business_id', '=', business.id)
    .where('s.status', '=', 'active');
  if (query.grade) q = q.where((eb) => eb(eb.fn('lower', ['s.grade']), '=', query.grade!.toLowerCase()));
  if (query.programId) {
    const programId = query.programId;
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('enrollments as e')
          .select('e.id')
          .whereRef('e.business_id', '=', 's.business_id')
          .whereRef('e.student_id', '=', 's.id')
          .where('e.program_id', '=', programId)
          .where('e.status', '=', 'active'),
      ),
    );
  }
  if (query.search) {
    const like = `%${query.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) =>
      eb.or([
        eb(eb.fn('lower', ['s.student_number']), 'like', like),
        eb(eb.fn('lower', ['s.first_name']), 'like', like),
        eb(eb.fn('lower', ['s.last_name']), 'like', like),
        eb(eb.fn('lower', [eb.fn('concat', ['s.first_name', eb.val(' '), 's.last_name'])]), 'like', like),
      ]),
    );
  }
  const [rows, grades, programs] = await Promise.all([
    q.orderBy('s.last_name').orderBy('s.first_name').orderBy('s.student_number').limit(5000).execute(),
    db.selectFrom('students').select('grade').distinct().where('business_id', '=', business.id).where('grade', '!=', '').orderBy('grade').execute(),
    db.selectFrom('programs').select(['id', 'name']).where('business_id', '=', business.id).where('status', '=', 'active').orderBy('name').execute(),
  ]);
  const ids = rows.map((r) => r.id);
  const [guardians, enrolled] =
    ids.length === 0
      ? [[], []]
      : await Promise.all([
          db
            .selectFrom('student_guardians as g')
            .innerJoin('payers as p', (join) => join.onRef('p.business_id', '=', 'g.business_id').onRef('p.id', '=', 'g.payer_id'))
            .select(['g.student_id', 'p.id', 'p.display_name', 'p.email'])
            .where('g.business_id', '=', business.id)
            .where('g.student_id', 'in', ids)
            .orderBy('g.position')
            .execute(),
          db
            .selectFrom('enrollments as e')
            .innerJoin('programs as p', (join) => join.onRef('p.business_id', '=', 'e.business_id').onRef('p.id', '=', 'e.program_id'))
            .select(['e.student_id', 'p.id', 'p.name'])
            .where('e.business_id', '=', business.id)
            .where('e.student_id', 'in', ids)
            .where('e.status', '=', 'active')
            .orderBy('p.name')
            .execute(),
        ]);
  const guardiansOf = new Map<string, { payerId: string; name: string; email: string }[]>();
  for (const g of guardians) guardiansOf.set(g.student_id, [...(guardiansOf.get(g.student_id) ?? []), { payerId: g.id, name: g.display_name, email: g.email }]);
  const programsOfStudent = new Map<string, { programId: string; name: string }[]>();
  for (const p of enrolled) programsOfStudent.set(p.student_id, [...(programsOfStudent.get(p.student_id) ?? []), { programId: p.id, name: p.name }]);
  const items = rows.map((r) => ({
    studentId: r.id,
    studentNumber: r.student_number,
    name: `${r.first_name} ${r.last_name}`,
    grade: r.grade,
    guardians: guardiansOf.get(r.id) ?? [],
    programs: programsOfStudent.get(r.id) ?? [],
  }));
  return { items, total: items.length, grades: grades.map((g) => g.grade), programs: programs.map((p) => ({ programId: p.id, name: p.name })) };
}
