import type { Executor } from '../../db/executor';
import { recordEvent } from '../businesses/audit';

/** What of a patient's record was looked at: the record, its edit form, its statements. */
export type PatientViewWhat = 'record' | 'edit' | 'statements';

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
  // A signed-in person is shown by their profile's names and e-mail ("Ana Lopez (ana@clinic.example)");
  // the audit log names them by e-mail, as every other entry does.
  const user = view.userId
    ? await db.selectFrom('users').select(['email', 'first_name', 'last_name']).where('id', '=', view.userId).executeTakeFirst()
    : undefined;
  const names = [user?.first_name, user?.last_name]
    .map((n) => n?.trim() ?? '')
    .filter(Boolean)
    .join(' ');
  await db
    .insertInto('patient_record_views')
    .values({
      business_id: view.businessId,
      patient_id: view.patientId,
      user_id: view.userId,
      actor: user && names ? `${names} (${user.email})` : view.actor,
      what: view.what,
      ip_address: view.ipAddress,
    })
    .execute();
  await recordEvent(db, {
    businessId: view.businessId,
    actor: { userId: view.userId, label: user?.email ?? view.actor, ip: view.ipAddress },
    action: 'patient.viewed',
    details: { patientId: view.patientId, what: view.what },
  });
}
