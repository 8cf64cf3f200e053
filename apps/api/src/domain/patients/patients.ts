import { sql, type Kysely, type Transaction } from 'kysely';
import {
  csvRow,
  ErrorCode,
  formatDateTime,
  GUARANTOR_RELATIONSHIP_LABELS,
  PATIENT_STATUS_LABELS,
  type FieldErrors,
  type Patient,
  type PatientListQuery,
  type PatientValues,
  type PatientViews,
  type PatientViewsQuery,
} from '@tay/contract';
import type { Executor } from '../../db/executor';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { newId } from '../../lib/ids';
import { recordEvent, type Actor as AuditActor } from '../businesses/audit';
import type { ScopedBusiness } from '../businesses/business-scope';
import type { ActingUser } from '../payment-requests/request-context';
import { todayIn } from '../payment-requests/request-record';
import { ensureGuardianPayers, payersByEmail, payersById, type GuardianPayer } from '../students/guardians';
import { dayOf, loadPatient, patientName, selectPatient, toPatients } from './patient-record';
import { exportFilters, recordPatientExport, recordPatientView, viewActor } from './patient-views';
import { plainPage } from '../../db/plain-list';
import { updateOwned } from '../../db/owned-rows';

type ListQuery = ReturnType<typeof PatientListQuery.parse>;
type ViewsQuery = ReturnType<typeof PatientViewsQuery.parse>;

const auditActor = (user: ActingUser): AuditActor => ({ userId: user.userId, label: user.email, ip: user.ip ?? null });

export const duplicateMrn = (mrn: string) => `Another patient of this practice already has the MRN ${mrn}.`;

function duplicateError(mrn: string): AppError {
  return new AppError(ErrorCode.Conflict, `The MRN ${mrn} is taken by another patient.`, { mrn: duplicateMrn(mrn) });
}

/**
 * Locks these MRNs (case-insensitive) until the transaction ends, so whether one is free cannot
 * change between the look and the write: a patient added, edited or imported with the MRN waits.
 * Taken in one order, so two writers wait for each other and never deadlock.
 */
export async function lockMrns(trx: Executor, businessId: string, mrns: readonly string[]): Promise<void> {
  if (mrns.length === 0) return;
  await sql`
    SELECT pg_advisory_xact_lock(hashtextextended(k, 0))
    FROM (SELECT DISTINCT ${`patients.mrn:${businessId}:`} || lower(m) AS k FROM unnest(${[...mrns]}::text[]) AS m ORDER BY k) AS ordered`.execute(trx);
}

/** Refuses an MRN (case-insensitive) another patient of the business has; the MRN stays locked. */
async function assertMrnFree(db: Transaction<DB>, businessId: string, mrn: string, exceptId?: string) {
  await lockMrns(db, businessId, [mrn]);
  let query = db
    .selectFrom('patients')
    .select('id')
    .where('business_id', '=', businessId)
    .where(sql<boolean>`lower(mrn) = lower(${mrn})`);
  if (exceptId) query = query.where('id', '<>', exceptId);
  if (await query.executeTakeFirst()) throw duplicateError(mrn);
}

function fromViolation(error: unknown, mrn: string): AppError | null {
  const e = error as { code?: string; constraint?: string };
  if (e?.code === '23505' && e.constraint === 'patients_mrn_key') return duplicateError(mrn);
  return null;
}

function assertBirthDate(business: ScopedBusiness, body: PatientValues) {
  if (body.dateOfBirth > todayIn(business.timeZone)) {
    throw AppError.validation('The date of birth cannot be in the future.', { dateOfBirth: 'The date of birth cannot be in the future.' });
  }
}

const inactive = (p: GuardianPayer) =>
  `${p.display_name} is deactivated, so they cannot be a guarantor. Activate them in Manage Payers, or choose another payer.`;

/**
 * The guarantor's payer: an existing payer by id; an e-mail a payer already has is that payer
 * (never a copy); otherwise a payer made now, in the caller's transaction — with the patient's
 * names when the patient pays for themself. A Disabled payer cannot be chosen, unless they are
 * the guarantor already (`kept`, on an edit).
 */
