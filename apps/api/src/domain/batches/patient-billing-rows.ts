import { sql } from 'kysely';
import {
  formatMoney,
  MAX_AMOUNT_CENTS,
  parseAmountCell,
  parseDateCell,
  parseYesNoCell,
  PATIENT_BILLING_BATCH_FIELDS,
  STATEMENT_LIMITS,
  statementLineErrors,
  statementTotals,
  type BatchMapping,
  type FieldErrors,
} from '@tay/contract';
import type { Executor } from '../../db/executor';
import type { StatementLineRecord } from '../../db/schema/patients';
import { newId } from '../../lib/ids';
import type { ScopedBusiness } from '../businesses/business-scope';
import { addDays, expiryAfter, todayIn } from '../payment-requests/request-record';
import { mappingCheck, type BatchKindDefinition, type RowFields, type RowOutcome, type RowToSend, type SendContext, type SendOutcome } from './batch-kind';
import { statementSource } from '../patient-statements/statement-source';
import { insertSentRequests, type RequestToSend } from './send-requests';

/**
 * Batch kind `patient-billing` (ADR 037): a file of charges, ONE ROW PER CHARGE LINE, grouped by
 * the patient's MRN into ONE STATEMENT PER PATIENT — one payment request to the patient's
 * guarantor whose amount is the sum of the lines' patient responsibility.
 *
 * All or nothing per statement: a row is checked on its own (`checkRows`), then the patient's rows
 * are looked at together (`reviewGroups`, after every check, fix and drop): if one is invalid, or
 * they disagree on the due date or memo, every other row of the patient is flagged too, so the
 * rows of a patient are all valid or none is. The engine sends the batch in whole groups (a chunk
 * takes every valid row of the patients it reaches, one chunk at a time), so `sendRows` makes
 * each statement with all its lines in one transaction with the rows that link to it.
 */

/** Days from today to a statement's due date when the file leaves it blank. */
export const DEFAULT_DUE_DAYS = 30;

/** What a valid row will do: one line of its patient's statement. */
export interface PatientBillingPlan {
  /** The engine sends the rows of one group together: the patient's id. */
  group: string;
  patientId: string;
  mrn: string;
  patientName: string;
  patientFirstName: string;
  payerId: string;
  line: StatementLineRecord;
  /** The row's own memo ('' when blank: the statement takes another row's). */
  memo: string;
  /**
   * The row's due date: its own, or the check day + DEFAULT_DUE_DAYS when blank (`dueDateGiven`
   * false; for the review only — the statement counts the default from the day it is sent).
   */
  dueDate: string;
  dueDateGiven: boolean;
  expiresOn: string;
  /** The row's payment plan: yes, no, or null when blank. A statement may be paid in parts unless one of its rows says no. */
  paymentPlan: boolean | null;
}

const DATE_FORMS = 'as 2026-11-20, 11/20/2026 or Nov 20, 2026';

interface PatientMatch {
  id: string;
  mrn: string;
  first_name: string;
  last_name: string;
  status: string;
  guarantor_payer_id: string;
  payer_name: string;
  payer_status: string;
}

/** An amount cell: blank → `blank`; else cents, or the error naming it. */
function amountOf(text: string, label: string, blank: number | null): { cents: number | null; error?: string } {
  const t = text.trim();
  if (t === '') return { cents: blank };
  if (/^\(.*\)$/.test(t) || /^-|^\$\s*-/.test(t)) return { cents: null, error: `${label} cannot be negative.` };
  const cents = parseAmountCell(t);
  if (cents === null) return { cents: null, error: `"${t}" is not an amount. Write it like 125.50 or $1,234.50.` };
  if (cents > MAX_AMOUNT_CENTS) return { cents: null, error: `${label} is above the ${formatMoney(MAX_AMOUNT_CENTS)} limit.` };
  return { cents };
}

async function checkRows(db: Executor, business: ScopedBusiness, _mapping: BatchMapping, rows: { line: number; fields: RowFields }[]): Promise<RowOutcome[]> {
  const mrns = [...new Set(rows.map((r) => (r.fields.mrn ?? '').trim().toLowerCase()).filter((m) => m !== ''))];
  // One lookup per chunk: the patients named and their guarantors.
  const patients: PatientMatch[] =
    mrns.length === 0
      ? []
      : await db
          .selectFrom('patients as pt')
          .innerJoin('payers as p', (join) => join.onRef('p.business_id', '=', 'pt.business_id').onRef('p.id', '=', 'pt.guarantor_payer_id'))
          .select([
            'pt.id',
            'pt.mrn',
            'pt.first_name',
            'pt.last_name',
            'pt.status',
            'pt.guarantor_payer_id',
            'p.display_name as payer_name',
            'p.status as payer_status',
          ])
          .where('pt.business_id', '=', business.id)
          .where((eb) => eb(eb.fn('lower', ['pt.mrn']), 'in', mrns))
          .execute();
  const byMrn = new Map(patients.map((p) => [p.mrn.toLowerCase(), p]));
  const today = todayIn(business.timeZone);
  return rows.map(({ fields }) => checkRow(fields, byMrn, today, business));
}

