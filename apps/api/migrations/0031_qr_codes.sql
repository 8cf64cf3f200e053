-- QR codes (issue 19, ADR 034): printable codes that take payments. Each payment through a code
-- is a payment request of its own, tagged with the code, so the history, ledger and reports see it
-- like any other request.
CREATE TABLE qr_codes (
  business_id text NOT NULL REFERENCES businesses (id),
  id text NOT NULL,
  -- What the printed code encodes (PUBLIC_URL/pay/qr/<token>): random, unguessable, never the id.
  -- It is public by design (it is printed on posters), so it is stored as it is.
  token text NOT NULL CHECK (token ~ '^[A-Za-z0-9_-]{22,64}$'),
  label text NOT NULL CHECK (length(label) BETWEEN 1 AND 100),
  amount_mode text NOT NULL CHECK (amount_mode IN ('fixed', 'open')),
  amount_cents bigint CHECK (amount_cents > 0 AND amount_cents <= 1000000000),
  min_amount_cents bigint CHECK (min_amount_cents > 0 AND min_amount_cents <= 1000000000),
  max_amount_cents bigint CHECK (max_amount_cents > 0 AND max_amount_cents <= 1000000000),
  memo text NOT NULL DEFAULT '',
  -- What the payer's page asks for: off, optional or required.
  ask_name text NOT NULL DEFAULT 'optional' CHECK (ask_name IN ('off', 'optional', 'required')),
  ask_email text NOT NULL DEFAULT 'optional' CHECK (ask_email IN ('off', 'optional', 'required')),
  ask_phone text NOT NULL DEFAULT 'off' CHECK (ask_phone IN ('off', 'optional', 'required')),
  ask_note text NOT NULL DEFAULT 'off' CHECK (ask_note IN ('off', 'optional', 'required')),
  -- The last calendar day (the business's time zone) it takes payments.
  expires_on date,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'Disabled')),
  -- Visits to its page (once per visit: see countQrScan), payments and money taken: kept by the
  -- page and by the trigger below, so the list reads them without counting requests.
  scans bigint NOT NULL DEFAULT 0,
  payments_count bigint NOT NULL DEFAULT 0,
  collected_cents bigint NOT NULL DEFAULT 0,
  last_payment_at timestamptz,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (business_id, id),
  CHECK ((amount_mode = 'fixed' AND amount_cents IS NOT NULL AND min_amount_cents IS NULL AND max_amount_cents IS NULL)
      OR (amount_mode = 'open' AND amount_cents IS NULL)),
  CHECK (min_amount_cents IS NULL OR max_amount_cents IS NULL OR min_amount_cents <= max_amount_cents)
);
CREATE UNIQUE INDEX qr_codes_token_key ON qr_codes (token);
CREATE INDEX qr_codes_created_idx ON qr_codes (business_id, created_at DESC, id DESC);

-- A request made by a payment through a code: the code, its label then, and what the payer
-- gave. Such a request may have no payer record (a walk-in payer who gave no e-mail).
ALTER TABLE payment_requests ADD COLUMN qr_code_id text;
ALTER TABLE payment_requests ADD COLUMN qr_code_label text;
ALTER TABLE payment_requests ADD COLUMN payer_phone text;
ALTER TABLE payment_requests ADD COLUMN payer_note text;
ALTER TABLE payment_requests ALTER COLUMN payer_id DROP NOT NULL;
ALTER TABLE payment_requests ADD CONSTRAINT payment_requests_payer_or_qr CHECK (payer_id IS NOT NULL OR qr_code_id IS NOT NULL);
ALTER TABLE payment_requests ADD CONSTRAINT payment_requests_qr_code_fkey FOREIGN KEY (business_id, qr_code_id) REFERENCES qr_codes (business_id, id);
CREATE INDEX payment_requests_qr_idx ON payment_requests (business_id, qr_code_id, created_at DESC, id DESC) WHERE qr_code_id IS NOT NULL;

-- The code's payments and total follow its requests' paid amounts: a payment counts once, when
-- its request first has money paid; a bank return takes it back.
CREATE FUNCTION qr_codes_follow_request() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  before_paid bigint := CASE WHEN TG_OP = 'INSERT' THEN 0 ELSE OLD.amount_paid_cents END;
BEGIN
  IF NEW.amount_paid_cents = before_paid THEN RETURN NULL; END IF;
  UPDATE qr_codes q SET
    collected_cents = q.collected_cents + (NEW.amount_paid_cents - before_paid),
    payments_count = q.payments_count
      + CASE WHEN before_paid = 0 AND NEW.amount_paid_cents > 0 THEN 1
             WHEN before_paid > 0 AND NEW.amount_paid_cents = 0 THEN -1 ELSE 0 END,
    last_payment_at = CASE WHEN NEW.amount_paid_cents > before_paid THEN now() ELSE q.last_payment_at END
  WHERE q.business_id = NEW.business_id AND q.id = NEW.qr_code_id;
  RETURN NULL;
END
$$;

CREATE TRIGGER qr_codes_follow_request AFTER INSERT OR UPDATE OF amount_paid_cents ON payment_requests
  FOR EACH ROW WHEN (NEW.qr_code_id IS NOT NULL) EXECUTE FUNCTION qr_codes_follow_request();

-- The history's item gains the QR code; a request with no payer record says so with null.
CREATE OR REPLACE FUNCTION payment_requests_list_item() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.list_item := '{"transactionId":' || to_json(NEW.id)::text
    || ',"referenceNumber":"TRX-' || NEW.number || '"'
    || ',"transactionState":' || to_json(NEW.state)::text
    || ',"payerId":' || coalesce(to_json(NEW.payer_id)::text, 'null')
    || ',"payerName":' || to_json(NEW.payer_display_name)::text
    || ',"payerEmail":' || to_json(NEW.payer_email)::text
    || ',"amountCents":' || NEW.amount_cents
    || ',"amountPaidCents":' || NEW.amount_paid_cents
    || ',"memo":' || to_json(NEW.memo)::text
    || ',"reference":' || to_json(NEW.reference)::text
    || ',"dueDate":"' || to_char(NEW.due_date, 'YYYY-MM-DD') || '"'
    || ',"expiresOn":"' || to_char(NEW.expires_on, 'YYYY-MM-DD') || '"'
    || ',"allowPartial":' || CASE WHEN NEW.allow_partial THEN 'true' ELSE 'false' END
    || ',"sendAt":' || coalesce('"' || to_char(NEW.send_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"', 'null')
    || ',"sentAt":' || coalesce('"' || to_char(NEW.sent_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"', 'null')
    || ',"paidAt":' || coalesce('"' || to_char(NEW.paid_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"', 'null')
    || ',"createdAt":"' || to_char(NEW.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"'
    || ',"updatedAt":"' || to_char(NEW.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"'
    || ',"invoiceId":' || coalesce(to_json(NEW.invoice_id)::text, 'null')
    || ',"invoiceNumber":' || coalesce('"INV-' || CASE WHEN NEW.invoice_number < 1000 THEN lpad(NEW.invoice_number::text, 4, '0') ELSE NEW.invoice_number::text END || '"', 'null')
    || ',"qrCodeId":' || coalesce(to_json(NEW.qr_code_id)::text, 'null')
    || ',"qrCodeLabel":' || coalesce(to_json(NEW.qr_code_label)::text, 'null');
  RETURN NEW;
END
$$;

UPDATE payment_requests SET list_item = NULL;