async function resolveGuarantor(
  trx: Transaction<DB>,
  business: ScopedBusiness,
  body: PatientValues,
  kept: string | null = null,
): Promise<{ payerId: string; created: string | null }> {
  const g = body.guarantor;
  const fields: FieldErrors = {};
  if (g.payerId) {
    const payer = (await payersById(trx, business.id, [g.payerId])).get(g.payerId);
    if (!payer) throw new AppError(ErrorCode.NotFound, 'Payer not found.', { 'guarantor.payerId': 'This business has no payer with this id.' });
    if (payer.status !== 'active' && payer.id !== kept) fields['guarantor.payerId'] = inactive(payer);
    if (Object.keys(fields).length > 0) throw AppError.validation('The guarantor cannot be used: see the highlighted field.', fields);
    return { payerId: payer.id, created: null };
  }
  const email = g.email!;
  const existing = (await payersByEmail(trx, business.id, [email])).get(email);
  if (existing) {
    if (existing.status !== 'active' && existing.id !== kept) {
      throw AppError.validation('The guarantor cannot be used: see the highlighted field.', { 'guarantor.email': inactive(existing) });
    }
    return { payerId: existing.id, created: null };
  }
  const self = g.relationship === 'self';
  const made = await ensureGuardianPayers(
    trx,
    business.id,
    [{ firstName: self ? body.firstName : g.firstName!, lastName: self ? body.lastName : g.lastName!, email, mobile: g.mobile ?? null }],
    null,
  );
  const payer = made.byEmail.get(email)!;
  return { payerId: payer.id, created: made.created[0] ?? null };
}

function columnsOf(body: PatientValues, guarantorPayerId: string) {
  return {
    mrn: body.mrn,
    first_name: body.firstName,
    last_name: body.lastName,
    date_of_birth: body.dateOfBirth,
    guarantor_payer_id: guarantorPayerId,
    guarantor_relationship: body.guarantor.relationship,
  };
}

async function recordGuarantorPayer(trx: Transaction<DB>, business: ScopedBusiness, user: ActingUser, created: string | null, patientId: string) {
  if (!created) return;
  await recordEvent(trx, {
    businessId: business.id,
    actor: auditActor(user),
    action: 'payer.created',
    details: { payerId: created, asGuarantorOf: patientId },
  });
}

/** POST …/healthcare-clients: an active patient with their guarantor, in one transaction. */
export async function createPatient(
  db: Kysely<DB>,
  { business, user, body }: { business: ScopedBusiness; user: ActingUser; body: PatientValues },
): Promise<Patient> {
  assertBirthDate(business, body);
  try {
    return await db.transaction().execute(async (trx) => {
      await assertMrnFree(trx, business.id, body.mrn);
      const { payerId, created } = await resolveGuarantor(trx, business, body);
      const id = newId('pat');
      await trx
        .insertInto('patients')
        .values({ business_id: business.id, id, ...columnsOf(body, payerId), created_by: user.userId })
        .execute();
      await recordGuarantorPayer(trx, business, user, created, id);
      await recordEvent(trx, {
        businessId: business.id,
        actor: auditActor(user),
        action: 'patient.created',
        // The patient's id, never their data (the MRN included): the audit log copies no patient data.
        details: { patientId: id, guarantor: payerId, relationship: body.guarantor.relationship },
      });
      return loadPatient(trx, business.id, id, { fullDateOfBirth: true });
    });
  } catch (error) {
    throw fromViolation(error, body.mrn) ?? error;
  }
}

/** PATCH …/healthcare-clients/:clientId: the patient's fields and guarantor, as sent. */
export async function updatePatient(
  db: Kysely<DB>,
  { business, user, patientId, body }: { business: ScopedBusiness; user: ActingUser; patientId: string; body: PatientValues },
): Promise<Patient> {
  assertBirthDate(business, body);
  try {
    return await db.transaction().execute(async (trx) => {
      const current = await selectPatient(trx, business.id, patientId, { lock: true });
      await assertMrnFree(trx, business.id, body.mrn, patientId);
      const { payerId, created } = await resolveGuarantor(trx, business, body, current.guarantor_payer_id);
      await updateOwned(trx, 'patients', business.id, patientId, { ...columnsOf(body, payerId) });
      await recordGuarantorPayer(trx, business, user, created, patientId);
      const before = dayOf(current.date_of_birth);
      // Which fields changed, never their values: the audit log does not copy a patient's data.
      const changed = Object.entries({
        mrn: current.mrn !== body.mrn,
        firstName: current.first_name !== body.firstName,
        lastName: current.last_name !== body.lastName,
        dateOfBirth: before !== body.dateOfBirth,
        guarantor: current.guarantor_payer_id !== payerId,
        guarantorRelationship: current.guarantor_relationship !== body.guarantor.relationship,
      })
        .filter(([, yes]) => yes)
        .map(([field]) => field);
      await recordEvent(trx, { businessId: business.id, actor: auditActor(user), action: 'patient.updated', details: { patientId, changed } });
      return loadPatient(trx, business.id, patientId, { fullDateOfBirth: true });
    });
  } catch (error) {
    throw fromViolation(error, body.mrn) ?? error;
  }
}

