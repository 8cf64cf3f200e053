-- E-mail outbox: every message the product sends is recorded here. Without SMTP_URL this is
-- the only delivery (readable at /dev/mail); with SMTP it is the delivery log.
CREATE TABLE mail_outbox (
  id text PRIMARY KEY,
  to_address text NOT NULL,
  subject text NOT NULL,
  text_body text NOT NULL,
  html_body text,
  transport text NOT NULL CHECK (transport IN ('outbox', 'smtp')),
  status text NOT NULL CHECK (status IN ('stored', 'queued', 'sent', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  sent_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mail_outbox_to_created_idx ON mail_outbox (lower(to_address), created_at DESC);
CREATE INDEX mail_outbox_created_idx ON mail_outbox (created_at DESC);
