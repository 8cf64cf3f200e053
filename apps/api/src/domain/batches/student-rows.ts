import { PARTY_TEMPLATES, STUDENT_BATCH_FIELDS, STUDENT_FIELD_LIMITS, type BatchMapping, type FieldErrors } from '@tay/contract';
import type { Executor } from '../../db/executor';
import { newId } from '../../lib/ids';
import type { ScopedBusiness } from '../businesses/business-scope';
import { todayIn } from '../payment-requests/request-record';
import { ensureGuardianPayers, payersByEmail, type GuardianPayer, type NewGuardian } from '../students/guardians';
import {
  checkBirthDate,
  checkPartyRows,
  checkPayerColumns,
  checkText,
  inactivePayerFor,
  partyAlreadyExists,
  partyRowLabel,
  settlePartyImport,
  takenPartyIds,
  type ReadyParty,
} from './party-rows';
import {
  alwaysRequired,
  mappingCheck,
  type BatchKindDefinition,
  type RowFields,
  type RowOutcome,
  type RowToSend,
  type SendContext,
  type SendOutcome,
} from './batch-kind';

/**
 * Batch kind `students` (ADR 036): each row is a student with one or two guardians. A guardian
 * whose e-mail a payer has is that payer; otherwise the payer is made when the row is sent — one
 * per e-mail across the rows of the file and whatever else makes it at the same time.
 */
export interface StudentPlan {
  studentNumber: string;
  firstName: string;
  lastName: string;
  grade: string;
  dateOfBirth: string | null;
  /** By e-mail (lower case): the payer is found or made when the row is sent. */
  guardians: { email: string; newPayer: NewGuardian | null }[];
}

const template = PARTY_TEMPLATES.student;
const DATE_FORMS = 'as 2014-05-31, 05/31/2014 or May 31, 2014';
const alreadyExists = (studentNumber: string) => partyAlreadyExists(template, studentNumber);
const inactiveGuardian = inactivePayerFor(template);

/** One guardian's columns (`guardian…` or `guardian2…`): the payer with the e-mail, or the new payer's details. */
function checkGuardian(fields: RowFields, prefix: 'guardian' | 'guardian2', errors: FieldErrors, existing: Map<string, GuardianPayer>) {
  const whose = prefix === 'guardian' ? "guardian's" : "second guardian's";
  return checkPayerColumns(
    fields,
    { email: `${prefix}Email`, firstName: `${prefix}FirstName`, lastName: `${prefix}LastName`, ...(prefix === 'guardian' ? { mobile: 'guardianMobile' } : {}) },
    {
      whose,
      missing: prefix === 'guardian' ? `Enter the ${whose} e-mail address.` : null,
      names: null,
      emailMax: STUDENT_FIELD_LIMITS.email,
      inactive: inactiveGuardian,
    },
    errors,
    existing,
  );
}

function checkRow(fields: RowFields, today: string, taken: Set<string>, existing: Map<string, GuardianPayer>): RowOutcome {
  const errors: FieldErrors = {};
  const studentNumber = checkText(fields, 'studentNumber', 'student id', STUDENT_FIELD_LIMITS.studentNumber, errors, true);
  if (studentNumber && !errors.studentNumber && taken.has(studentNumber.toLowerCase())) errors.studentNumber = alreadyExists(studentNumber);
  const firstName = checkText(fields, 'firstName', "student's first name", STUDENT_FIELD_LIMITS.firstName, errors, true);
  const lastName = checkText(fields, 'lastName', "student's last name", STUDENT_FIELD_LIMITS.lastName, errors, true);
  const grade = checkText(fields, 'grade', 'grade', STUDENT_FIELD_LIMITS.grade, errors, false);
  const dateOfBirth = checkBirthDate(fields, today, DATE_FORMS, false, errors);

  const first = checkGuardian(fields, 'guardian', errors, existing);
  const second = checkGuardian(fields, 'guardian2', errors, existing);
  if (first && second && first.email === second.email) errors.guardian2Email = 'The second guardian has the same e-mail as the first.';

  const label = partyRowLabel(firstName, lastName, studentNumber);
  if (Object.keys(errors).length > 0) return { status: 'invalid', errors, amountCents: null, payerName: label };
  const plan: StudentPlan = { studentNumber, firstName, lastName, grade, dateOfBirth, guardians: [first!, ...(second ? [second] : [])] };
  return { status: 'valid', plan, amountCents: 0, payerName: label!, dedupeKey: `student:${studentNumber.toLowerCase()}` };
}

