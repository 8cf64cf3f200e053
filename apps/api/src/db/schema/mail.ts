import type { ColumnType, Generated } from 'kysely';

export interface MailOutboxTable {
  id: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  /** `sms-api`: a text message for the SMS provider's HTTP API (migration 0020). */
  transport: 'outbox' | 'smtp' | 'sms-api';
  /** An e-mail, or a text message: `to_address` is then a mobile number and `subject` is empty. */
  channel: Generated<'email' | 'sms'>;
  /** stored: kept in the outbox (no SMTP / SMS provider); queued → sent | failed: delivery. */
  status: 'stored' | 'queued' | 'sent' | 'failed';
  attempts: Generated<number>;
  last_error: string | null;
  sent_at: Date | null;
  created_at: Generated<Date>;
  /** The request to pay the message was about (its link, a reminder, a receipt), if any (migration 0019). */
  business_id: Generated<string | null>;
  request_id: Generated<string | null>;
  /** Files sent with an e-mail (migration 0030): content in base64. */
  /** Each file's bytes (base64), or the recipe the delivery job makes them from (`render`). */
  attachments: ColumnType<
    ({ filename: string; contentType: string } & ({ content: string } | { render: { kind: string; [field: string]: unknown } }))[] | null,
    string | undefined,
    string | null
  >;
}
