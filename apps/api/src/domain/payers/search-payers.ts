import { sql, type Kysely } from 'kysely';
import type { PayerSuggestion } from '@tay/contract';
import type { DB } from '../../db/schema';
import { likePrefix } from './payer-query';

/**
 * GET /api/directory/payers/beginsWith: the request form's typeahead. Active payers whose display
 * name, e-mail or reference begins with `q` (case-insensitive), by name; with `includeDisabled`
 * deactivated ones too (the transactions filter finds their history).
 */
export async function searchPayers({
  db,
  businessId,
  q,
  limit,
  includeDisabled = false,
}: {
  db: Kysely<DB>;
  businessId: string;
  q: string;
  limit: number;
  includeDisabled?: boolean;
}): Promise<PayerSuggestion[]> {
  const prefix = likePrefix(q.trim().toLowerCase());
  const rows = await db
    .selectFrom('payers')
    .select(['id', 'display_name', 'email', 'mobile_number', 'reference', 'verification', 'status'])
    .where('business_id', '=', businessId)
    .$if(!includeDisabled, (qb) => qb.where('status', '=', 'active'))
    .where((eb) => eb.or([eb(sql`lower(display_name)`, 'like', prefix), eb('email', 'like', prefix), eb(sql`lower(reference)`, 'like', prefix)]))
    .orderBy(sql`lower(display_name)`)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    payerId: r.id,
    displayName: r.display_name,
    email: r.email,
    mobileNumber: r.mobile_number,
    reference: r.reference,
    verification: r.verification,
    ...(includeDisabled ? { status: r.status } : {}),
  }));
}
