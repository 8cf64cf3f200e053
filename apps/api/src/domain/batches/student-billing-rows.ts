import {
  amountCellProblem,
  monthPeriod,
  programCharge,
  overlaps,
  parseDateCell,
  STUDENT_BILLING_BATCH_FIELDS,
  type BatchMapping,
  type BillingPeriod,
  type FieldErrors,
} from '@tay/contract';
import type { Executor } from '../../db/executor';
import { newId } from '../../lib/ids';
import { billedAlready, claimCharges, type BilledBy } from '../students/charges';
import type { ScopedBusiness } from '../businesses/business-scope';
import { expiryAfter, referenceNumber, todayIn } from '../payment-requests/request-record';
import { mappingCheck, type BatchKindDefinition, type RowFields, type RowOutcome, type RowToSend, type SendContext, type SendOutcome } from './batch-kind';
import { studentSource } from '../student-requests/student-source';
import { insertSentRequests, type RequestToSend } from './send-requests';

/**
 * Fields a generated row keeps beyond the file's columns (`createStudentBillingBatch`): the
 * student and program asked for (so a line naming another business's is refused, not dropped),
 * the enrollment billed and the period's dates and name (its dates are used while the row's
 * period still reads that name). A row fixed on the review page keeps them.
 */
export const HIDDEN_FIELDS = {
  studentId: '_studentId',
  programId: '_programId',
  enrollmentId: '_enrollmentId',
  periodStart: '_periodStart',
  periodEnd: '_periodEnd',
  periodLabel: '_periodLabel',
} as const;

/** What a valid student-billing row will do when the batch is submitted: one request, for the student. */
export interface StudentBillingPlan {
  studentId: string;
  studentName: string;
  programId: string | null;
  programName: string | null;
  /** With `period`: the enrollment whose period this bills (its charge row makes it once). */
  enrollmentId: string | null;
  period: BillingPeriod | null;
  /** Free text period of a row without dates (no program): shown on the request only. */
  periodLabel: string | null;
  /** The first guardian pays; the second (billTo 'both') is e-mailed the same link. */
  payerId: string;
  copyPayerId: string | null;
  billTo: 'guardian' | 'both';
  amountCents: number;
  memo: string;
  dueDate: string;
  expiresOn: string;
  /** A one-time program is billed once at all, whatever the period (ADR 036). */
  oneTime?: boolean;
}

const DATE_FORMS = 'as 2026-12-31, 12/31/2026 or Dec 31, 2026';
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** Cents as the file writes an amount: 40.00. */
export const amountText = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

/** "December 2026", "Dec 2026", "2026-12" → that calendar month; else null. */
export function parseMonthLabel(text: string): BillingPeriod | null {
  const t = text.trim().toLowerCase();
  const iso = /^(\d{4})-(\d{1,2})$/.exec(t);
  if (iso) {
    const m = Number(iso[2]);
    return m >= 1 && m <= 12 ? monthPeriod(`${iso[1]}-${String(m).padStart(2, '0')}-01`) : null;
  }
  const named = /^([a-z]+)\.?,?\s+(\d{4})$/.exec(t);
  if (!named) return null;
  const word = named[1]!;
  const index = MONTHS.findIndex((m) => m === word || (word.length >= 3 && m.startsWith(word)));
  if (index < 0) return null;
  return monthPeriod(`${named[2]}-${String(index + 1).padStart(2, '0')}-01`);
}

/** Who to bill: blank or guardian → the first guardian; both → both. */
function parseBillTo(text: string): 'guardian' | 'both' | null {
  const t = text.trim().toLowerCase();
  if (t === '' || t === 'guardian' || t === 'first' || t === 'guardian 1' || t === 'first guardian') return 'guardian';
  if (t === 'both' || t === 'both guardians') return 'both';
  return null;
}

interface StudentMatch {
  id: string;
  student_number: string;
  first_name: string;
  last_name: string;
  status: string;
  guardians: { position: number; payerId: string; name: string; email: string; status: string }[];
}

