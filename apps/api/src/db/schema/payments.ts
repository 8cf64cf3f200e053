import type { ColumnType, Generated } from 'kysely';
import type { PaymentMethod, PaymentState, PayerStatus, RequestState, VerificationState } from '@tay/contract';

/** A request's source record as stored (ADR 045): the history item's fields under `list`, and the source's own. */
export type SourceRecordJson = { list: Record<string, unknown> } & Record<string, unknown>;

/** `date` columns are 'YYYY-MM-DD' strings both ways (see db/database.ts). */
type DateColumn = string;

export interface PayersTable {
  business_id: string;
  id: string;
  first_name: Generated<string>;
  last_name: Generated<string>;
  company_name: Generated<string>;
  display_name: string;
  email: string;
  mobile_number: string | null;
  reference: string | null;
  status: Generated<PayerStatus>;
  verification: Generated<VerificationState>;
  verification_token_hash: string | null;
  verification_sent_at: Date | null;
  verified_at: Date | null;
  import_batch_id: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface BusinessCountersTable {
  business_id: string;
  name: string;
  value: number;
}

export interface PaymentRequestsTable {
  business_id: string;
  id: string;
  number: number;
  /** Null only for a payment through a QR code by someone who is not a payer (migration 0031). */
  payer_id: string | null;
  payer_display_name: string;
  payer_email: string;
  amount_cents: number;
  amount_paid_cents: Generated<number>;
  /** The payments' refunded totals (migration 0058). */
  refunded_cents: Generated<number>;
  memo: Generated<string>;
  reference: Generated<string>;
  due_date: DateColumn;
  expires_on: DateColumn;
  allow_partial: Generated<boolean>;
  /** How its link, resends and reminders go to the payer (migration 0020). */
  channel: Generated<'email' | 'sms'>;
  state: RequestState;
  send_at: Date | null;
  sent_at: Date | null;
  /** The first send (a resend moves `sent_at`, not this): the day it was billed (migration 0042). */
  first_sent_at: Generated<Date | null>;
  paid_at: Date | null;
  pay_token_hash: string | null;
  last_reminder_offset: number | null;
  created_by: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  /** The history list's item as JSON, kept by a trigger from the row (migration 0016, ADR 015). */
  list_item: Generated<string>;
  /** The bulk batch that made it (migration 0029). */
  batch_id: Generated<string | null>;
  /**
   * What it was made for (migration 0055, ADR 045): the kind of source (`request_source_kinds`),
   * the id and number of the source's own record where it has one, and the source's record: under
   * `list` the fields its history item shows, beside them what the source keeps for itself.
   * Written as JSON text, read as the object.
   */
  source_kind: Generated<string>;
  source_id: Generated<string | null>;
  source_number: Generated<number | null>;
  source: ColumnType<SourceRecordJson, string | undefined, string>;
}

export interface PaymentRequestEventsTable {
  business_id: string;
  request_id: string;
  id: Generated<number>;
  actor_type: 'user' | 'payer' | 'system' | 'operations';
  actor_id: string | null;
  actor_label: string;
  event: string;
  from_state: RequestState | null;
  to_state: RequestState | null;
  detail: string | null;
  ip_address: Generated<string | null>;
  created_at: Generated<Date>;
}

export interface PaymentsTable {
  business_id: string;
  id: string;
  request_id: string;
  method: PaymentMethod;
  instrument: string;
  amount_cents: number;
  fee_cents: number;
  state: PaymentState;
  failure_reason: string | null;
  processor_charge_id: string | null;
  payer_email: string | null;
  created_at: Generated<Date>;
  processed_at: Date | null;
  settled_at: Date | null;
  returned_at: Date | null;
  /** What was refunded of it, never more than the amount (migration 0057, ADR 051). */
  refunded_cents: Generated<number>;
}

export type RefundReasonCode = 'duplicate' | 'fraudulent' | 'requested_by_payer' | 'other';
export type RefundStateCode = 'Pending' | 'Succeeded' | 'Failed';

/** Money going back to a payment's payer (migration 0057, ADR 051). */
export interface RefundsTable {
  business_id: string;
  id: string;
  request_id: string;
  payment_id: string;
  amount_cents: number;
  fee_returned_cents: Generated<number>;
  reason: RefundReasonCode;
  note: string | null;
  state: RefundStateCode;
  failure_reason: string | null;
  processor_refund_id: string | null;
  send_started_at: Date | null;
  created_by: string | null;
  created_by_email: string | null;
  created_at: Generated<Date>;
  processed_at: Date | null;
}

export type DisputeReasonCode =
  'fraudulent' | 'unrecognized' | 'duplicate' | 'product_not_received' | 'product_unacceptable' | 'credit_not_processed' | 'general';
export type DisputeStateCode = 'NeedsResponse' | 'UnderReview' | 'Won' | 'Lost' | 'Accepted';

/** A payer's bank taking a card payment back (migration 0061, ADR 051). */
export interface DisputesTable {
  business_id: string;
  id: string;
  request_id: string;
  payment_id: string;
  processor_dispute_id: string;
  amount_cents: number;
  fee_cents: number;
  fee_returned_cents: Generated<number>;
  reason: DisputeReasonCode;
  state: DisputeStateCode;
  evidence_due_at: Date;
  evidence: ColumnType<Record<string, string> | null, string | null, string | null>;
  submitted_at: Date | null;
  submitted_by: string | null;
  send_pending: 'evidence' | 'accept' | null;
  reminder_sent_at: Date | null;
  closed_at: Date | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface DisputeEvidenceFilesTable {
  business_id: string;
  id: string;
  dispute_id: string;
  file_name: string;
  content_type: 'application/pdf' | 'image/png' | 'image/jpeg';
  size_bytes: number;
  content: Buffer;
  created_at: Generated<Date>;
}

export interface SandboxProcessorDisputesTable {
  id: string;
  charge_id: string;
  amount_cents: number;
  reason: string;
  status: 'needs_response' | 'under_review' | 'won' | 'lost';
  evidence: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  due_by: Date;
  metadata: ColumnType<Record<string, unknown>, string, string>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface SandboxProcessorRefundsTable {
  id: string;
  charge_id: string;
  amount_cents: number;
  idempotency_key: string;
  status: 'pending' | 'succeeded' | 'failed';
  failure_code: string | null;
  metadata: ColumnType<Record<string, unknown>, string, string>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export type LedgerAccountKind = 'business_pending' | 'business_available' | 'business_payouts_in_flight' | 'platform_fees' | 'processor_clearing';

export interface LedgerAccountsTable {
  id: string;
  business_id: string | null;
  kind: LedgerAccountKind;
  created_at: Generated<Date>;
}

export interface JournalTransactionsTable {
  id: string;
  business_id: string;
  kind:
    | 'payment_captured'
    | 'payment_settled'
    | 'payment_returned'
    | 'payout_reserved'
    | 'payout_processed'
    | 'payout_released'
    | 'payout_returned'
    | 'refund_reserved'
    | 'refund_failed'
    | 'dispute_opened'
    | 'dispute_won';
  payment_id: string;
  /** A refund's movements: one per (refund, kind); null for every other movement (migration 0057). */
  refund_id: Generated<string | null>;
  description: string;
  created_at: Generated<Date>;
}

export interface JournalEntriesTable {
  id: Generated<number>;
  transaction_id: string;
  account_id: string;
  amount_cents: number;
  created_at: Generated<Date>;
}

export interface IdempotencyKeysTable {
  scope: string;
  key: string;
  request_hash: string;
  state: 'in_progress' | 'completed';
  response_status: number | null;
  response_body: unknown;
  created_at: Generated<Date>;
  /** Names the run that holds the key; a takeover changes it, so the old run can no longer write. */
  lease_id: string | null;
  lease_expires_at: Date | null;
  /** How far the run got (e.g. the payment it created), written in the same transaction as that step. */
  recovery_point: string | null;
}

export interface ProcessorEventsTable {
  event_id: string;
  type: string;
  received_at: Generated<Date>;
}

export interface SandboxProcessorTokensTable {
  id: string;
  kind: 'card' | 'bank_account';
  brand: string;
  last4: string;
  behaviour: 'succeed' | 'decline' | 'settle_late' | 'return_after_settlement' | 'insufficient_funds' | 'refund_fails' | 'dispute' | 'return_unauthorized';
  used_at: Date | null;
  created_at: Generated<Date>;
}

export interface SandboxProcessorChargesTable {
  id: string;
  token_id: string;
  amount_cents: number;
  idempotency_key: string;
  status: 'pending' | 'succeeded' | 'failed' | 'settled' | 'returned';
  failure_code: string | null;
  metadata: ColumnType<Record<string, unknown>, string, string>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface SandboxProcessorWebhooksTable {
  id: string;
  type: string;
  payload: ColumnType<Record<string, unknown>, string, string>;
  attempts: Generated<number>;
  delivered_at: Date | null;
  last_error: string | null;
  created_at: Generated<Date>;
}

export interface PaymentRequestCountsTable {
  business_id: string;
  state: RequestState;
  n: number;
  amount_cents: Generated<number>;
  amount_paid_cents: Generated<number>;
}

/** Requests of the history view (every state but Draft) per business and UTC day of creation (migration 0012). */
export interface PaymentRequestHistoryDaysTable {
  business_id: string;
  /** Days since 1970-01-01 UTC. */
  day: number;
  n: number;
}

/** Requests of the history view per business and UTC hour of creation (migration 0014). */
/** Requests per payer name (lower-cased), payer e-mail and state, kept by triggers (migration 0017). */
export interface PaymentRequestSearchCountsTable {
  business_id: string;
  /** `lower(payer_display_name)`, as a search compares it. */
  name_key: string;
  payer_email: string;
  state: string;
  n: number;
}

export interface PaymentRequestHistoryHoursTable {
  business_id: string;
  /** Hours since 1970-01-01 UTC. */
  hour: number;
  n: number;
}

/** Requests per business, UTC day of creation and state (migration 0012), kept by triggers. */
export interface PaymentRequestDayCountsTable {
  business_id: string;
  /** Days since 1970-01-01 UTC. */
  day: number;
  state: RequestState;
  n: number;
}
