import type { ColumnType, Generated } from 'kysely';
import type { InvoiceState, InvoiceTerms } from '@tay/contract';

/** `date` columns are 'YYYY-MM-DD' strings both ways (see db/database.ts). */
type DateColumn = string;

/** A line as stored: its amounts in whole units (thousandths, cents) and its figures. */
export interface StoredInvoiceLine {
  description: string;
  quantityMilli: number;
  unitPriceCents: number;
  taxRateMilli: number;
  amountCents: number;
  discountCents: number;
  taxCents: number;
}

export type StoredInvoiceDiscount = { type: 'none' } | { type: 'amount'; amountCents: number } | { type: 'percent'; percentMilli: number };

type Json<T> = ColumnType<T, string, string>;

/** Invoices (migration 0030, ADR 033). */
export interface InvoicesTable {
  business_id: string;
  id: string;
  number: number;
  state: Generated<InvoiceState>;
  payer_id: string;
  payer_display_name: string;
  payer_email: string;
  channel: Generated<'email' | 'sms'>;
  issue_date: DateColumn;
  terms: InvoiceTerms;
  due_date: DateColumn;
  items: Json<StoredInvoiceLine[]>;
  discount: Json<StoredInvoiceDiscount>;
  subtotal_cents: number;
  discount_cents: number;
  tax_cents: number;
  total_cents: number;
  amount_paid_cents: Generated<number>;
  memo: Generated<string>;
  footer: Generated<string>;
  allow_partial: Generated<boolean>;
  request_id: string | null;
  send_at: Date | null;
  sent_at: Date | null;
  paid_at: Date | null;
  created_by: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface InvoiceEventsTable {
  business_id: string;
  invoice_id: string;
  id: Generated<number>;
  actor_type: 'user' | 'payer' | 'system' | 'operations';
  actor_id: string | null;
  actor_label: string;
  event: string;
  detail: string | null;
  ip_address: string | null;
  created_at: Generated<Date>;
}