function checkRow(fields: RowFields, byMrn: Map<string, PatientMatch>, today: string, business: ScopedBusiness): RowOutcome {
  const errors: FieldErrors = {};

  const mrn = (fields.mrn ?? '').trim();
  const patient = mrn ? byMrn.get(mrn.toLowerCase()) : undefined;
  const patientName = patient ? `${patient.first_name} ${patient.last_name}` : null;
  if (!mrn) errors.mrn = "Enter the patient's MRN.";
  else if (!patient) errors.mrn = `No patient has MRN ${mrn}.`;
  else if (patient.status !== 'active') errors.mrn = `${patientName} (MRN ${patient.mrn}) is disabled; enable them first.`;
  else if (patient.payer_status !== 'active') errors.mrn = `${patient.payer_name}, who pays for ${patientName}, is deactivated; activate them first.`;

  const serviceText = (fields.dateOfService ?? '').trim();
  const serviceDate = serviceText === '' ? null : parseDateCell(serviceText);
  if (serviceText === '') errors.dateOfService = 'Enter the date of service.';
  else if (!serviceDate) errors.dateOfService = `"${serviceText}" is not a date we can read. Write it ${DATE_FORMS}.`;
  else if (serviceDate > today) errors.dateOfService = 'The date of service cannot be in the future.';

  const description = (fields.description ?? '').trim();
  if (description === '') errors.description = 'Enter what was done (the description of the charge).';
  else if (description.length > STATEMENT_LIMITS.description)
    errors.description = `The description is ${description.length} characters; at most ${STATEMENT_LIMITS.description} fit.`;

  const billed = amountOf(fields.billed ?? '', 'The billed amount', null);
  if ((fields.billed ?? '').trim() === '') errors.billed = 'Enter the billed amount.';
  else if (billed.error) errors.billed = billed.error;
  const insurance = amountOf(fields.insurancePaid ?? '', 'Insurance paid', 0);
  if (insurance.error) errors.insurancePaid = insurance.error;
  const adjustment = amountOf(fields.adjustment ?? '', 'The adjustment', 0);
  if (adjustment.error) errors.adjustment = adjustment.error;
  const responsibility = amountOf(fields.patientResponsibility ?? '', 'The patient responsibility', null);
  if (responsibility.error) errors.patientResponsibility = responsibility.error;

  // The arithmetic, named by field, once every amount could be read.
  let line: StatementLineRecord | null = null;
  if (billed.cents !== null && insurance.cents !== null && adjustment.cents !== null && !responsibility.error) {
    const amounts = {
      billedCents: billed.cents,
      insurancePaidCents: insurance.cents,
      adjustmentCents: adjustment.cents,
      responsibilityCents: responsibility.cents,
    };
    const wrong = statementLineErrors(amounts);
    Object.assign(errors, wrong);
    if (Object.keys(wrong).length === 0 && serviceDate) {
      line = {
        serviceDate,
        description,
        billedCents: billed.cents,
        insurancePaidCents: insurance.cents,
        adjustmentCents: adjustment.cents,
        responsibilityCents: billed.cents - insurance.cents - adjustment.cents,
      };
    }
  }

  const planText = (fields.paymentPlan ?? '').trim();
  const paymentPlan = planText === '' ? null : parseYesNoCell(planText);
  if (planText !== '' && paymentPlan === null) errors.paymentPlan = `"${planText}" is not yes or no.`;
  const memo = (fields.memo ?? '').trim();
  if (memo.length > 500) errors.memo = `The memo is ${memo.length} characters; at most 500 fit.`;
  const dueText = (fields.dueDate ?? '').trim();
  const dueDate = dueText === '' ? addDays(today, DEFAULT_DUE_DAYS) : parseDateCell(dueText);
  if (!dueDate) errors.dueDate = `"${dueText}" is not a date we can read. Write it as 2026-12-31, 12/31/2026 or Dec 31, 2026.`;
  else if (dueDate < today) errors.dueDate = 'The due date cannot be in the past.';

  // The review names the patient and who pays — never the date of birth.
  const payerName = patient ? `${patientName} (${patient.payer_name})` : null;
  const amountCents = line?.responsibilityCents ?? null;
  if (Object.keys(errors).length > 0 || !patient || !line || !dueDate) return { status: 'invalid', errors, amountCents, payerName };
  const plan: PatientBillingPlan = {
    group: patient.id,
    patientId: patient.id,
    mrn: patient.mrn,
    patientName: patientName!,
    patientFirstName: patient.first_name,
    payerId: patient.guarantor_payer_id,
    line,
    memo,
    dueDate,
    dueDateGiven: dueText !== '',
    expiresOn: expiryAfter(dueDate, business.defaultExpiryDays),
    paymentPlan,
  };
  return {
    status: 'valid',
    plan,
    amountCents: line.responsibilityCents,
    payerName: payerName!,
    dedupeKey: [patient.id, line.serviceDate, description.toLowerCase(), line.billedCents, line.insurancePaidCents, line.adjustmentCents].join('|'),
  };
}

