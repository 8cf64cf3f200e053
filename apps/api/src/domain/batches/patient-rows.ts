import { PARTY_TEMPLATES, PATIENT_BATCH_FIELDS, PATIENT_FIELD_LIMITS, type BatchMapping, type FieldErrors, type GuarantorRelationship } from '@tay/contract';
import type { Executor } from '../../db/executor';
import { newId } from '../../lib/ids';
import type { ScopedBusiness } from '../businesses/business-scope';
import { lockMrns } from '../patients/patients';
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
 * Batch kind `patients` (ADR 037): each row is a patient with their guarantor. A guarantor whose
 * e-mail a payer has is that payer; otherwise the payer is made when the row is sent — one per
 * e-mail across the rows of the file and whatever else makes it at the same time. A patient who
 * pays for themself (`self`, or a blank guarantor column) becomes a payer with their own names.
 */
export interface PatientPlan {
  mrn: string;
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  relationship: GuarantorRelationship;
  /** By e-mail (lower case): the payer is found or made when the row is sent. */
  guarantor: { email: string; newPayer: NewGuardian | null };
}

const template = PARTY_TEMPLATES.healthCare;
const DATE_FORMS = 'as 1984-05-31, 05/31/1984 or May 31, 1984';
const RELATIONSHIPS: readonly GuarantorRelationship[] = ['self', 'parent', 'spouse', 'child', 'other'];
const alreadyExists = (mrn: string) => partyAlreadyExists(template, mrn);
const inactiveGuarantor = inactivePayerFor(template);

function checkRow(fields: RowFields, today: string, taken: Set<string>, existing: Map<string, GuardianPayer>): RowOutcome {
  const errors: FieldErrors = {};
  const mrn = checkText(fields, 'mrn', 'MRN', PATIENT_FIELD_LIMITS.mrn, errors, true);
  if (mrn && !errors.mrn && taken.has(mrn.toLowerCase())) errors.mrn = alreadyExists(mrn);
  const firstName = checkText(fields, 'firstName', "patient's first name", PATIENT_FIELD_LIMITS.firstName, errors, true);
  const lastName = checkText(fields, 'lastName', "patient's last name", PATIENT_FIELD_LIMITS.lastName, errors, true);
  const dateOfBirth = checkBirthDate(fields, today, DATE_FORMS, true, errors);

  const relationText = (fields.guarantorRelationship ?? '').trim().toLowerCase();
  const relationship = (relationText || 'self') as GuarantorRelationship;
  if (!RELATIONSHIPS.includes(relationship)) {
    errors.guarantorRelationship = `"${(fields.guarantorRelationship ?? '').trim()}" is not a guarantor we know. Write self, parent, spouse, child or other (blank: self).`;
  }
  // A patient who pays for themself becomes a payer with their own names.
  const self = relationship === 'self';
  const guarantor = checkPayerColumns(
    fields,
    { email: 'guarantorEmail', firstName: 'guarantorFirstName', lastName: 'guarantorLastName', mobile: 'guarantorMobile' },
    {
      whose: "guarantor's",
      missing: self ? "Enter the patient's e-mail address: they pay for themself." : "Enter the guarantor's e-mail address.",
      names: self ? { firstName, lastName } : null,
      emailMax: PATIENT_FIELD_LIMITS.email,
      inactive: inactiveGuarantor,
    },
    errors,
    existing,
  );

  const label = partyRowLabel(firstName, lastName, mrn);
  if (Object.keys(errors).length > 0) return { status: 'invalid', errors, amountCents: null, payerName: label };
  const plan: PatientPlan = { mrn, firstName, lastName, dateOfBirth: dateOfBirth!, relationship, guarantor: guarantor! };
  return { status: 'valid', plan, amountCents: 0, payerName: label!, dedupeKey: `patient:${mrn.toLowerCase()}` };
}

async function checkRows(db: Executor, business: ScopedBusiness, _mapping: BatchMapping, rows: { line: number; fields: RowFields }[]): Promise<RowOutcome[]> {
  const today = todayIn(business.timeZone);
  return checkPartyRows(db, template, business.id, rows, (fields, taken, existing) => checkRow(fields, today, taken, existing));
}

/**
 * Sends a chunk of valid rows in the engine's transaction. The rows' MRNs are locked first (as a
 * patient added or edited by hand locks its own), so the MRNs free now stay free until the chunk
 * commits; a row whose MRN was taken since the review fails with its reason. Only then are the
 * guarantors' payers found or made (one per e-mail) — for the rows that will be inserted, so a
 * failed row leaves no payer behind — and a row whose guarantor was deactivated or deleted fails.
 */
async function sendRows(send: SendContext, rows: RowToSend[]): Promise<SendOutcome[]> {
  const { trx, business, batchId, user } = send;
  const plans = rows.map((r) => ({ line: r.line, plan: r.plan as PatientPlan }));
  await lockMrns(
    trx,
    business.id,
    plans.map(({ plan }) => plan.mrn),
  );
  const taken = await takenPartyIds(
    trx,
    template,
    business.id,
    plans.map(({ plan }) => plan.mrn.toLowerCase()),
  );

  const outcomes: SendOutcome[] = [];
  const free: typeof plans = [];
  for (const { line, plan } of plans) {
    if (taken.has(plan.mrn.toLowerCase())) outcomes.push({ line, error: alreadyExists(plan.mrn) });
    else {
      taken.add(plan.mrn.toLowerCase());
      free.push({ line, plan });
    }
  }
  const fresh = free.flatMap(({ plan }) => (plan.guarantor.newPayer ? [plan.guarantor.newPayer] : []));
  const made = await ensureGuardianPayers(trx, business.id, fresh, batchId);
  const payers = await payersByEmail(trx, business.id, [...new Set(free.map(({ plan }) => plan.guarantor.email))]);

  const ready: (ReadyParty & { plan: PatientPlan; payerId: string })[] = [];
  for (const { line, plan } of free) {
    const payer = payers.get(plan.guarantor.email);
    if (!payer) outcomes.push({ line, error: 'The guarantor payer was deleted after the file was checked.' });
    else if (payer.status !== 'active') outcomes.push({ line, error: inactiveGuarantor(payer) });
    else ready.push({ line, plan, id: newId('pat'), partyNumber: plan.mrn, payerId: payer.id });
  }
  // The MRNs are locked, so nothing should conflict; should a writer that does not lock them
  // have taken one, that row fails and the others go on.
  return settlePartyImport(send, template, ready, outcomes, {
    insert: (rows) =>
      trx
        .insertInto('patients')
        .values(
          rows.map((r) => ({
            business_id: business.id,
            id: r.id,
            mrn: r.partyNumber,
            first_name: r.plan.firstName,
            last_name: r.plan.lastName,
            date_of_birth: r.plan.dateOfBirth,
            guarantor_payer_id: r.payerId,
            guarantor_relationship: r.plan.relationship,
            created_by: user.userId,
          })),
        )
        .onConflict((oc) => oc.doNothing())
        .returning('id')
        .execute(),
    details: (done) => ({ count: done.length, patientIds: done.map((r) => r.id), payersCreated: made.created }),
  });
}

const checkMapping = mappingCheck(PATIENT_BATCH_FIELDS, alwaysRequired(PATIENT_BATCH_FIELDS));

export const patientBatches: BatchKindDefinition = {
  kind: 'patients',
  fields: PATIENT_BATCH_FIELDS,
  checkMapping,
  checkRows,
  sendRows,
  repeat: { same: 'Same MRN', fix: 'Each patient appears once: drop one of them, or correct the MRN.' },
};