/** Activate / Deactivate. */
export async function setPatientStatus(
  db: Kysely<DB>,
  { business, user, patientId, activate }: { business: ScopedBusiness; user: ActingUser; patientId: string; activate: boolean },
): Promise<Patient> {
  return db.transaction().execute(async (trx) => {
    const current = await selectPatient(trx, business.id, patientId, { lock: true });
    const status = activate ? 'active' : 'Disabled';
    if (current.status === status) throw new AppError(ErrorCode.Conflict, `${patientName(current)} is already ${activate ? 'active' : 'deactivated'}.`);
    await updateOwned(trx, 'patients', business.id, patientId, { status });
    await recordEvent(trx, {
      businessId: business.id,
      actor: auditActor(user),
      action: activate ? 'patient.activated' : 'patient.deactivated',
      details: { patientId },
    });
    return loadPatient(trx, business.id, patientId);
  });
}

/**
 * Deletes a patient no payment request names; one with requests stays on record. Who viewed the
 * record stays on record too (`patient_record_views` is append-only, migration 0050).
 */
export async function deletePatient(db: Kysely<DB>, { business, user, patientId }: { business: ScopedBusiness; user: ActingUser; patientId: string }) {
  await db.transaction().execute(async (trx) => {
    const current = await selectPatient(trx, business.id, patientId, { lock: true });
    const requests = await trx
      .selectFrom('payment_requests')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('business_id', '=', business.id)
      .where('source_kind', '=', 'patient')
      .where('source_id', '=', patientId)
      .executeTakeFirstOrThrow();
    const n = Number(requests.n);
    if (n > 0) {
      throw new AppError(
        ErrorCode.Conflict,
        `${patientName(current)} has ${n === 1 ? 'a payment request' : `${n} payment requests`}, so they stay on record with them. Deactivate them instead.`,
      );
    }
    await trx.deleteFrom('patients').where('business_id', '=', business.id).where('id', '=', patientId).execute();
    await recordEvent(trx, {
      businessId: business.id,
      actor: auditActor(user),
      action: 'patient.deleted',
      details: { patientId },
    });
  });
}

/**
 * GET …/healthcare-clients/:clientId: the full record, date of birth included. The view is
 * recorded (who, when, what) in the same transaction: no record is shown unrecorded. The statement
 * form's read (`statement`) needs no date of birth: it is left out, and the view is of the statements.
 */
export async function getPatient(
  db: Kysely<DB>,
  { business, user, patientId, purpose }: { business: ScopedBusiness; user: ActingUser; patientId: string; purpose: 'record' | 'edit' | 'statement' },
): Promise<Patient> {
  return db.transaction().execute(async (trx) => {
    const patient = await loadPatient(trx, business.id, patientId, { fullDateOfBirth: purpose !== 'statement' });
    await recordPatientView(trx, {
      businessId: business.id,
      patientId,
      userId: user.userId,
      actor: viewActor(user),
      what: purpose === 'statement' ? 'statements' : purpose,
      ipAddress: user.ip ?? null,
    });
    return patient;
  });
}

/** GET …/:clientId/views: who viewed the record, what and when, newest first. */
export async function listPatientViews(
  db: Kysely<DB>,
  { business, patientId, query }: { business: ScopedBusiness; patientId: string; query: ViewsQuery },
): Promise<PatientViews> {
  await selectPatient(db, business.id, patientId);
  const base = db.selectFrom('patient_record_views').where('business_id', '=', business.id).where('patient_id', '=', patientId);
  return plainPage(
    query,
    base.select(['id', 'user_id', 'actor', 'what', 'ip_address', 'viewed_at']).orderBy('viewed_at', 'desc').orderBy('id', 'desc'),
    base,
    (rows) =>
      rows.map((r) => ({
        viewId: String(r.id),
        userId: r.user_id,
        actor: r.actor,
        what: r.what,
        viewedAt: r.viewed_at.toISOString(),
        ipAddress: r.ip_address,
      })),
  );
}