/** A patient's rows in the batch that cannot make a statement whole, as one query's answer. */
interface GroupProblem {
  mrn: string;
  patient_name: string | null;
  valid_lines: number[];
  bad_line: number | null;
  due_dates: string[] | null;
  memos: string[] | null;
  total: string | number;
}

const rowsWord = (lines: number[]) => (lines.length === 1 ? `row ${lines[0]}` : `rows ${lines.slice(0, -1).join(', ')} and ${lines.at(-1)}`);

/**
 * All or nothing per statement: after every check of the repeats (the last chunk, a fix, a drop),
 * the valid rows of each patient are flagged when the patient has an invalid row (its other
 * charges wait for it to be fixed or dropped), when they disagree on the due date or memo (a
 * statement has one of each; blank rows take the others'), when there are more charges than a
 * statement holds, or when they come to $0.00 or to more than one request may ask for. Rows are
 * grouped by the MRN as written (trimmed, any case), so a row whose patient is unknown or whose
 * amounts are wrong still holds its patient's statement back.
 */
async function reviewGroups(db: Executor, businessId: string, batchId: string): Promise<void> {
  const { rows } = await sql<GroupProblem>`
    SELECT lower(btrim(fields ->> 'mrn')) AS mrn,
           min(plan ->> 'patientName') FILTER (WHERE status = 'valid') AS patient_name,
           array_agg(line ORDER BY line) FILTER (WHERE status = 'valid') AS valid_lines,
           min(line) FILTER (WHERE status = 'invalid') AS bad_line,
           array_agg(DISTINCT plan ->> 'dueDate') FILTER (WHERE status = 'valid' AND plan ->> 'dueDateGiven' = 'true') AS due_dates,
           array_agg(DISTINCT plan ->> 'memo') FILTER (WHERE status = 'valid' AND plan ->> 'memo' <> '') AS memos,
           coalesce(sum(amount_cents) FILTER (WHERE status = 'valid'), 0) AS total
    FROM batch_rows
    WHERE business_id = ${businessId} AND batch_id = ${batchId} AND status IN ('valid', 'invalid') AND btrim(coalesce(fields ->> 'mrn', '')) <> ''
    GROUP BY 1
    HAVING count(*) FILTER (WHERE status = 'valid') > 0 AND (
      count(*) FILTER (WHERE status = 'invalid') > 0
      OR count(DISTINCT plan ->> 'dueDate') FILTER (WHERE status = 'valid' AND plan ->> 'dueDateGiven' = 'true') > 1
      OR count(DISTINCT plan ->> 'memo') FILTER (WHERE status = 'valid' AND plan ->> 'memo' <> '') > 1
      OR count(*) FILTER (WHERE status = 'valid') > ${STATEMENT_LIMITS.lines}
      OR coalesce(sum(amount_cents) FILTER (WHERE status = 'valid'), 0) <= 0
      OR coalesce(sum(amount_cents) FILTER (WHERE status = 'valid'), 0) > ${MAX_AMOUNT_CENTS}
    )`.execute(db);
  if (rows.length === 0) return;
  const flagged: { line: number; errors: FieldErrors }[] = [];
  for (const g of rows) {
    const name = g.patient_name ?? `the patient with MRN ${g.mrn}`;
    const lines = g.valid_lines.map(Number);
    let errors: FieldErrors;
    if (g.bad_line !== null) {
      errors = { row: `Another charge of this patient (row ${g.bad_line}) has an error: fix or drop it to send this statement.` };
    } else if ((g.due_dates?.length ?? 0) > 1) {
      errors = {
        dueDate: `The charges of ${name} (${rowsWord(lines)}) give different due dates (${[...g.due_dates!].sort().join(', ')}); a statement has one. Write the same due date on each, or leave all but one blank.`,
      };
    } else if ((g.memos?.length ?? 0) > 1) {
      errors = {
        memo: `The charges of ${name} (${rowsWord(lines)}) give different memos; a statement has one. Write the same memo on each, or leave all but one blank.`,
      };
    } else if (lines.length > STATEMENT_LIMITS.lines) {
      errors = {
        row: `${name} has ${lines.length} charges in this file; a statement holds at most ${STATEMENT_LIMITS.lines}. Drop some, or send them in another file.`,
      };
    } else if (Number(g.total) > MAX_AMOUNT_CENTS) {
      errors = {
        patientResponsibility: `The statement of ${name} comes to ${formatMoney(Number(g.total))}, above the ${formatMoney(MAX_AMOUNT_CENTS)} a request can ask for. Send some of the charges in another file.`,
      };
    } else {
      errors = {
        patientResponsibility: `The statement of ${name} comes to ${formatMoney(Number(g.total))}: insurance and adjustments cover every charge, so there is nothing to request. Drop these rows.`,
      };
    }
    for (const line of lines) flagged.push({ line, errors });
  }
  // The flagged rows keep their plan and dedupe key: the next review frees them (`markRepeats`).
  await sql`
    UPDATE batch_rows r SET status = 'invalid', errors = x.errors
    FROM jsonb_to_recordset(${JSON.stringify(flagged)}::jsonb) AS x(line int, errors jsonb)
    WHERE r.business_id = ${businessId} AND r.batch_id = ${batchId} AND r.line = x.line AND r.status = 'valid'`.execute(db);
}

