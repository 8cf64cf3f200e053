import { sql, type Selectable } from 'kysely';
import { BILLED_STATES, maskDateOfBirth, patientActions, type Patient, type PatientGuarantor } from '@tay/contract';
import type { Executor } from '../../db/executor';
import type { PatientsTable } from '../../db/schema/patients';
import { AppError } from '../../lib/app-error';

export type PatientRow = Selectable<PatientsTable>;

export const patientName = (p: Pick<PatientRow, 'first_name' | 'last_name'>) => `${p.first_name} ${p.last_name}`;

/** 'YYYY-MM-DD' of a date column, whichever form the driver gives it in. */
export const dayOf = (value: unknown): string => (value instanceof Date ? value.toISOString().slice(0, 10) : String(value).slice(0, 10));

/** One patient of the business; another business's id is 404, as an unknown one. */
export async function selectPatient(db: Executor, businessId: string, patientId: string, { lock = false } = {}): Promise<PatientRow> {
  let query = db.selectFrom('patients').selectAll().where('business_id', '=', businessId).where('id', '=', patientId);
  if (lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (!row) throw AppError.notFound('Patient');
  return row;
}

interface Details {
  guarantors: Map<string, Omit<PatientGuarantor, 'relationship'>>;
  counts: Map<string, { requests: number; statements: number; outstanding: number; refunded: number }>;
}

/** The guarantors' payers and the request counts of these patients. */
async function detailsOf(db: Executor, businessId: string, rows: PatientRow[]): Promise<Details> {
  const guarantors: Details['guarantors'] = new Map();
  const counts: Details['counts'] = new Map();
  if (rows.length === 0) return { guarantors, counts };
  const payerIds = [...new Set(rows.map((r) => r.guarantor_payer_id))];
  const [payers, requests] = await Promise.all([
    db
      .selectFrom('payers')
      .select(['id', 'display_name', 'email', 'mobile_number', 'status'])
      .where('business_id', '=', businessId)
      .where('id', 'in', payerIds)
      .execute(),
    db
      .selectFrom('payment_requests')
      .select([
        'source_id as patient_id',
        (eb) => eb.fn.countAll<string>().as('n'),
        sql<string>`count(*) FILTER (WHERE jsonb_typeof(source #> '{list,statement}') = 'object')`.as('statements'),
        sql<string>`coalesce(sum(greatest(amount_cents - amount_paid_cents, 0)) FILTER (WHERE state IN (${sql.join(
          BILLED_STATES.filter((s) => s !== 'Paid'),
        )})), 0)`.as('outstanding'),
        // What went back to the patient's guarantor from their statements and requests (ADR 051).
        sql<string>`coalesce(sum(refunded_cents), 0)`.as('refunded'),
      ])
      .where('business_id', '=', businessId)
      .where('source_kind', '=', 'patient')
      .where(
        'source_id',
        'in',
        rows.map((r) => r.id),
      )
      .groupBy('source_id')
      .execute(),
  ]);
  for (const p of payers) guarantors.set(p.id, { payerId: p.id, name: p.display_name, email: p.email, mobile: p.mobile_number, status: p.status });
  for (const r of requests) {
    if (r.patient_id)
      counts.set(r.patient_id, {
        requests: Number(r.n),
        statements: Number(r.statements),
        outstanding: Number(r.outstanding),
        refunded: Number(r.refunded),
      });
  }
  return { guarantors, counts };
}

function toPatient(row: PatientRow, details: Details, { fullDateOfBirth }: { fullDateOfBirth: boolean }): Patient {
  const c = details.counts.get(row.id) ?? { requests: 0, statements: 0, outstanding: 0, refunded: 0 };
  const payer = details.guarantors.get(row.guarantor_payer_id) ?? { payerId: row.guarantor_payer_id, name: '', email: '', mobile: null, status: 'active' };
  const dob = dayOf(row.date_of_birth);
  return {
    clientId: row.id,
    mrn: row.mrn,
    firstName: row.first_name,
    lastName: row.last_name,
    name: patientName(row),
    dateOfBirth: fullDateOfBirth ? dob : null,
    dateOfBirthMasked: maskDateOfBirth(dob),
    guarantor: { ...payer, relationship: row.guarantor_relationship },
    status: row.status,
    statementsCount: c.statements,
    requestsCount: c.requests,
    outstandingCents: c.outstanding,
    refundedCents: c.refunded,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    actions: patientActions(row.status, c.requests),
  };
}

/**
 * Patients as the API shows them, in the order given. The date of birth is masked unless
 * `fullDateOfBirth` (the single, audited read of one record).
 */
export async function toPatients(db: Executor, businessId: string, rows: PatientRow[], options = { fullDateOfBirth: false }): Promise<Patient[]> {
  const details = await detailsOf(db, businessId, rows);
  return rows.map((r) => toPatient(r, details, options));
}

/** One patient as shown; `fullDateOfBirth` only for a read that is recorded as a view. */
export async function loadPatient(db: Executor, businessId: string, patientId: string, options = { fullDateOfBirth: false }): Promise<Patient> {
  const row = await selectPatient(db, businessId, patientId);
  const [patient] = await toPatients(db, businessId, [row], options);
  return patient!;
}
