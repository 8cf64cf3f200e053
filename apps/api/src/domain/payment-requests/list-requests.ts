import type { Kysely } from 'kysely';
import { type RequestListQuery, RequestState, requestActions } from '@tay/contract';
import type { Executor } from '../../db/executor';
import { historyList } from '../../db/history-engine/engine';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { recordPatientView, viewActor } from '../patients/patient-views';
import { parseInvoiceReference, parseReferenceNumber } from './request-record';

export type ListQuery = ReturnType<typeof RequestListQuery.parse>;

/**
 * The transaction history and the drafts: the history engine (ADR 029) over `payment_requests`.
 * The item of each row is stored as JSON (migration 0016); the counts are kept by triggers:
 * per state (0009), per day (0012) and hour (0014), per payer name and e-mail (0017). Search
 * prefix indexes are in migrations 0013 and 0015.
 */
export const requestsList = historyList({
  table: 'payment_requests',
  states: RequestState.options,
  draftState: 'Draft',
  actions: requestActions,
  sortColumns: {
    createdAt: 'created_at',
    dueDate: 'due_date',
    amount: 'amount_cents',
    payer: 'payer_display_name',
    state: 'state',
    reference: 'number',
  },
  payerColumn: 'payer_id',
  amountColumn: 'amount_cents',
  batchColumn: 'batch_id',
  qrColumn: 'qr_code_id',
  studentColumns: { student: 'student_id', program: 'program_id', period: 'period' },
  patientColumn: 'patient_id',
  // The days a billing report counts a request and its payments on (ADR 039).
  sentColumn: 'first_sent_at',
  payments: { table: 'payments', rowColumn: 'request_id', processedColumn: 'processed_at', returnedColumn: 'returned_at' },
  counts: {
    byState: 'payment_request_counts',
    byDayAndState: 'payment_request_day_counts',
    historyDays: 'payment_request_history_days',
    historyHours: 'payment_request_history_hours',
    search: 'payment_request_search_counts',
  },
  search: {
    name: 'payer_display_name',
    email: 'payer_email',
    numbers: [
      { column: 'number', parse: parseReferenceNumber },
      // The request that collects an invoice is found by the invoice's number too (migration 0054).
      { column: 'invoice_number', parse: parseInvoiceReference },
    ],
  },
});

/**
 * One page of the transaction history or the drafts, with the session behind `sessionToken`
 * checked by the same statement that reads the page (see `apps/api/src/db/history-engine/engine.ts`).
 * Filtered to a patient (`clientId`, ADR 037) it is a read of the patient's statements: the page
 * and the view it records (see {@link recordHistoryView}) are one transaction.
 */
export async function listRequests(args: { db: Kysely<DB>; businessId: string; sessionToken: string; query: ListQuery; ip?: string | null }) {
  const { db, businessId, sessionToken, query } = args;
  if (!query.clientId) return requestsList.page({ db, businessId, sessionToken, query });
  const clientId = query.clientId;
  return db.transaction().execute(async (trx) => {
    // The page checks the session and membership first: a refused read records nothing.
    const page = await requestsList.page({ db: trx, businessId, sessionToken, query });
    const user = await trx
      .selectFrom('sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select(['u.id', 'u.email', 'u.name'])
      .where('s.token', '=', sessionToken)
      .executeTakeFirst();
    if (!user) throw AppError.signInRequired();
    await recordHistoryView(trx, { businessId, clientId, user: { ...user, ip: args.ip ?? null } });
    return page;
  });
}

/**
 * The history (or its CSV) filtered by `clientId` shows a patient's statements (ADR 037): when the
 * id is a patient of the business, one `statements` view of the record for the person reading it.
 * Any other id (another business's, a payer's, none) finds no patient's statements and records nothing.
 */
export async function recordHistoryView(
  db: Executor,
  {
    businessId,
    clientId,
    user,
  }: { businessId: string; clientId: string | undefined; user: { id: string; email: string; name: string | null; ip: string | null } },
): Promise<void> {
  if (!clientId) return;
  const patient = await db.selectFrom('patients').select('id').where('business_id', '=', businessId).where('id', '=', clientId).executeTakeFirst();
  if (!patient) return;
  await recordPatientView(db, {
    businessId,
    patientId: patient.id,
    userId: user.id,
    actor: viewActor(user),
    what: 'statements',
    ipAddress: user.ip,
  });
}