/**
 * The statement of one patient's rows: its lines in file order, the earliest date of service, one
 * memo and due date. `today` is the day it is sent, in the business's time zone.
 */
function statementOf(rows: { line: number; plan: PatientBillingPlan }[], today: string) {
  const lines = rows.map((r) => r.plan.line);
  const given = rows.find((r) => r.plan.dueDateGiven);
  // Blank due dates take the one given. With none given, nobody chose a date: the default counts
  // from the day the statement goes out, not from the check (the plans' own defaults), so a batch
  // sent long after it was checked does not fail for a due date already past.
  const dueDate = given ? given.plan.dueDate : addDays(today, DEFAULT_DUE_DAYS);
  return {
    lines,
    dateOfService: lines.map((l) => l.serviceDate).reduce((a, b) => (a < b ? a : b)),
    memo: rows.find((r) => r.plan.memo !== '')?.plan.memo ?? '',
    dueDate,
    amountCents: statementTotals(lines).responsibilityCents,
    // A statement is payable in parts (a payment plan) unless one of its rows says no.
    allowPartial: !rows.some((r) => r.plan.paymentPlan === false),
  };
}

/**
 * Sends whole groups (the engine gives every valid row of each patient it reaches): one statement
 * per patient, set-based, in the engine's transaction — or, when the patient or the guarantor
 * changed since the review or a row of the patient is missing from this send, every row of the
 * patient fails with the same reason, so no statement ever goes out without one of its lines.
 */
