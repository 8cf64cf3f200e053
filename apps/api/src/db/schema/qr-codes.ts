import type { Generated } from 'kysely';
import type { QrAmountMode, QrAsk, QrCodeStatus } from '@tay/contract';

/** QR codes (migration 0031, ADR 034). */
export interface QrCodesTable {
  business_id: string;
  id: string;
  /** What the printed code encodes (PUBLIC_URL/pay/qr/<token>); public, never the id. */
  token: string;
  label: string;
  amount_mode: QrAmountMode;
  amount_cents: number | null;
  min_amount_cents: number | null;
  max_amount_cents: number | null;
  memo: Generated<string>;
  ask_name: Generated<QrAsk>;
  ask_email: Generated<QrAsk>;
  ask_phone: Generated<QrAsk>;
  ask_note: Generated<QrAsk>;
  /** 'YYYY-MM-DD', the last day it takes payments. */
  expires_on: string | null;
  status: Generated<QrCodeStatus>;
  scans: Generated<number>;
  payments_count: Generated<number>;
  collected_cents: Generated<number>;
  last_payment_at: Date | null;
  created_by: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}
