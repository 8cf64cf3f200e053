-- Which request an e-mail was about (issue 5: e-mails must not stop going out unnoticed): the
-- request's detail lists the e-mails sent for it with their delivery — in the outbox, sending,
-- delivered, retrying after a failure, or given up — and the reason of the last failure.
ALTER TABLE mail_outbox ADD COLUMN business_id text, ADD COLUMN request_id text;
CREATE INDEX mail_outbox_request_idx ON mail_outbox (business_id, request_id, created_at DESC) WHERE request_id IS NOT NULL;
