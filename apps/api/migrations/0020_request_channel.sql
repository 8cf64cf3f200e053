-- How a request's link, resends and reminders go to the payer: by e-mail or by text message to
-- the payer's mobile number (domain.md; ADR 020). Text messages share the outbox with e-mails,
-- so a request's detail lists both with their delivery, and the same job retries both.
ALTER TABLE payment_requests ADD COLUMN channel text NOT NULL DEFAULT 'email' CHECK (channel IN ('email', 'sms'));
ALTER TABLE mail_outbox ADD COLUMN channel text NOT NULL DEFAULT 'email' CHECK (channel IN ('email', 'sms'));
ALTER TABLE mail_outbox DROP CONSTRAINT mail_outbox_transport_check;
ALTER TABLE mail_outbox ADD CONSTRAINT mail_outbox_transport_check CHECK (transport IN ('outbox', 'smtp', 'sms-api'));