async function sendRows(send: SendContext, rows: RowToSend[]): Promise<SendOutcome[]> {
  const { trx, business, batchId } = send;
  const byPatient = new Map<string, { line: number; plan: PatientBillingPlan }[]>();
  for (const r of rows) {
    const plan = r.plan as PatientBillingPlan;
    byPatient.set(plan.patientId, [...(byPatient.get(plan.patientId) ?? []), { line: r.line, plan }]);
  }
  const patientIds = [...byPatient.keys()];
  const [patients, payers, others] = await Promise.all([
    trx.selectFrom('patients').select(['id', 'status', 'guarantor_payer_id']).where('business_id', '=', business.id).where('id', 'in', patientIds).execute(),
    trx
      .selectFrom('payers')
      .select(['id', 'display_name', 'email', 'status'])
      .where('business_id', '=', business.id)
      .where('id', 'in', [...new Set(rows.map((r) => (r.plan as PatientBillingPlan).payerId))])
      .execute(),
    // Belt and braces: a row of the same patient (by its plan, or by the MRN as written) in this
    // batch that is not being sent now. `reviewGroups` makes this impossible; it is checked anyway.
    trx
      .selectFrom('batch_rows')
      .select(['line', sql<string | null>`plan ->> 'group'`.as('grp'), sql<string>`lower(btrim(coalesce(fields ->> 'mrn', '')))`.as('mrn')])
      .where('business_id', '=', business.id)
      .where('batch_id', '=', batchId)
      .where('status', 'in', ['valid', 'invalid', 'failed'])
      .where(
        'line',
        'not in',
        rows.map((r) => r.line),
      )
      .where((eb) =>
        eb.or([
          eb(sql<string>`plan ->> 'group'`, 'in', patientIds),
          eb(
            sql<string>`lower(btrim(coalesce(fields ->> 'mrn', '')))`,
            'in',
            [...byPatient.values()].map((g) => g[0]!.plan.mrn.toLowerCase()),
          ),
        ]),
      )
      .execute(),
  ]);
  const patientOf = new Map(patients.map((p) => [p.id, p]));
  const payerOf = new Map(payers.map((p) => [p.id, p]));
  const today = todayIn(business.timeZone);

  const outcomes: SendOutcome[] = [];
  const requests: RequestToSend[] = [];
  for (const [patientId, group] of byPatient) {
    const first = group[0]!.plan;
    const patient = patientOf.get(patientId);
    const payer = payerOf.get(first.payerId);
    const statement = statementOf(group, today);
    const left = others.find((o) => o.grp === patientId || o.mrn === first.mrn.toLowerCase());
    let error: string | null = null;
    if (!patient) error = `${first.patientName} was deleted after the batch was checked.`;
    else if (patient.status !== 'active') error = `${first.patientName} is disabled; enable them first.`;
    else if (patient.guarantor_payer_id !== first.payerId || !payer) error = `The guarantor of ${first.patientName} changed after the batch was checked.`;
    else if (payer.status !== 'active') error = `${payer.display_name}, who pays for ${first.patientName}, is deactivated; activate them first.`;
    else if (statement.dueDate < today) error = 'The due date is now in the past.';
    else if (left) error = `Another charge of this patient (row ${left.line}) is not being sent, so this statement is not sent without it.`;
    if (error !== null || !payer) {
      for (const r of group) outcomes.push({ line: r.line, error: error ?? 'The guarantor changed after the batch was checked.' });
      continue;
    }
    const id = newId('req');
    const what = `${first.patientName} — ${statement.lines.length === 1 ? '1 charge' : `${statement.lines.length} charges`}`;
    requests.push({
      // The statement's first row; every row of the patient links to it below.
      line: group[0]!.line,
      id,
      values: {
        payer_id: payer.id,
        payer_display_name: payer.display_name,
        payer_email: payer.email,
        amount_cents: statement.amountCents,
        memo: statement.memo,
        reference: '',
        due_date: statement.dueDate,
        expires_on: expiryAfter(statement.dueDate, business.defaultExpiryDays),
        allow_partial: statement.allowPartial,
        channel: 'email',
      },
      source: statementSource({ id: patientId, name: first.patientName, firstName: first.patientFirstName }, statement.dateOfService, statement.lines),
      mobile: null,
      detail: `From patient billing batch ${batchId}: ${what}`,
    });
  }
  const made = await insertSentRequests(send, requests);
  // Each statement's request, for every row of its patient.
  const requestOfLine = new Map(made.flatMap((m) => ('requestId' in m ? [[m.line, m.requestId] as const] : [])));
  for (const group of byPatient.values()) {
    const requestId = requestOfLine.get(group[0]!.line);
    if (requestId) for (const r of group) outcomes.push({ line: r.line, requestId });
  }
  return outcomes;
}

const checkMapping = mappingCheck(PATIENT_BILLING_BATCH_FIELDS, (has) => {
  const errors: FieldErrors = {};
  if (!has('mrn')) errors['mapping.mrn'] = "Choose the column with the patient's MRN.";
  if (!has('dateOfService')) errors['mapping.dateOfService'] = 'Choose the column with the date of service.';
  if (!has('description')) errors['mapping.description'] = 'Choose the column with the description of the charge.';
  if (!has('billed')) errors['mapping.billed'] = 'Choose the column with the billed amount.';
  return errors;
});

export const patientBillingBatches: BatchKindDefinition = {
  kind: 'patient-billing',
  fields: PATIENT_BILLING_BATCH_FIELDS,
  checkMapping,
  checkRows,
  sendRows,
  groups: { reviewGroups },
  repeat: {
    same: 'Same patient, date of service, description and amounts',
    fix: 'Drop one of them if it was entered twice, or tell the two charges apart in the description.',
  },
};