async function checkRows(db: Executor, business: ScopedBusiness, _mapping: BatchMapping, rows: { line: number; fields: RowFields }[]): Promise<RowOutcome[]> {
  const today = todayIn(business.timeZone);
  return checkPartyRows(db, template, business.id, rows, (fields, taken, existing) => checkRow(fields, today, taken, existing));
}

/**
 * Sends a chunk of valid rows: the guardians' payers (found or made, one per e-mail), then the
 * students and their guardian links, in the engine's transaction. A row whose student id was
 * taken since the review, or whose guardian was deactivated, fails with its reason.
 */
async function sendRows(send: SendContext, rows: RowToSend[]): Promise<SendOutcome[]> {
  const { trx, business, batchId, user } = send;
  const plans = rows.map((r) => ({ line: r.line, plan: r.plan as StudentPlan }));
  const fresh = plans.flatMap(({ plan }) => plan.guardians.flatMap((g) => (g.newPayer ? [g.newPayer] : [])));
  const made = await ensureGuardianPayers(trx, business.id, fresh, batchId);
  const payers = await payersByEmail(trx, business.id, [...new Set(plans.flatMap(({ plan }) => plan.guardians.map((g) => g.email)))]);
  const taken = await takenPartyIds(
    trx,
    template,
    business.id,
    plans.map(({ plan }) => plan.studentNumber.toLowerCase()),
  );

  const outcomes: SendOutcome[] = [];
  const ready: (ReadyParty & { plan: StudentPlan; payerIds: string[] })[] = [];
  for (const { line, plan } of plans) {
    const guardians = plan.guardians.map((g) => payers.get(g.email));
    const inactive = guardians.find((p) => p && p.status !== 'active');
    if (taken.has(plan.studentNumber.toLowerCase())) outcomes.push({ line, error: alreadyExists(plan.studentNumber) });
    else if (guardians.some((p) => !p)) outcomes.push({ line, error: 'A guardian payer was deleted after the file was checked.' });
    else if (inactive) outcomes.push({ line, error: inactiveGuardian(inactive) });
    else {
      taken.add(plan.studentNumber.toLowerCase());
      ready.push({ line, plan, id: newId('stu'), partyNumber: plan.studentNumber, payerIds: guardians.map((p) => p!.id) });
    }
  }
  // A student id taken by a concurrent add yields to it: that row fails, the others go on.
  return settlePartyImport(send, template, ready, outcomes, {
    insert: (rows) =>
      trx
        .insertInto('students')
        .values(
          rows.map((r) => ({
            business_id: business.id,
            id: r.id,
            student_number: r.partyNumber,
            first_name: r.plan.firstName,
            last_name: r.plan.lastName,
            grade: r.plan.grade,
            date_of_birth: r.plan.dateOfBirth,
            created_by: user.userId,
          })),
        )
        .onConflict((oc) => oc.doNothing())
        .returning('id')
        .execute(),
    linked: (done) =>
      trx
        .insertInto('student_guardians')
        .values(done.flatMap((r) => r.payerIds.map((payer_id, i) => ({ business_id: business.id, student_id: r.id, payer_id, position: i + 1 }))))
        .execute(),
    details: (done) => ({ students: done.length, studentIds: done.map((r) => r.id), payersCreated: made.created }),
  });
}

const checkMapping = mappingCheck(STUDENT_BATCH_FIELDS, alwaysRequired(STUDENT_BATCH_FIELDS));

export const studentBatches: BatchKindDefinition = {
  kind: 'students',
  fields: STUDENT_BATCH_FIELDS,
  checkMapping,
  checkRows,
  sendRows,
  repeat: { same: 'Same student id', fix: 'Each student appears once: drop one of them, or correct the student id.' },
};
