import { sql, type Kysely } from 'kysely';
import { PAYER_HISTORY_LIMIT, type PayerHistory, type PayerHistoryAction, type PayerImportField } from '@tay/contract';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/app-error';

/** How a changed field reads in "Changed the …" (the audit event names fields, never values). */
const FIELD_NAMES: Record<PayerImportField, string> = {
  firstName: 'first name',
  lastName: 'last name',
  companyName: 'company name',
  email: 'e-mail address',
  mobileNumber: 'mobile number',
  reference: 'reference',
};

const ACTIONS: Record<string, PayerHistoryAction> = {
  'payer.created': 'created',
  'payers.imported': 'imported',
  'payer.updated': 'updated',
  'payer.activated': 'activated',
  'payer.deactivated': 'deactivated',
  'payer.verification_sent': 'verification_sent',
  'payer.reverification_requested': 'reverification_requested',
  'payer.verified': 'verified',
};

function list(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** An audit event about the payer, in words. */
export function payerEventText(action: PayerHistoryAction, details: Record<string, unknown>): string {
  switch (action) {
    case 'created':
      return 'Added, and e-mailed a link to confirm their e-mail address';
    case 'imported':
      return 'Added from a CSV file (not e-mailed)';
    case 'updated': {
      const fields = Array.isArray(details.fields) ? details.fields.map((f) => FIELD_NAMES[f as PayerImportField] ?? String(f)) : [];
      return fields.length > 0 ? `Changed the ${list(fields)}` : 'Changed';
    }
    case 'activated':
      return 'Activated: new requests to pay can be sent';
    case 'deactivated':
      return 'Deactivated: no new requests to pay can be sent';
    case 'verification_sent':
      return details.reason === 'email changed'
        ? 'E-mailed a link to confirm the new e-mail address'
        : 'E-mailed the link to confirm their e-mail address again';
    case 'reverification_requested':
      return 'Asked to confirm their e-mail address again; shown as unverified until they do';
    case 'verified':
      return details.via === 'payment' && typeof details.reference === 'string'
        ? `Confirmed their e-mail address by paying ${details.reference} through the link e-mailed to it`
        : 'Confirmed their e-mail address';
  }
}

/**
 * GET /api/businesses/:id/payers/:payerId/history: who did what to the payer and when, newest
 * first, from the business's append-only audit trail — the events that name the payer, and the
 * import that added it. Any member may read it; another business's payer is 404.
 */
export async function payerHistory({ db, businessId, payerId }: { db: Kysely<DB>; businessId: string; payerId: string }): Promise<PayerHistory> {
  const payer = await db
    .selectFrom('payers')
    .select(['id', 'import_batch_id'])
    .where('business_id', '=', businessId)
    .where('id', '=', payerId)
    .executeTakeFirst();
  if (!payer) throw AppError.notFound('Payer');
  const rows = await db
    .selectFrom('business_events')
    .select(['id', 'action', 'actor', 'details', 'created_at'])
    .where('business_id', '=', businessId)
    .where((eb) =>
      eb.or([
        eb(sql`details ->> 'payerId'`, '=', payerId),
        ...(payer.import_batch_id ? [eb.and([eb(sql`details ->> 'batchId'`, '=', payer.import_batch_id), eb('action', '=', 'payers.imported')])] : []),
      ]),
    )
    .where('action', 'in', Object.keys(ACTIONS))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(PAYER_HISTORY_LIMIT + 1)
    .execute();
  const items = rows.slice(0, PAYER_HISTORY_LIMIT).map((row) => {
    const action = ACTIONS[row.action]!;
    return { eventId: row.id, action, actor: row.actor, text: payerEventText(action, row.details), createdAt: row.created_at.toISOString() };
  });
  return { items, more: rows.length > PAYER_HISTORY_LIMIT };
}
