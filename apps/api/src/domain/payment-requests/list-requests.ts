import type { Kysely } from 'kysely';
import { type RequestListQuery, RequestState, requestActions } from '@tay/contract';
import { historyList } from '../../db/history-engine/engine';
import type { DB } from '../../db/schema';
import { parseReferenceNumber } from './request-record';

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
  counts: {
    byState: 'payment_request_counts',
    byDayAndState: 'payment_request_day_counts',
    historyDays: 'payment_request_history_days',
    historyHours: 'payment_request_history_hours',
    search: 'payment_request_search_counts',
  },
  search: { name: 'payer_display_name', email: 'payer_email', number: { column: 'number', parse: parseReferenceNumber } },
});

/**
 * One page of the transaction history or the drafts, with the session behind `sessionToken`
 * checked by the same statement that reads the page (see `apps/api/src/db/history-engine/engine.ts`).
 */
export function listRequests(args: { db: Kysely<DB>; businessId: string; sessionToken: string; query: ListQuery }) {
  return requestsList.page(args);
}
