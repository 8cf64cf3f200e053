import { sql, type ExpressionBuilder } from 'kysely';
import type { Payer } from '@tay/contract';
import type { Executor } from '../../db/executor';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/app-error';

export const PAYER_COLUMNS = [
  'payers.business_id',
  'payers.id',
  'payers.first_name',
  'payers.last_name',
  'payers.company_name',
  'payers.display_name',
  'payers.email',
  'payers.mobile_number',
  'payers.reference',
  'payers.status',
  'payers.verification',
  'payers.verification_sent_at',
  'payers.verified_at',
  'payers.created_at',
  'payers.updated_at',
] as const;

/** Requests to pay that name the payer, drafts included (served by `payment_requests_payer_idx`). */
export function transactionCount(eb: ExpressionBuilder<DB, 'payers'>) {
  return eb
    .selectFrom('payment_requests')
    .select(sql<number>`count(*)::int`.as('n'))
    .whereRef('payment_requests.business_id', '=', 'payers.business_id')
    .whereRef('payment_requests.payer_id', '=', 'payers.id')
    .as('transaction_count');
}

/** Of those, the drafts: the Transactions page (the history view) lists all the others. */
export function draftCount(eb: ExpressionBuilder<DB, 'payers'>) {
  return eb
    .selectFrom('payment_requests')
    .select(sql<number>`count(*)::int`.as('n'))
    .whereRef('payment_requests.business_id', '=', 'payers.business_id')
    .whereRef('payment_requests.payer_id', '=', 'payers.id')
    .where('payment_requests.state', '=', 'Draft')
    .as('draft_count');
}

export function selectPayers(executor: Executor) {
  return executor
    .selectFrom('payers')
    .select(PAYER_COLUMNS)
    .select((eb) => [transactionCount(eb), draftCount(eb)]);
}

export type PayerRow = NonNullable<Awaited<ReturnType<ReturnType<typeof selectPayers>['executeTakeFirst']>>>;

export function toPayer(row: PayerRow): Payer {
  return {
    payerId: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    companyName: row.company_name,
    displayName: row.display_name,
    email: row.email,
    mobileNumber: row.mobile_number,
    reference: row.reference,
    status: row.status,
    verification: row.verification,
    verificationSentAt: row.verification_sent_at?.toISOString() ?? null,
    verifiedAt: row.verified_at?.toISOString() ?? null,
    transactionCount: row.transaction_count ?? 0,
    historyCount: (row.transaction_count ?? 0) - (row.draft_count ?? 0),
    draftCount: row.draft_count ?? 0,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** The payer of this business; an id of another business's payer answers like an unknown one. */
export async function findPayerRow(executor: Executor, businessId: string, payerId: string): Promise<PayerRow> {
  const row = await selectPayers(executor).where('payers.business_id', '=', businessId).where('payers.id', '=', payerId).executeTakeFirst();
  if (!row) throw AppError.notFound('Payer');
  return row;
}

/** Same as `findPayerRow`, locked until the transaction ends: every change of a payer goes through it. */
export async function lockPayerRow(executor: Executor, businessId: string, payerId: string): Promise<PayerRow> {
  const row = await selectPayers(executor).where('payers.business_id', '=', businessId).where('payers.id', '=', payerId).forUpdate('payers').executeTakeFirst();
  if (!row) throw AppError.notFound('Payer');
  return row;
}

export async function loadPayer(executor: Executor, businessId: string, payerId: string): Promise<Payer> {
  return toPayer(await findPayerRow(executor, businessId, payerId));
}
