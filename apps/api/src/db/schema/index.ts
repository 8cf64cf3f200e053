import type { BankAccountsTable, BusinessesTable, BusinessEventsTable, BusinessInvitationsTable, BusinessMembersTable, BusinessOwnersTable } from './business';
import type { AccountsTable, RateLimitsTable, SessionsTable, TwoFactorsTable, UserSecurityEventsTable, UsersTable, VerificationsTable } from './identity';
import type { MailOutboxTable } from './mail';
import type { BatchesTable, BatchFilesTable, BatchRowsTable } from './batches';
import type { InvoiceEventsTable, InvoicesTable } from './invoices';
import type { QrCodesTable } from './qr-codes';
import type {
  StandInAccountingCodesTable,
  StandInAccountingCompaniesTable,
  StandInAccountingRecordsTable,
  StandInAccountingTokensTable,
} from './accounting-standins';
import type { IntegrationLinksTable, IntegrationLogTable, IntegrationOauthStatesTable, IntegrationsTable } from './integrations';
import type { ReportDaysTable, ReportDayStatesTable, ReportPayerMonthsTable } from './reports';
import type {
  BillingCycleRunsTable,
  BillingCyclesTable,
  EnrollmentsTable,
  ProgramsTable,
  StudentChargesTable,
  StudentGuardiansTable,
  StudentsTable,
} from './students';
import type { PatientRecordViewsTable, PatientsTable } from './patients';
import type { EventCheckInsTable, EventsTable, PayoutEventsTable, PayoutsTable, ReceiversTable, SandboxProcessorPayoutsTable } from './payouts';
import type {
  BusinessCountersTable,
  IdempotencyKeysTable,
  JournalEntriesTable,
  JournalTransactionsTable,
  LedgerAccountsTable,
  PayersTable,
  PaymentRequestEventsTable,
  PaymentRequestCountsTable,
  PaymentRequestDayCountsTable,
  PaymentRequestHistoryDaysTable,
  PaymentRequestHistoryHoursTable,
  PaymentRequestSearchCountsTable,
  PaymentRequestsTable,
  PaymentsTable,
  ProcessorEventsTable,
  RefundsTable,
  DisputesTable,
  DisputeEvidenceFilesTable,
  SandboxProcessorDisputesTable,
  SandboxProcessorChargesTable,
  SandboxProcessorRefundsTable,
  SandboxProcessorTokensTable,
  SandboxProcessorWebhooksTable,
} from './payments';

/** Every table the API queries through Kysely, one file per area. */
export interface DB {
  mail_outbox: MailOutboxTable;
  qr_codes: QrCodesTable;
  users: UsersTable;
  sessions: SessionsTable;
  accounts: AccountsTable;
  verifications: VerificationsTable;
  rate_limits: RateLimitsTable;
  two_factors: TwoFactorsTable;
  user_security_events: UserSecurityEventsTable;
  /** The API calls of each session or address in the current window (migration 0050, ADR 044): UNLOGGED. */
  request_budgets: RateLimitsTable;
  businesses: BusinessesTable;
  business_members: BusinessMembersTable;
  business_owners: BusinessOwnersTable;
  bank_accounts: BankAccountsTable;
  business_events: BusinessEventsTable;
  business_invitations: BusinessInvitationsTable;
  payers: PayersTable;
  business_counters: BusinessCountersTable;
  payment_requests: PaymentRequestsTable;
  payment_request_events: PaymentRequestEventsTable;
  payment_request_counts: PaymentRequestCountsTable;
  payment_request_day_counts: PaymentRequestDayCountsTable;
  payment_request_history_days: PaymentRequestHistoryDaysTable;
  payment_request_history_hours: PaymentRequestHistoryHoursTable;
  payment_request_search_counts: PaymentRequestSearchCountsTable;
  payments: PaymentsTable;
  ledger_accounts: LedgerAccountsTable;
  journal_transactions: JournalTransactionsTable;
  journal_entries: JournalEntriesTable;
  idempotency_keys: IdempotencyKeysTable;
  processor_events: ProcessorEventsTable;
  sandbox_processor_tokens: SandboxProcessorTokensTable;
  sandbox_processor_charges: SandboxProcessorChargesTable;
  sandbox_processor_refunds: SandboxProcessorRefundsTable;
  refunds: RefundsTable;
  disputes: DisputesTable;
  dispute_evidence_files: DisputeEvidenceFilesTable;
  sandbox_processor_disputes: SandboxProcessorDisputesTable;
  sandbox_processor_webhooks: SandboxProcessorWebhooksTable;
  batches: BatchesTable;
  batch_files: BatchFilesTable;
  batch_rows: BatchRowsTable;
  invoices: InvoicesTable;
  invoice_events: InvoiceEventsTable;
  receivers: ReceiversTable;
  events: EventsTable;
  event_check_ins: EventCheckInsTable;
  payouts: PayoutsTable;
  payout_events: PayoutEventsTable;
  sandbox_processor_payouts: SandboxProcessorPayoutsTable;
  students: StudentsTable;
  student_guardians: StudentGuardiansTable;
  programs: ProgramsTable;
  enrollments: EnrollmentsTable;
  billing_cycles: BillingCyclesTable;
  billing_cycle_runs: BillingCycleRunsTable;
  student_charges: StudentChargesTable;
  patients: PatientsTable;
  patient_record_views: PatientRecordViewsTable;
  report_days: ReportDaysTable;
  report_day_states: ReportDayStatesTable;
  report_payer_months: ReportPayerMonthsTable;
  integrations: IntegrationsTable;
  integration_oauth_states: IntegrationOauthStatesTable;
  integration_links: IntegrationLinksTable;
  integration_log: IntegrationLogTable;
  standin_accounting_companies: StandInAccountingCompaniesTable;
  standin_accounting_codes: StandInAccountingCodesTable;
  standin_accounting_tokens: StandInAccountingTokensTable;
  standin_accounting_records: StandInAccountingRecordsTable;
}
