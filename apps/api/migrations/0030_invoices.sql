-- Invoices (ADR 033): itemised bills numbered INV-0001… per business. A draft is only the
-- invoice; sending (or scheduling) it makes one payment request for its total, which the payer
-- pays on the same hosted page as any request. The invoice's state, amount paid and times follow
-- that request's, kept by the trigger below in the same statement as the request's own change,
-- whatever changed it (a payment, the expiry sweep, a resend from the history).

CREATE TABLE invoices (
  business_id text NOT NULL REFERENCES businesses (id),
  id text NOT NULL,
  number integer NOT NULL,
  state text NOT NULL DEFAULT 'Draft' CHECK (state IN ('Draft', 'Scheduled', 'Sent', 'Resent', 'PartiallyPaid', 'Paid', 'Rejected', 'Expired', 'Withdrawn', 'Cancelled')),
  payer_id text NOT NULL,
  payer_display_name text NOT NULL,
  payer_email text NOT NULL,
  channel text NOT NULL DEFAULT 'email' CHECK (channel IN ('email', 'sms')),
  issue_date date NOT NULL,
  terms text NOT NULL CHECK (terms IN ('due_on_receipt', 'net7', 'net15', 'net30', 'net60', 'custom')),
  due_date date NOT NULL,
  -- The lines with their figures: description, quantityMilli, unitPriceCents, taxRateMilli,
  -- amountCents, discountCents, taxCents (packages/contract/src/invoices/totals.ts).
  items jsonb NOT NULL,
  -- {"type":"none"} | {"type":"amount","amountCents":…} | {"type":"percent","percentMilli":…}
  discount jsonb NOT NULL,
  subtotal_cents bigint NOT NULL,
  discount_cents bigint NOT NULL,
  tax_cents bigint NOT NULL,
  total_cents bigint NOT NULL CHECK (total_cents = subtotal_cents - discount_cents + tax_cents),
  amount_paid_cents bigint NOT NULL DEFAULT 0,
  memo text NOT NULL DEFAULT '',
  footer text NOT NULL DEFAULT '',
  allow_partial boolean NOT NULL DEFAULT false,
  -- The payment request that collects it, from its send (or schedule) on.
  request_id text,
  send_at timestamptz,
  sent_at timestamptz,
  paid_at timestamptz,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (business_id, id),
  UNIQUE (business_id, number),
  FOREIGN KEY (business_id, payer_id) REFERENCES payers (business_id, id)
);
CREATE INDEX invoices_issue_idx ON invoices (business_id, issue_date DESC, number DESC);
CREATE INDEX invoices_due_idx ON invoices (business_id, due_date, number) WHERE state IN ('Sent', 'Resent', 'PartiallyPaid');
CREATE INDEX invoices_payer_idx ON invoices (business_id, payer_id, number DESC);
CREATE INDEX invoices_state_idx ON invoices (business_id, state, number DESC);
CREATE UNIQUE INDEX invoices_request_idx ON invoices (business_id, request_id) WHERE request_id IS NOT NULL;

-- What happened to an invoice before (and beside) its payment request: created, edited,
-- scheduled. Once sent, the request's timeline holds the rest; the detail shows both.
CREATE TABLE invoice_events (
  business_id text NOT NULL,
  invoice_id text NOT NULL,
  id bigint GENERATED ALWAYS AS IDENTITY,
  actor_type text NOT NULL,
  actor_id text,
  actor_label text NOT NULL,
  event text NOT NULL,
  detail text,
  ip_address text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (business_id, invoice_id, id),
  FOREIGN KEY (business_id, invoice_id) REFERENCES invoices (business_id, id) ON DELETE CASCADE
);

-- The request an invoice made carries it: the history's rows show its number (spec §3).
ALTER TABLE payment_requests ADD COLUMN invoice_id text;
ALTER TABLE payment_requests ADD COLUMN invoice_number integer;

-- A message can carry files (an invoice's PDF): [{"filename","contentType","content" (base64)}].
ALTER TABLE mail_outbox ADD COLUMN attachments jsonb;

-- The invoice follows its request. A payment in flight (Accepted) or a failed one (Error) leaves
-- it where it was, or PartiallyPaid once part of it is paid (invoiceStateFor in the contract).
CREATE FUNCTION invoices_follow_request() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE invoices i SET
    state = CASE
      WHEN NEW.state = 'Pending' THEN 'Scheduled'
      WHEN NEW.state IN ('Sent', 'Resent', 'Paid', 'PartiallyPaid', 'Rejected', 'Expired', 'Withdrawn', 'Cancelled') THEN NEW.state
      WHEN NEW.amount_paid_cents > 0 AND NEW.amount_paid_cents < NEW.amount_cents THEN 'PartiallyPaid'
      WHEN i.state IN ('Draft', 'Scheduled') THEN 'Sent'
      ELSE i.state
    END,
    amount_paid_cents = NEW.amount_paid_cents,
    send_at = NEW.send_at,
    sent_at = NEW.sent_at,
    paid_at = NEW.paid_at,
    updated_at = now()
  WHERE i.business_id = NEW.business_id AND i.id = NEW.invoice_id;
  RETURN NULL;
END
$$;

CREATE TRIGGER invoices_follow_request AFTER INSERT OR UPDATE OF state, amount_paid_cents, send_at, sent_at, paid_at ON payment_requests
  FOR EACH ROW WHEN (NEW.invoice_id IS NOT NULL) EXECUTE FUNCTION invoices_follow_request();

-- The history's item gains the invoice (fields in toPaymentRequest's order; see 0016).
CREATE OR REPLACE FUNCTION payment_requests_list_item() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.list_item := '{"transactionId":' || to_json(NEW.id)::text
    || ',"referenceNumber":"TRX-' || NEW.number || '"'
    || ',"transactionState":' || to_json(NEW.state)::text
    || ',"payerId":' || to_json(NEW.payer_id)::text
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
    || ',"invoiceNumber":' || coalesce('"INV-' || CASE WHEN NEW.invoice_number < 1000 THEN lpad(NEW.invoice_number::text, 4, '0') ELSE NEW.invoice_number::text END || '"', 'null');
  RETURN NEW;
END
$$;

-- Refill the stored items: each update runs the trigger.
UPDATE payment_requests SET list_item = NULL;
