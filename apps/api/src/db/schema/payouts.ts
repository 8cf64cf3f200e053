import type { Generated } from 'kysely';

/** Payments out (migration 0032, ADR 035). */
export type ReceiverVerification = 'unverified' | 'verified';
export type ReceiverStatus = 'active' | 'Disabled';
export type PayoutStateValue = 'Draft' | 'Submitted' | 'Approved' | 'Processed' | 'Rejected' | 'Error' | 'Cancelled';

export interface ReceiversTable {
  business_id: string;
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  mobile: string | null;
  reference: string | null;
  verification: Generated<ReceiverVerification>;
  status: Generated<ReceiverStatus>;
  bank_name: string | null;
  routing_number: string | null;
  account_number_last4: string | null;
  /** Sealed with the bank accounts' secret box; never returned. */
  account_number_encrypted: string | null;
  account_type: 'checking' | 'savings' | null;
  account_holder_name: string | null;
  bank_set_at: Date | null;
  /** SHA-256 (hex) of the secure link's token. */
  link_token_hash: string | null;
  link_expires_at: Date | null;
  link_sent_at: Date | null;
  paid_count: Generated<number>;
  paid_cents: Generated<number>;
  created_by: string | null;
  /** How it was added: by the team, or by a check-in on an event's page. */
  added_via: Generated<'team' | 'check_in'>;
  /** When an owner or admin reviewed it (null: added by a member or a check-in, not reviewed yet). */
  reviewed_at: Date | null;
  reviewed_by: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface EventsTable {
  business_id: string;
  id: string;
  /** What the printed code encodes (PUBLIC_URL/checkin/<token>). */
  token: string;
  name: string;
  /** 'YYYY-MM-DD'. */
  event_date: string;
  place: Generated<string>;
  amount_cents: number;
  status: Generated<ReceiverStatus>;
  check_ins_count: Generated<number>;
  /** At most this many check-ins (null: no cap). */
  max_check_ins: number | null;
  /** Check-ins are refused from this time on (null: while the event is active). */
  check_ins_close_at: Date | null;
  created_by: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface EventCheckInsTable {
  business_id: string;
  event_id: string;
  receiver_id: string;
  checked_in_at: Generated<Date>;
  payout_id: string | null;
}

export interface PayoutsTable {
  business_id: string;
  id: string;
  /** Per business (`business_counters` 'payout'), from 1000. */
  number: number;
  receiver_id: string;
  receiver_name: string;
  receiver_email: string;
  amount_cents: number;
  fee_cents: Generated<number>;
  memo: Generated<string>;
  /** 'YYYY-MM-DD' in the business's time zone. */
  pay_on: string | null;
  state: Generated<PayoutStateValue>;
  batch_id: string | null;
  event_id: string | null;
  reject_reason: string | null;
  failure_reason: string | null;
  processor_payout_id: string | null;
  created_by: string | null;
  submitted_by: string | null;
  submitted_at: Date | null;
  /** Submitted while the business required a second approver: its submitter and creator never approve it. */
  second_approver_required: Generated<boolean>;
  approved_by: string | null;
  approved_at: Date | null;
  processed_at: Date | null;
  finished_at: Date | null;
  /** When the sending job first went to the processor. */
  send_started_at: Date | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface PayoutEventsTable {
  business_id: string;
  id: string;
  payout_id: string;
  event: string;
  from_state: PayoutStateValue | null;
  to_state: PayoutStateValue | null;
  detail: string | null;
  actor: string | null;
  created_at: Generated<Date>;
}

export interface SandboxProcessorPayoutsTable {
  id: string;
  amount_cents: number;
  routing_number: string;
  account_last4: string;
  behaviour: 'paid' | 'returned';
  idempotency_key: string;
  status: 'pending' | 'paid' | 'returned';
  failure_code: string | null;
  metadata: Generated<unknown>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}
