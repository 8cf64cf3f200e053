import { payerDisplayName } from '@tay/contract';
import type { Executor } from '../../db/executor';
import { newId } from '../../lib/ids';

/** A guardian who is not a payer yet: made a payer with the student (or the import row). */
export interface NewGuardian {
  firstName: string;
  lastName: string;
  /** Lower case, as payers' e-mails are kept. */
  email: string;
  mobile: string | null;
}

export interface GuardianPayer {
  id: string;
  display_name: string;
  first_name: string;
  last_name: string;
  email: string;
  mobile_number: string | null;
  status: string;
}

const PAYER_COLUMNS = ['id', 'display_name', 'first_name', 'last_name', 'email', 'mobile_number', 'status'] as const;

/** The business's payers with these e-mails (lower case), by e-mail. */
export async function payersByEmail(db: Executor, businessId: string, emails: string[]): Promise<Map<string, GuardianPayer>> {
  if (emails.length === 0) return new Map();
  const rows = await db.selectFrom('payers').select(PAYER_COLUMNS).where('business_id', '=', businessId).where('email', 'in', emails).execute();
  return new Map(rows.map((p) => [p.email, p]));
}

export async function payersById(db: Executor, businessId: string, ids: string[]): Promise<Map<string, GuardianPayer>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('payers').select(PAYER_COLUMNS).where('business_id', '=', businessId).where('id', 'in', ids).execute();
  return new Map(rows.map((p) => [p.id, p]));
}

/**
 * The payers of these guardians, by e-mail: an existing payer with the e-mail is used, and a
 * missing one is created — one per e-mail, whatever else creates it at the same time (the
 * insert yields to the unique index on the e-mail, then the row is read back). Returns the
 * payers and the ids of those this call created.
 */
export async function ensureGuardianPayers(
  trx: Executor,
  businessId: string,
  guardians: NewGuardian[],
  importBatchId: string | null,
): Promise<{ byEmail: Map<string, GuardianPayer>; created: string[] }> {
  const unique = new Map<string, NewGuardian>();
  for (const g of guardians) if (!unique.has(g.email)) unique.set(g.email, g);
  if (unique.size === 0) return { byEmail: new Map(), created: [] };
  const inserted = await trx
    .insertInto('payers')
    .values(
      [...unique.values()].map((g) => ({
        business_id: businessId,
        id: newId('pyr'),
        first_name: g.firstName,
        last_name: g.lastName,
        company_name: '',
        display_name: payerDisplayName(g),
        email: g.email,
        mobile_number: g.mobile,
        reference: null,
        verification_token_hash: null,
        verification_sent_at: null,
        verified_at: null,
        import_batch_id: importBatchId,
      })),
    )
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .execute();
  const byEmail = await payersByEmail(trx, businessId, [...unique.keys()]);
  return { byEmail, created: inserted.map((r) => r.id) };
}