async function studentsOf(db: Executor, businessId: string, by: { numbers: string[]; ids: string[] }): Promise<StudentMatch[]> {
  if (by.numbers.length === 0 && by.ids.length === 0) return [];
  const students = await db
    .selectFrom('students')
    .select(['id', 'student_number', 'first_name', 'last_name', 'status'])
    .where('business_id', '=', businessId)
    .where((eb) => {
      const any = [];
      if (by.numbers.length > 0) any.push(eb(eb.fn('lower', ['student_number']), 'in', by.numbers));
      if (by.ids.length > 0) any.push(eb('id', 'in', by.ids));
      return eb.or(any);
    })
    .execute();
  if (students.length === 0) return [];
  const guardians = await db
    .selectFrom('student_guardians as g')
    .innerJoin('payers as p', (join) => join.onRef('p.business_id', '=', 'g.business_id').onRef('p.id', '=', 'g.payer_id'))
    .select(['g.student_id', 'g.position', 'p.id', 'p.display_name', 'p.email', 'p.status'])
    .where('g.business_id', '=', businessId)
    .where(
      'g.student_id',
      'in',
      students.map((s) => s.id),
    )
    .orderBy('g.position')
    .execute();
  return students.map((s) => ({
    ...s,
    guardians: guardians
      .filter((g) => g.student_id === s.id)
      .map((g) => ({ position: Number(g.position), payerId: g.id, name: g.display_name, email: g.email, status: g.status })),
  }));
}

interface ProgramMatch {
  id: string;
  name: string;
  fee_cents: number;
  prorate: boolean;
  status: string;
  frequency: 'one_time' | 'monthly' | 'term';
  start_date: string;
  end_date: string | null;
}

interface EnrollmentMatch {
  id: string;
  student_id: string;
  program_id: string;
  start_date: string;
  end_date: string | null;
  status: string;
}

/** The period a row bills: its own dates while it reads the same label, a month, or a billing cycle's period of that name. */
function periodOf(label: string, fields: RowFields, cyclePeriods: Map<string, BillingPeriod>): BillingPeriod | null {
  if (label === '') return null;
  const start = fields[HIDDEN_FIELDS.periodStart];
  const end = fields[HIDDEN_FIELDS.periodEnd];
  if (start && end && fields[HIDDEN_FIELDS.periodLabel] === label) return { start, end, label };
  return parseMonthLabel(label) ?? cyclePeriods.get(label.toLowerCase()) ?? null;
}

