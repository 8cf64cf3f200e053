import type { ColumnType, Generated } from 'kysely';

/** The QuickBooks Online and FreshBooks stand-ins' state (migration 0044, `apps/api/src/accounting/standin-store.ts`). */
export interface StandInAccountingCompaniesTable {
  /** QuickBooks realm id / FreshBooks account id. */
  id: string;
  provider: 'quickbooks' | 'freshbooks';
  name: string;
  /** `name` trimmed and lower-cased: the same name is the same company. */
  name_key: string;
  refuse_tokens: Generated<boolean>;
  rate_limited_calls: Generated<number>;
  retry_after_seconds: Generated<number>;
  fail_record_match: string | null;
  fail_record_message: string | null;
  expire_codes: Generated<boolean>;
  next_record_id: Generated<number>;
  created_at: Generated<Date>;
}

export interface StandInAccountingCodesTable {
  code_hash: string;
  company_id: string;
  grant_id: string;
  client_id: string;
  redirect_uri: string;
  code_challenge: string | null;
  expires_at: Date;
  used_at: Date | null;
  created_at: Generated<Date>;
}

export interface StandInAccountingTokensTable {
  token_hash: string;
  kind: 'access' | 'refresh';
  company_id: string;
  grant_id: string;
  expires_at: Date | null;
  revoked_at: Date | null;
  created_at: Generated<Date>;
}

export interface StandInAccountingRecordsTable {
  company_id: string;
  /** `refund`: a QuickBooks refund receipt, a FreshBooks credit note (migration 0062). */
  type: 'customer' | 'invoice' | 'payment' | 'refund';
  id: string;
  version: Generated<number>;
  body: ColumnType<Record<string, unknown>, string, string>;
  name_key: string | null;
  /** QuickBooks' `requestid` of the create that made it (an idempotent create). */
  request_id: Generated<string | null>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** The stand-ins' tables, as `DB` (`./index.ts`) lists them. */
export interface AccountingStandInTables {
  standin_accounting_companies: StandInAccountingCompaniesTable;
  standin_accounting_codes: StandInAccountingCodesTable;
  standin_accounting_tokens: StandInAccountingTokensTable;
  standin_accounting_records: StandInAccountingRecordsTable;
}