function filtered(db: Kysely<DB>, businessId: string, query: Pick<ListQuery, 'search' | 'status' | 'relationship'>) {
  let q = db.selectFrom('patients as p').where('p.business_id', '=', businessId);
  if (query.search) {
    const needle = query.search.toLowerCase();
    q = q.where(
      sql<boolean>`(strpos(lower(p.first_name || ' ' || p.last_name), ${needle}) > 0
        OR strpos(lower(p.mrn), ${needle}) > 0
        OR EXISTS (SELECT 1 FROM payers g WHERE g.business_id = p.business_id AND g.id = p.guarantor_payer_id AND strpos(lower(g.email), ${needle}) > 0))`,
    );
  }
  if (query.status) q = q.where('p.status', '=', query.status);
  if (query.relationship) q = q.where('p.guarantor_relationship', '=', query.relationship);
  return q;
}

function sorted(query: ListQuery) {
  const dir = sql.raw(query.sortDirection === 'asc' ? 'ASC' : 'DESC');
  switch (query.sortBy) {
    case 'name':
      return sql`lower(p.first_name || ' ' || p.last_name) ${dir}, p.id ${dir}`;
    case 'mrn':
      return sql`lower(p.mrn) ${dir}, p.id ${dir}`;
    case 'status':
      return sql`p.status ${dir}, p.id ${dir}`;
    default:
      return sql`p.created_at ${dir}, p.id ${dir}`;
  }
}

/** A filtered, sorted page of patients; dates of birth masked (a list is not a view of a record). */
export async function listPatients(db: Kysely<DB>, { business, query }: { business: ScopedBusiness; query: ListQuery }) {
  const base = filtered(db, business.id, query);
  return plainPage(query, base.selectAll('p').orderBy(sorted(query)), base, (rows) => toPatients(db, business.id, rows));
}

const EXPORT_CHUNK = 500;

/**
 * The CSV of the list's query; the date of birth masked as in the list. The export is on record
 * before its first byte goes out, in the transaction that reads it: a `patients.exported` entry in
 * the audit log (who, when, how many, which filters) and an `export` view of each record it holds.
 */
export async function* exportPatients(
  db: Kysely<DB>,
  { business, user, query }: { business: ScopedBusiness; user: ActingUser & { name?: string | null }; query: ListQuery },
): AsyncGenerator<string> {
  const rows = await db.transaction().execute(async (trx) => {
    const found = await filtered(trx, business.id, query).selectAll('p').orderBy(sorted(query)).execute();
    await recordPatientExport(trx, {
      businessId: business.id,
      kind: 'patients',
      userId: user.userId,
      actor: viewActor(user),
      ipAddress: user.ip ?? null,
      count: found.length,
      patientIds: found.map((p) => p.id),
      filters: exportFilters(query, ['status', 'relationship', 'search']),
    });
    return found;
  });
  yield (
    '\ufeff' +
    csvRow([
      'MRN',
      'First name',
      'Last name',
      'Date of birth',
      'Status',
      'Guarantor',
      'Relationship',
      'Guarantor e-mail',
      'Requests',
      'Outstanding',
      'Refunded',
      'Added',
    ]) +
    '\r\n'
  );
  for (let i = 0; i < rows.length; i += EXPORT_CHUNK) {
    const patients = await toPatients(db, business.id, rows.slice(i, i + EXPORT_CHUNK));
    let text = '';
    for (const p of patients) {
      text +=
        csvRow([
          p.mrn,
          p.firstName,
          p.lastName,
          p.dateOfBirthMasked,
          PATIENT_STATUS_LABELS[p.status],
          p.guarantor.name,
          GUARANTOR_RELATIONSHIP_LABELS[p.guarantor.relationship],
          p.guarantor.email,
          String(p.requestsCount),
          (p.outstandingCents / 100).toFixed(2),
          (p.refundedCents / 100).toFixed(2),
          formatDateTime(p.createdAt, business.timeZone),
        ]) + '\r\n';
    }
    yield text;
  }
}