async function checkRows(db: Executor, business: ScopedBusiness, _mapping: BatchMapping, rows: { line: number; fields: RowFields }[]): Promise<RowOutcome[]> {
  const numbers = new Set<string>();
  const hiddenStudents = new Set<string>();
  const programNames = new Set<string>();
  const hiddenPrograms = new Set<string>();
  for (const { fields } of rows) {
    const n = (fields.studentNumber ?? '').trim().toLowerCase();
    if (n) numbers.add(n);
    else if (fields[HIDDEN_FIELDS.studentId]) hiddenStudents.add(fields[HIDDEN_FIELDS.studentId]!);
    const p = (fields.program ?? '').trim().toLowerCase();
    if (p) programNames.add(p);
    else if (fields[HIDDEN_FIELDS.programId]) hiddenPrograms.add(fields[HIDDEN_FIELDS.programId]!);
  }
  const students = await studentsOf(db, business.id, { numbers: [...numbers], ids: [...hiddenStudents] });
  const programs: ProgramMatch[] =
    programNames.size === 0 && hiddenPrograms.size === 0
      ? []
      : (
          await db
            .selectFrom('programs')
            .select(['id', 'name', 'fee_cents', 'prorate', 'status', 'frequency', 'start_date', 'end_date'])
            .where('business_id', '=', business.id)
            .where((eb) => {
              const any = [];
              if (programNames.size > 0) any.push(eb(eb.fn('lower', ['name']), 'in', [...programNames]));
              if (hiddenPrograms.size > 0) any.push(eb('id', 'in', [...hiddenPrograms]));
              return eb.or(any);
            })
            .execute()
        ).map((p) => ({ ...p, fee_cents: Number(p.fee_cents) }));
  const enrollments: EnrollmentMatch[] =
    students.length === 0 || programs.length === 0
      ? []
      : await db
          .selectFrom('enrollments')
          .select(['id', 'student_id', 'program_id', 'start_date', 'end_date', 'status'])
          .where('business_id', '=', business.id)
          .where(
            'student_id',
            'in',
            students.map((s) => s.id),
          )
          .where(
            'program_id',
            'in',
            programs.map((p) => p.id),
          )
          .orderBy('created_at', 'desc')
          .execute();
  // Term and custom periods are known by the names the business's billing cycles give them.
  const cyclePeriods = new Map<string, BillingPeriod>();
  const cycles = await db.selectFrom('billing_cycles').select('periods').where('business_id', '=', business.id).execute();
  for (const c of cycles) for (const p of c.periods ?? []) if (!cyclePeriods.has(p.label.toLowerCase())) cyclePeriods.set(p.label.toLowerCase(), p);

  const byNumber = new Map(students.map((s) => [s.student_number.toLowerCase(), s]));
  const byStudentId = new Map(students.map((s) => [s.id, s]));
  const byName = new Map(programs.map((p) => [p.name.toLowerCase(), p]));
  const byProgramId = new Map(programs.map((p) => [p.id, p]));

  // First pass: who and what each row bills, to find the charges already made in one query.
  const today = todayIn(business.timeZone);
  const drafts = rows.map(({ fields }) => {
    const errors: FieldErrors = {};
    const number = (fields.studentNumber ?? '').trim();
    let student: StudentMatch | undefined;
    if (number) {
      student = byNumber.get(number.toLowerCase());
      if (!student) errors.studentNumber = `No student of yours has the student id ${number}.`;
    } else if (fields[HIDDEN_FIELDS.studentId]) {
      student = byStudentId.get(fields[HIDDEN_FIELDS.studentId]!);
      if (!student) errors.studentNumber = 'This student is not one of yours.';
    } else errors.studentNumber = 'Enter the student id.';

    const programText = (fields.program ?? '').trim();
    let program: ProgramMatch | undefined;
    if (programText) {
      program = byName.get(programText.toLowerCase());
      if (!program) errors.program = `No program of yours is named "${programText}".`;
    } else if (fields[HIDDEN_FIELDS.programId]) {
      program = byProgramId.get(fields[HIDDEN_FIELDS.programId]!);
      if (!program) errors.program = 'This program is not one of yours.';
    }
    if (program && program.status !== 'active') errors.program = `${program.name} is disabled; enable it first.`;

    const label = (fields.period ?? '').trim();
    if (label.length > 100) errors.period = `The period is ${label.length} characters; at most 100 fit.`;
    const period = periodOf(label, fields, cyclePeriods);
    if (label && !period && program) {
      errors.period = `"${label}" is not a period we know. Write a month like December 2026, or a period named in one of your billing cycles.`;
    }

    // The enrollment billed: the one asked for, else the student's enrollment in the program that overlaps the period.
    let enrollment: EnrollmentMatch | undefined;
    if (student && program && period) {
      const candidates = enrollments.filter((e) => e.student_id === student.id && e.program_id === program.id);
      const asked = fields[HIDDEN_FIELDS.enrollmentId];
      enrollment =
        (asked ? candidates.find((e) => e.id === asked) : undefined) ??
        candidates.find((e) => e.status === 'active' && overlaps(e.start_date, e.end_date, period.start, period.end)) ??
        candidates.find((e) => overlaps(e.start_date, e.end_date, period.start, period.end));
    }
    return { fields, errors, student, program, label, period, enrollment, today };
  });

  // Billed once: what billed each row's student and program over those days already (any path).
  const wanted = drafts.flatMap((d, i) =>
    d.student && d.program && d.period && d.enrollment
      ? [{ i, studentId: d.student.id, programId: d.program.id, start: d.period.start, end: d.period.end, oneTime: d.program.frequency === 'one_time' }]
      : [],
  );
  const billed = await billedAlready(db, business.id, wanted);
  const billedOf = new Map(wanted.map((w, k) => [w.i, billed[k]]));

  const outcomes: RowOutcome[] = [];
  drafts.forEach((d, i) => outcomes.push(checkRow(business, d, billedOf.get(i))));
  return outcomes;
}

