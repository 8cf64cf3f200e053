import type { Generated } from 'kysely';

export interface MailOutboxTable {
  id: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  transport: 'outbox' | 'smtp';
  /** stored: kept in the outbox (no SMTP); queued → sent | failed: SMTP delivery. */
  status: 'stored' | 'queued' | 'sent' | 'failed';
  attempts: Generated<number>;
  last_error: string | null;
  sent_at: Date | null;
  created_at: Generated<Date>;
  /** The request to pay the message was about (its link, a reminder, a receipt), if any (migration 0019). */
  business_id: Generated<string | null>;
  request_id: Generated<string | null>;
}
