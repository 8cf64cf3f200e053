import type { Generated } from 'kysely';

export interface UsersTable {
  id: string;
  name: string;
  email: string;
  email_verified: Generated<boolean>;
  image: string | null;
  first_name: string | null;
  last_name: string | null;
  mobile_number: string | null;
  enroll_notification_via_email: Generated<boolean>;
  enroll_notification_via_mobile_number: Generated<boolean>;
  user_state: Generated<'Incomplete' | 'complete'>;
  must_change_password: Generated<boolean>;
  temporary_password_expires_at: Date | null;
  /** Stamped by every new session (migration 0028). */
  last_signed_in_at: Generated<Date | null>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface SessionsTable {
  id: string;
  expires_at: Date;
  token: string;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  ip_address: string | null;
  user_agent: string | null;
  user_id: string;
}

export interface AccountsTable {
  id: string;
  account_id: string;
  provider_id: string;
  user_id: string;
  password: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface VerificationsTable {
  id: string;
  identifier: string;
  value: string;
  expires_at: Date;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface RateLimitsTable {
  key: string;
  count: number;
  window_ends_at: Date;
}
