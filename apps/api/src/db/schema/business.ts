import type { ColumnType, Generated, JSONColumnType } from 'kysely';

export type BusinessStateColumn = 'Incomplete' | 'Pending' | 'Approved' | 'Disabled';
export type MemberRole = 'owner' | 'admin' | 'member' | 'viewer';

export interface BusinessesTable {
  id: string;
  state: Generated<BusinessStateColumn>;
  payout_enabled: Generated<number>;
  payout_approval_required: Generated<boolean>;
  entity_type: 'standard' | 'student' | 'healthCare';
  business_name: string;
  legal_name: string | null;
  dba_name: string | null;
  ein: string | null;
  mcc: string | null;
  corporate_structure: string | null;
  non_profit_code: string | null;
  phone: string | null;
  email: string | null;
  website: string | null;
  address_line1: string | null;
  address_line2: string | null;
  address_city: string | null;
  address_state: string | null;
  address_postal_code: string | null;
  address_country: string | null;
  time_zone: Generated<string>;
  /** The business saved its configuration (migration 0027); until then its address suggests the zone. */
  time_zone_chosen: Generated<boolean>;
  default_expiry_days: Generated<number>;
  reminder_schedule: Generated<number[]>;
  invoice_terms: string | null;
  /** Above this a request, invoice or payout needs its amount confirmed (issue 35). */
  confirm_above_cents: Generated<number>;
  /** Above this a request, invoice or payout is refused. */
  amount_ceiling_cents: Generated<number>;
  auto_reminders: Generated<boolean>;
  auto_expire: Generated<boolean>;
  /** Whether a refund may take the available balance below zero (migration 0060, ADR 051). */
  allow_negative_balance: Generated<boolean>;
  logo: Buffer | null;
  logo_content_type: string | null;
  logo_updated_at: Date | null;
  submitted_at: Date | null;
  approved_at: Date | null;
  state_reason: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface BusinessMembersTable {
  business_id: string;
  user_id: string;
  role: MemberRole;
  created_at: Generated<Date>;
}

export interface BusinessOwnersTable {
  business_id: string;
  id: string;
  position: number;
  first_name: string;
  last_name: string;
  title: string;
  ownership_percent: number;
  /** `date`: written as `YYYY-MM-DD`, read back with `to_char` (pg would make it a local Date). */
  date_of_birth: ColumnType<Date, string, string>;
  ssn_last4: string;
  email: string;
  phone: string | null;
  created_at: Generated<Date>;
}

export interface BankAccountsTable {
  business_id: string;
  id: string;
  directory_id: string;
  bank_name: string;
  routing_number: string;
  account_number_last4: string;
  account_number_encrypted: string;
  account_type: 'checking' | 'savings';
  account_holder_name: string;
  is_settlement: Generated<boolean>;
  created_at: Generated<Date>;
  replaced_at: Date | null;
}

export interface BusinessEventsTable {
  business_id: string;
  id: string;
  actor_user_id: string | null;
  actor: string;
  action: string;
  details: JSONColumnType<Record<string, unknown>, string, string>;
  created_at: Generated<Date>;
  /** Where the change came from (migration 0028); null for jobs and operations. */
  ip_address: Generated<string | null>;
  /** The order entries were written in (migration 0028). */
  seq: Generated<string>;
}

export interface BusinessInvitationsTable {
  business_id: string;
  id: string;
  email: string;
  role: MemberRole;
  token_hash: string;
  invited_by_user_id: string;
  invited_by: string;
  created_at: Generated<Date>;
  expires_at: Date;
  accepted_at: Date | null;
  revoked_at: Date | null;
}
