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
  /** On once the first code from the authenticator app checked out (migration 0064). */
  two_factor_enabled: Generated<boolean>;
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

/** better-auth's two-factor rows (migration 0064); `secret` and `backup_codes` are encrypted by better-auth. */
export interface TwoFactorsTable {
  id: string;
  user_id: string;
  secret: string;
  backup_codes: string;
  verified: Generated<boolean>;
  failed_verification_count: Generated<number>;
  locked_until: Date | null;
  /** The newest TOTP time step accepted: that code and older ones are refused (ADR 052). */
  last_totp_step: number | null;
  created_at: Generated<Date>;
}

export type UserSecurityAction =
  | 'two_factor.enabled'
  | 'two_factor.disabled'
  | 'two_factor.recovery_code_used'
  | 'two_factor.recovery_codes_replaced'
  | 'two_factor.codes_refused'
  | 'session.revoked'
  | 'session.others_revoked';

/** A person's own security log, append-only (migration 0064). */
export interface UserSecurityEventsTable {
  id: string;
  user_id: string;
  action: UserSecurityAction;
  details: Generated<unknown>;
  ip_address: string | null;
  created_at: Generated<Date>;
  seq: Generated<number>;
}
