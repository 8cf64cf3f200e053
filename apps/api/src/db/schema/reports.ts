import type { Generated } from 'kysely';
import type { RequestState } from '@tay/contract';

/** `date` columns are 'YYYY-MM-DD' strings both ways (see db/database.ts). */
type DateColumn = string;

/**
 * The billing reports' rollup (migration 0042, ADR 039): one row per business and local calendar
 * day, kept by triggers in the same transaction as the money moves. Figures as the contract
 * defines them (packages/contract/src/reports/schemas.ts).
 */
export interface ReportDaysTable {
  business_id: string;
  /** The business's calendar day ('YYYY-MM-DD' in its time zone). */
  day: DateColumn;
  billed_count: Generated<number>;
  billed_cents: Generated<number>;
  collected_count: Generated<number>;
  collected_cents: Generated<number>;
  card_count: Generated<number>;
  card_cents: Generated<number>;
  bank_count: Generated<number>;
  bank_cents: Generated<number>;
  request_count: Generated<number>;
  request_cents: Generated<number>;
  invoice_count: Generated<number>;
  invoice_cents: Generated<number>;
  qr_count: Generated<number>;
  qr_cents: Generated<number>;
  student_count: Generated<number>;
  student_cents: Generated<number>;
  patient_count: Generated<number>;
  patient_cents: Generated<number>;
  returned_count: Generated<number>;
  returned_cents: Generated<number>;
  /** Refunds that succeeded that day (migration 0059, ADR 051). */
  refunded_count: Generated<number>;
  refunded_cents: Generated<number>;
  /** Disputes opened that day, less what won disputes gave back that day (migration 0063, ADR 051). */
  disputed_count: Generated<number>;
  disputed_cents: Generated<number>;
  /** Fees of the payments collected that day, less fees given back on the day's returns and refunds. */
  fee_cents: Generated<number>;
  /** What the requests billed that day still owe now. */
  outstanding_cents: Generated<number>;
  /** Requests fully paid that day, and how many of them on or before their due date. */
  paid_count: Generated<number>;
  paid_on_time_count: Generated<number>;
}

/** Requests billed each local day by their state now. */
export interface ReportDayStatesTable {
  business_id: string;
  day: DateColumn;
  state: RequestState;
  n: number;
  cents: number;
}

/** Money collected each local month by payer, net of that month's returns. */
export interface ReportPayerMonthsTable {
  business_id: string;
  /** The month's first day ('YYYY-MM-01'). */
  month: DateColumn;
  /** The payer's id, or for a walk-in QR code payer with no record the e-mail and name given. */
  payer_key: string;
  payer_id: string | null;
  name: string;
  email: string;
  n: number;
  cents: number;
}