function checkRow(
  business: ScopedBusiness,
  d: {
    fields: RowFields;
    errors: FieldErrors;
    student: StudentMatch | undefined;
    program: ProgramMatch | undefined;
    label: string;
    period: BillingPeriod | null;
    enrollment: EnrollmentMatch | undefined;
    today: string;
  },
  billedBy: BilledBy | undefined,
): RowOutcome {
  const { fields, errors, student, program, period, enrollment, today } = d;
  const studentName = student ? `${student.first_name} ${student.last_name}` : null;

  // Who pays: the first guardian; the second is copied when the row bills both.
  const billTo = parseBillTo(fields.billTo ?? '');
  if (billTo === null) errors.billTo = `"${(fields.billTo ?? '').trim()}" is not who to bill. Write guardian or both.`;
  const first = student?.guardians.find((g) => g.position === 1) ?? student?.guardians[0];
  const second = student?.guardians.find((g) => g !== first);
  if (student) {
    if (student.status !== 'active') errors.studentNumber = `${studentName} is deactivated; activate them first.`;
    else if (!first) errors.studentNumber = `${studentName} has no guardian to bill. Add a guardian to the student first.`;
    else if (first.status !== 'active') errors.studentNumber = `${first.name}, the guardian of ${studentName}, is deactivated; activate them first.`;
    if (billTo === 'both' && first) {
      if (!second) errors.billTo = `${studentName} has one guardian, so both cannot be billed. Write guardian, or add a second guardian first.`;
      else if (second.status !== 'active') errors.billTo = `${second.name}, the second guardian of ${studentName}, is deactivated; activate them first.`;
    }
  }

  // The amount as the single request checks it; blank: the program's fee for the period.
  const amountText = (fields.amount ?? '').trim();
  let amountCents: number | null = null;
  if (amountText === '') {
    if (!program) errors.amount = errors.program ? 'Enter an amount.' : 'Enter an amount, or name a program to bill its fee.';
    else if (period && enrollment) {
      const charge = programCharge(
        {
          feeCents: Number(program.fee_cents),
          frequency: program.frequency,
          prorate: program.prorate,
          startDate: program.start_date,
          endDate: program.end_date,
        },
        period,
        { start: enrollment.start_date, end: enrollment.end_date },
      );
      if (charge.amountCents > 0) amountCents = charge.amountCents;
      else
        errors.amount = `${program.name} does not run for ${studentName ?? 'this student'} in ${period.label}, so it has no fee to bill. Enter an amount to bill anyway.`;
    } else amountCents = program.fee_cents;
  } else {
    const amount = amountCellProblem(amountText);
    if (amount.error) errors.amount = amount.error;
    else amountCents = amount.cents;
  }
  const memo = (fields.memo ?? '').trim();
  if (memo.length > 500) errors.memo = `The memo is ${memo.length} characters; at most 500 fit.`;
  const dueText = (fields.dueDate ?? '').trim();
  const dueDate = dueText === '' ? null : parseDateCell(dueText);
  if (dueText === '') errors.dueDate = 'Enter the due date.';
  else if (!dueDate) errors.dueDate = `"${dueText}" is not a date we can read. Write it ${DATE_FORMS}.`;
  else if (dueDate < today) errors.dueDate = 'The due date cannot be in the past.';

  // Billed once: days of this student and program that a request billed already are refused here.
  if (billedBy && period && program && studentName) {
    const ref = billedBy.number === null ? '' : ` (${referenceNumber(billedBy.number)})`;
    errors.period =
      program.frequency === 'one_time'
        ? `${studentName} was billed for ${program.name} already${ref}; a one-time program is billed once.`
        : `${studentName} was billed for ${program.name}, ${period.label} already${ref}.`;
  }

  // The review names the student and who pays: "Mia Lopez (Ana Lopez)".
  const payerName = studentName ? (first ? `${studentName} (${first.name})` : studentName) : null;
  if (Object.keys(errors).length > 0) return { status: 'invalid', errors, amountCents, payerName };
  const withDates = period !== null && program !== undefined;
  const plan: StudentBillingPlan = {
    studentId: student!.id,
    studentName: studentName!,
    programId: program?.id ?? null,
    programName: program?.name ?? null,
    enrollmentId: withDates ? (enrollment?.id ?? null) : null,
    period: withDates ? period : null,
    periodLabel: d.label === '' ? null : d.label,
    payerId: first!.payerId,
    copyPayerId: billTo === 'both' ? second!.payerId : null,
    billTo: billTo!,
    amountCents: amountCents!,
    memo,
    dueDate: dueDate!,
    expiresOn: expiryAfter(dueDate!, business.defaultExpiryDays),
    oneTime: program?.frequency === 'one_time',
  };
  return {
    status: 'valid',
    plan,
    amountCents: plan.amountCents,
    payerName: payerName!,
    dedupeKey: `${plan.studentId}|${plan.programId ?? ''}|${d.label.toLowerCase()}|${plan.amountCents}`,
  };
}

