import { sql } from 'kysely';
import type { Executor } from '../../db/executor';
import { recordEvent } from '../businesses/audit';

/** What of a patient's record was looked at: the record, its edit form, its statements, or an export that held it. */
export type PatientViewWhat = 'record' | 'edit' | 'statements' | 'export';

/** How a person is shown in a record's views when no profile names are known: their name and e-mail, or the e-mail alone. */
export function viewActor(user: { name?: string | null; email: string }): string {
  const name = user.name?.trim();
  return name && name.toLowerCase() !== user.email.toLowerCase() ? `${name} (${user.email})` : user.email;
}

/**
 * Writes one view of a patient's record (who, when, what): a row the patient's page lists
 * (`patient_record_views`) and the business's audit trail (`patient.viewed`), which outlives a
 * deleted patient. Call it on every read of one patient's record, in the same executor as the
 * read, so the view is never lost while the data was shown.
 */
export async function recordPatientView(
  db: Executor,
  view: {
    businessId: string;
    patientId: string;
    userId: string | null;
    actor: string;
    what: 'record' | 'edit' | 'statements';
    ipAddress: string | null;
  },
): Promise<void> {
  const who = await viewer(db, view);
  await db
    .insertInto('patient_record_views')
    .values({
      business_id: view.businessId,
      patient_id: view.patientId,
      user_id: view.userId,
      actor: who.shown,
      what: view.what,
      ip_address: view.ipAddress,
    })
    .execute();
  await recordEvent(db, {
    businessId: view.businessId,
    actor: { userId: view.userId, label: who.label, ip: view.ipAddress },
    action: 'patient.viewed',
    details: { patientId: view.patientId, what: view.what },
  });
}

/**
 * A signed-in person is shown by their profile's names and e-mail ("Ana Lopez (ana@clinic.example)");
 * the audit log names them by e-mail, as every other entry does.
 */
async function viewer(db: Executor, view: { userId: string | null; actor: string }): Promise<{ shown: string; label: string }> {
  const user = view.userId
    ? await db.selectFrom('users').select(['email', 'first_name', 'last_name']).where('id', '=', view.userId).executeTakeFirst()
    : undefined;
  const names = [user?.first_name, user?.last_name]
    .map((n) => n?.trim() ?? '')
    .filter(Boolean)
    .join(' ');
  return { shown: user && names ? `${names} (${user.email})` : view.actor, label: user?.email ?? view.actor };
}

/** What an export of patient data is of: the patients' CSV, the history's CSV (statements), a patient batch's errors. */
export type PatientExportKind = 'patients' | 'history' | 'batch-errors';

/** An export of patient data: whose business, what of, by whom and from where, how many records, and its filters. */
export interface PatientExport {
  businessId: string;
  kind: PatientExportKind;
  userId: string | null;
  actor: string;
  ipAddress: string | null;
  count: number;
  filters: Record<string, unknown>;
  /** What else names the export (the batch and its file). */
  details?: Record<string, unknown>;
}

/**
 * Writes one export of patient data (who, when, how many records, which filters) to the
 * business's audit trail (`patients.exported`), and an `export` view of each patient it holds to
 * their records' views — as many rows as patients, in one statement. Call it before the first
 * byte of the export goes out; `count` is how many records (rows) the export holds. `filters`
 * never carry what was typed into a search (it may be a name or an MRN: the audit log names
 * patients by id only), only that there was one.
 */
export async function recordPatientExport(db: Executor, entry: PatientExport & { patientIds: readonly string[] }): Promise<void> {
  const who = await viewer(db, entry);
  await recordPatientExportViews(db, { ...entry, shown: who.shown });
  await recordPatientExportEvent(db, { ...entry, patients: new Set(entry.patientIds).size, label: who.label });
}

/** The audit log's entry of an export (see {@link recordPatientExport}); `patients`: how many distinct patients it held, when known. */
export async function recordPatientExportEvent(
  db: Executor,
  entry: PatientExport & {
    patients?: number;
    /** The person's e-mail, if already read. */
    label?: string;
  },
): Promise<void> {
  const label = entry.label ?? (await viewer(db, entry)).label;
  await recordEvent(db, {
    businessId: entry.businessId,
    actor: { userId: entry.userId, label, ip: entry.ipAddress },
    action: 'patients.exported',
    details: {
      export: entry.kind,
      count: entry.count,
      ...(entry.patients === undefined ? {} : { patients: entry.patients }),
      filters: entry.filters,
      ...entry.details,
    },
  });
}

/** One `export` view per distinct patient in `patientIds`, shown as `shown` (or as the person's profile names). */
export async function recordPatientExportViews(
  db: Executor,
  entry: { businessId: string; userId: string | null; actor: string; ipAddress: string | null; patientIds: readonly string[]; shown?: string },
): Promise<void> {
  if (entry.patientIds.length === 0) return;
  const shown = entry.shown ?? (await viewer(db, entry)).shown;
  await sql`
    INSERT INTO patient_record_views (business_id, patient_id, user_id, actor, what, ip_address)
    SELECT ${entry.businessId}, p.id, ${entry.userId}, ${shown}, 'export', ${entry.ipAddress}
    FROM (SELECT DISTINCT unnest(${[...entry.patientIds]}::text[]) AS id) p`.execute(db);
}

/** The filters of an export as the audit log keeps them: given ones only, a search as `true`. */
export function exportFilters(query: Record<string, unknown>, filterKeys: readonly string[]): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const key of filterKeys) {
    const value = query[key];
    if (value === undefined || value === null || value === '') continue;
    kept[key] = key === 'search' ? true : value;
  }
  return kept;
}
