import type { Generated } from 'kysely';
import type { IntegrationProvider, IntegrationState, IntegrationSyncState, SyncDirection, SyncOutcome, SyncRecordType } from '@tay/contract';

/** Accounting integrations (migration 0043, ADR 041). Tokens only sealed (`apps/api/src/lib/secret-box.ts`). */
export interface IntegrationsTable {
  business_id: string;
  provider: IntegrationProvider;
  state: IntegrationState;
  account_id: string | null;
  company_name: string | null;
  connected_at: Date | null;
  connected_by: string | null;
  access_token_sealed: string | null;
  refresh_token_sealed: string | null;
  access_expires_at: Date | null;
  refresh_expires_at: Date | null;
  sync_state: Generated<IntegrationSyncState>;
  sync_lease_until: Date | null;
  /** The run holding the lease (migration 0047). */
  sync_run: Generated<string | null>;
  last_sync_at: Date | null;
  last_sync_pushed: number | null;
  last_sync_failed: number | null;
  problem: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface IntegrationOauthStatesTable {
  state_hash: string;
  business_id: string;
  provider: IntegrationProvider;
  user_id: string;
  code_verifier_sealed: string;
  /** The hash of the one-use cookie given to the browser that asked (migration 0047). */
  browser_hash: string | null;
  expires_at: Date;
  created_at: Generated<Date>;
}

export interface IntegrationLinksTable {
  business_id: string;
  provider: IntegrationProvider;
  account_id: string;
  record_type: SyncRecordType;
  local_id: string;
  remote_id: string | null;
  remote_version: string | null;
  pushed_hash: string | null;
  pushed_at: Date | null;
  failure: string | null;
  failed_at: Date | null;
  /**
   * Held back until its customer (an invoice), invoice (a payment) or payment (a refund) is at the
   * provider (migrations 0047, 0062).
   */
  waiting_for: Generated<'customer' | 'invoice' | 'payment' | null>;
  /** A returned payment taken back at the provider (migration 0046). */
  voided_at: Generated<Date | null>;
}

export interface IntegrationLogTable {
  business_id: string;
  provider: IntegrationProvider;
  id: string;
  direction: SyncDirection;
  record_type: SyncRecordType | null;
  record_id: string | null;
  record_label: string;
  remote_id: string | null;
  outcome: SyncOutcome;
  message: string | null;
  created_at: Generated<Date>;
}