/**
 * Sends a chunk of valid rows: one request per row, set-based, in the engine's transaction. Each
 * row is checked again first (a student or guardian deactivated since the review, a due date now
 * past); then the charge of each enrollment's period is written — a period another request billed
 * meanwhile (another batch, a cycle's run, a second worker) fails its row with that request's
 * reference, and the others go on. The requests are sent as the single request is: e-mailed to
 * the first guardian, and with the same link to the second when the row bills both.
 */
async function sendRows(send: SendContext, rows: RowToSend[]): Promise<SendOutcome[]> {
  const { trx, business, batchId } = send;
  const plans = rows.map((r) => ({ line: r.line, plan: r.plan as StudentBillingPlan }));
  const studentIds = [...new Set(plans.map((p) => p.plan.studentId))];
  const payerIds = [...new Set(plans.flatMap((p) => [p.plan.payerId, ...(p.plan.copyPayerId ? [p.plan.copyPayerId] : [])]))];
  const [students, payers, guardians] = await Promise.all([
    trx.selectFrom('students').select(['id', 'status']).where('business_id', '=', business.id).where('id', 'in', studentIds).execute(),
    trx.selectFrom('payers').select(['id', 'display_name', 'email', 'status']).where('business_id', '=', business.id).where('id', 'in', payerIds).execute(),
    trx
      .selectFrom('student_guardians')
      .select(['student_id', 'payer_id'])
      .where('business_id', '=', business.id)
      .where('student_id', 'in', studentIds)
      .execute(),
  ]);
  const studentOf = new Map(students.map((s) => [s.id, s]));
  const payerOf = new Map(payers.map((p) => [p.id, p]));
  const guards = new Set(guardians.map((g) => `${g.student_id}|${g.payer_id}`));

  const today = todayIn(business.timeZone);
  const outcomes: SendOutcome[] = [];
  type Ready = { line: number; plan: StudentBillingPlan; payer: (typeof payers)[number]; copy: (typeof payers)[number] | null; id: string };
  let ready: Ready[] = [];
  for (const { line, plan } of plans) {
    const student = studentOf.get(plan.studentId);
    const payer = payerOf.get(plan.payerId);
    const copy = plan.copyPayerId ? (payerOf.get(plan.copyPayerId) ?? null) : null;
    if (!student) outcomes.push({ line, error: 'The student was deleted after the batch was checked.' });
    else if (student.status !== 'active') outcomes.push({ line, error: `${plan.studentName} is deactivated; activate them first.` });
    else if (!payer || !guards.has(`${plan.studentId}|${plan.payerId}`))
      outcomes.push({ line, error: `${plan.studentName}'s guardian changed after the batch was checked.` });
    else if (payer.status !== 'active') outcomes.push({ line, error: `${payer.display_name} is deactivated; activate them first.` });
    else if (plan.copyPayerId && (!copy || !guards.has(`${plan.studentId}|${plan.copyPayerId}`)))
      outcomes.push({ line, error: `${plan.studentName}'s second guardian changed after the batch was checked.` });
    else if (copy && copy.status !== 'active') outcomes.push({ line, error: `${copy.display_name} is deactivated; activate them first.` });
    else if (plan.dueDate < today) outcomes.push({ line, error: 'The due date is now in the past.' });
    else ready.push({ line, plan, payer, copy, id: newId('req') });
  }
  if (ready.length === 0) return outcomes;

  // Billed once: the charge rows first, under a lock of each student and program (ADR 036). Days
  // another request billed already (another batch, a cycle's run, a single request, a second
  // worker) fail the row with that request's reference, and the others go on.
  const charged = ready.filter((r) => r.plan.enrollmentId && r.plan.period && r.plan.programId);
  if (charged.length > 0) {
    const billed = await claimCharges(
      trx,
      business.id,
      charged.map((r) => ({
        studentId: r.plan.studentId,
        programId: r.plan.programId!,
        start: r.plan.period!.start,
        end: r.plan.period!.end,
        oneTime: r.plan.oneTime === true,
        enrollmentId: r.plan.enrollmentId!,
        requestId: r.id,
        amountCents: r.plan.amountCents,
      })),
    );
    const lostIds = new Set<string>();
    charged.forEach((r, i) => {
      const by = billed[i];
      if (!by) return;
      lostIds.add(r.id);
      const ref = by.number === null ? '' : ` (${referenceNumber(by.number)})`;
      outcomes.push({
        line: r.line,
        error: r.plan.oneTime
          ? `${r.plan.studentName} was billed for ${r.plan.programName} already${ref}; a one-time program is billed once.`
          : `${r.plan.studentName} was billed for ${r.plan.programName}, ${r.plan.period!.label} already${ref}.`,
      });
    });
    if (lostIds.size > 0) {
      ready = ready.filter((r) => !lostIds.has(r.id));
      if (ready.length === 0) return outcomes;
    }
  }

  const requests: RequestToSend[] = ready.map((r) => {
    const period = r.plan.period?.label ?? r.plan.periodLabel;
    const what = [r.plan.studentName, [r.plan.programName, period].filter(Boolean).join(', ')].filter(Boolean).join(' — ');
    return {
      line: r.line,
      id: r.id,
      values: {
        payer_id: r.payer.id,
        payer_display_name: r.payer.display_name,
        payer_email: r.payer.email,
        amount_cents: r.plan.amountCents,
        memo: r.plan.memo,
        reference: '',
        due_date: r.plan.dueDate,
        expires_on: r.plan.expiresOn,
        allow_partial: false,
        channel: 'email',
      },
      source: studentSource({
        student: { studentId: r.plan.studentId, name: r.plan.studentName },
        program: r.plan.programId ? { programId: r.plan.programId, name: r.plan.programName ?? '' } : null,
        period,
        periodStart: r.plan.period?.start ?? null,
        copyPayerId: r.copy?.id ?? null,
      }),
      mobile: null,
      copy: r.copy,
      detail: `From student billing batch ${batchId}: ${what}`,
    };
  });
  outcomes.push(...(await insertSentRequests(send, requests)));
  return outcomes;
}

const checkMapping = mappingCheck(STUDENT_BILLING_BATCH_FIELDS, (has) => {
  const errors: FieldErrors = {};
  if (!has('studentNumber')) errors['mapping.studentNumber'] = 'Choose the column with the student id.';
  if (!has('amount') && !has('program')) errors['mapping.amount'] = 'Choose the column with the amount (or the program, to bill its fee).';
  if (!has('dueDate')) errors['mapping.dueDate'] = 'Choose the column with the due date.';
  return errors;
});

export const studentBillingBatches: BatchKindDefinition = {
  kind: 'student-billing',
  fields: STUDENT_BILLING_BATCH_FIELDS,
  checkMapping,
  checkRows,
  sendRows,
  repeat: { same: 'Same student, program, period and amount', fix: 'Drop one of them, or change the period.' },
};
