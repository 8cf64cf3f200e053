-- Requests have a source (ADR 045). A request is made for something: itself (a single request or
-- a bulk batch's row), an invoice, a payment through a QR code, a student's charge, a patient's
-- statement. Until now each of those added columns of its own to payment_requests (0029-0040)
-- and rewrote the history item's trigger in full each time. From here a request carries:
--   source_kind   which kind of thing it is for (a row of request_source_kinds);
--   source_id     the id of that thing's own record, where it has one (the invoice, the QR code,
--                 the student, the patient), for the history's filters;
--   source_number that thing's own number, where it has one (the invoice's 42 of INV-0042), for
--                 the searches;
--   source        the source's record as JSON: under "list" exactly the fields the request's
--                 history item shows for it (in the API's names and form), beside them what the
--                 source keeps for its own e-mails and pages. Each kind's shape is checked by its
--                 definition in the API (apps/api/src/domain/request-sources).
-- A new kind of source is a row of request_source_kinds (its list keys) and a definition in the
-- API: the item's trigger below, the core's columns and its code stay as they are.

CREATE TABLE request_source_kinds (
  kind text PRIMARY KEY,
  -- Where its keys come in the history item, after the request's own fields.
  position integer NOT NULL UNIQUE,
  -- The keys its requests add to the history item (from source -> 'list'); null on every other request.
  list_keys text[] NOT NULL DEFAULT '{}',
  -- The other kinds' keys, as the item's text with null values, before and after this kind's
  -- (kept by the trigger below, so a row's item needs one look-up of its own kind).
  nulls_before text NOT NULL DEFAULT '',
  nulls_after text NOT NULL DEFAULT ''
);

CREATE FUNCTION request_source_kinds_layout() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE request_source_kinds k SET
    nulls_before = coalesce((SELECT string_agg(',' || to_json(u.key)::text || ':null', '' ORDER BY o.position, u.n)
      FROM request_source_kinds o, unnest(o.list_keys) WITH ORDINALITY AS u (key, n) WHERE o.position < k.position), ''),
    nulls_after = coalesce((SELECT string_agg(',' || to_json(u.key)::text || ':null', '' ORDER BY o.position, u.n)
      FROM request_source_kinds o, unnest(o.list_keys) WITH ORDINALITY AS u (key, n) WHERE o.position > k.position), '');
  RETURN NULL;
END
$$;
CREATE TRIGGER request_source_kinds_layout AFTER INSERT OR DELETE OR UPDATE OF position, list_keys ON request_source_kinds
  FOR EACH STATEMENT EXECUTE FUNCTION request_source_kinds_layout();

INSERT INTO request_source_kinds (kind, position, list_keys) VALUES
  ('request', 0, '{}'),
  ('invoice', 1, '{invoiceId,invoiceNumber}'),
  ('qr', 2, '{qrCodeId,qrCodeLabel}'),
  ('student', 3, '{student,program,period}'),
  ('patient', 4, '{clientId,patientName,statement}');

-- A known kind is checked by the item's trigger below, which reads the kind's row anyway.
ALTER TABLE payment_requests ADD COLUMN source_kind text NOT NULL DEFAULT 'request';
ALTER TABLE payment_requests ADD COLUMN source_id text;
ALTER TABLE payment_requests ADD COLUMN source_number bigint;
ALTER TABLE payment_requests ADD COLUMN source jsonb NOT NULL DEFAULT '{"list": {}}'
  CHECK (jsonb_typeof(source) = 'object' AND jsonb_typeof(source -> 'list') = 'object');

-- The rows as they are, moved into their sources. Only the new columns change, so the counts,
-- reports and change notices kept by the table's triggers have nothing to do: they are off for it.
ALTER TABLE payment_requests DISABLE TRIGGER USER;

UPDATE payment_requests SET source_kind = 'invoice', source_id = invoice_id, source_number = invoice_number,
  source = jsonb_build_object('list', jsonb_build_object(
    'invoiceId', invoice_id,
    'invoiceNumber', 'INV-' || CASE WHEN invoice_number < 1000 THEN lpad(invoice_number::text, 4, '0') ELSE invoice_number::text END))
WHERE invoice_id IS NOT NULL;

UPDATE payment_requests SET source_kind = 'qr', source_id = qr_code_id,
  source = jsonb_build_object('list', jsonb_build_object('qrCodeId', qr_code_id, 'qrCodeLabel', qr_code_label),
    'payerPhone', payer_phone, 'payerNote', payer_note)
WHERE qr_code_id IS NOT NULL;

UPDATE payment_requests SET source_kind = 'student', source_id = student_id,
  source = jsonb_build_object('list', jsonb_build_object(
      'student', jsonb_build_object('studentId', student_id, 'name', coalesce(student_name, '')),
      'program', CASE WHEN program_id IS NULL THEN NULL ELSE jsonb_build_object('programId', program_id, 'name', coalesce(program_name, '')) END,
      'period', period),
    'periodStart', to_char(period_start, 'YYYY-MM-DD'),
    'copyPayerId', copy_payer_id)
WHERE student_id IS NOT NULL;

UPDATE payment_requests SET source_kind = 'patient', source_id = patient_id,
  source = jsonb_build_object('list', jsonb_build_object(
      'clientId', patient_id,
      'patientName', patient_name,
      'statement', CASE WHEN date_of_service IS NULL OR statement_lines IS NULL THEN NULL ELSE jsonb_build_object(
        'dateOfService', to_char(date_of_service, 'YYYY-MM-DD'),
        'lines', coalesce((
          SELECT jsonb_agg(jsonb_build_object(
            'serviceDate', l ->> 'serviceDate', 'description', l ->> 'description',
            'billedCents', (l ->> 'billedCents')::bigint, 'insurancePaidCents', (l ->> 'insurancePaidCents')::bigint,
            'adjustmentCents', (l ->> 'adjustmentCents')::bigint, 'responsibilityCents', (l ->> 'responsibilityCents')::bigint) ORDER BY n)
          FROM jsonb_array_elements(statement_lines) WITH ORDINALITY AS e (l, n)), '[]'::jsonb),
        'totals', (
          SELECT jsonb_build_object(
            'billedCents', coalesce(sum((l ->> 'billedCents')::bigint), 0),
            'insurancePaidCents', coalesce(sum((l ->> 'insurancePaidCents')::bigint), 0),
            'adjustmentCents', coalesce(sum((l ->> 'adjustmentCents')::bigint), 0),
            'responsibilityCents', coalesce(sum((l ->> 'responsibilityCents')::bigint), 0))
          FROM jsonb_array_elements(statement_lines) AS e (l))) END),
    'patientFirstName', patient_first_name)
WHERE patient_id IS NOT NULL;

ALTER TABLE payment_requests ENABLE TRIGGER USER;

-- The invoice follows its request (0030), the QR code its payments (0031): now found by the source.
CREATE OR REPLACE FUNCTION invoices_follow_request() RETURNS trigger LANGUAGE plpgsql AS $$
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
  WHERE i.business_id = NEW.business_id AND i.id = NEW.source_id;
  RETURN NULL;
END
$$;
DROP TRIGGER invoices_follow_request ON payment_requests;
CREATE TRIGGER invoices_follow_request AFTER INSERT OR UPDATE OF state, amount_paid_cents, send_at, sent_at, paid_at ON payment_requests
  FOR EACH ROW WHEN (NEW.source_kind = 'invoice') EXECUTE FUNCTION invoices_follow_request();

CREATE OR REPLACE FUNCTION qr_codes_follow_request() RETURNS trigger LANGUAGE plpgsql AS $$
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
  WHERE q.business_id = NEW.business_id AND q.id = NEW.source_id;
  RETURN NULL;
END
$$;
DROP TRIGGER qr_codes_follow_request ON payment_requests;
CREATE TRIGGER qr_codes_follow_request AFTER INSERT OR UPDATE OF amount_paid_cents ON payment_requests
  FOR EACH ROW WHEN (NEW.source_kind = 'qr') EXECUTE FUNCTION qr_codes_follow_request();

-- The reports count a collection under its request's kind (0042): the source's kind.
CREATE OR REPLACE FUNCTION report_payment_deltas_sql(source text) RETURNS text LANGUAGE sql IMMUTABLE
  RETURN format($q$
    SELECT coalesce(jsonb_agg(g), '[]'::jsonb) FROM (
      SELECT p.business_id,
        (p.processed_at AT TIME ZONE b.time_zone)::date AS processed_day,
        (p.returned_at AT TIME ZONE b.time_zone)::date AS returned_day,
        p.method,
        r.source_kind AS kind,
        coalesce(r.payer_id, 'walk-in:' || lower(r.payer_email) || ':' || r.payer_display_name) AS payer_key,
        r.payer_id,
        r.payer_display_name AS name,
        r.payer_email AS email,
        sum(p.s) AS n,
        sum(p.s * p.amount_cents) AS cents,
        sum(p.s * p.fee_cents) AS fee
      FROM (%s) p
      JOIN businesses b ON b.id = p.business_id
      JOIN payment_requests r ON r.business_id = p.business_id AND r.id = p.request_id
      WHERE p.processed_at IS NOT NULL
      GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9
      HAVING sum(p.s) <> 0 OR sum(p.s * p.amount_cents) <> 0 OR sum(p.s * p.fee_cents) <> 0
    ) g $q$, source);

-- The history's item (0016): the request's own fields, then each source kind's keys in order —
-- the request's source's values, null for every other kind's. Written once: a new kind is a row
-- of request_source_kinds (and `UPDATE payment_requests SET list_item = NULL` if old rows are to
-- show its keys too). Fields in `toPaymentRequest`'s order and form (see 0016). A kind that is
-- not a row of request_source_kinds is refused.
CREATE OR REPLACE FUNCTION payment_requests_list_item() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  layout request_source_kinds%ROWTYPE;
  own text := '';
BEGIN
  SELECT * INTO layout FROM request_source_kinds WHERE kind = NEW.source_kind;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'unknown request source kind %', NEW.source_kind USING ERRCODE = 'check_violation';
  END IF;
  IF cardinality(layout.list_keys) > 0 THEN
    SELECT string_agg(',' || to_json(u.key)::text || ':' || coalesce(NEW.source -> 'list' -> u.key, 'null'::jsonb)::text, '' ORDER BY u.n)
      INTO own FROM unnest(layout.list_keys) WITH ORDINALITY AS u (key, n);
  END IF;
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
    || layout.nulls_before || coalesce(own, '') || layout.nulls_after;
  RETURN NEW;
END
$$;

-- What the old columns were for, now on the source: the filters' indexes and the searches'.
DROP INDEX payment_requests_qr_idx;
DROP INDEX payment_requests_student_idx;
DROP INDEX payment_requests_program_idx;
DROP INDEX payment_requests_period_idx;
DROP INDEX payment_requests_patient_idx;
DROP INDEX payment_requests_invoice_number_idx;
CREATE INDEX payment_requests_source_idx ON payment_requests (business_id, source_id, created_at DESC, id DESC) WHERE source_id IS NOT NULL;
CREATE INDEX payment_requests_source_kind_idx ON payment_requests (business_id, source_kind, created_at DESC, id DESC) WHERE source_kind <> 'request';
CREATE INDEX payment_requests_source_number_idx ON payment_requests (business_id, source_number) WHERE source_number IS NOT NULL;
-- The student source's program and period filters (the billing history).
CREATE INDEX payment_requests_student_program_idx ON payment_requests (business_id, (source #>> '{list,program,programId}'), created_at DESC, id DESC)
  WHERE source_kind = 'student';
CREATE INDEX payment_requests_student_period_idx ON payment_requests (business_id, (source #>> '{list,period}'), created_at DESC, id DESC)
  WHERE source_kind = 'student';

ALTER TABLE payment_requests DROP CONSTRAINT payment_requests_payer_or_qr;
ALTER TABLE payment_requests ADD CONSTRAINT payment_requests_payer_or_qr CHECK (payer_id IS NOT NULL OR source_kind = 'qr');
ALTER TABLE payment_requests DROP CONSTRAINT payment_requests_qr_code_fkey;
-- Each source with a record of its own names it; a request for itself names nothing.
ALTER TABLE payment_requests ADD CONSTRAINT payment_requests_source_record CHECK ((source_kind = 'request') = (source_id IS NULL));

ALTER TABLE payment_requests
  DROP COLUMN invoice_id,
  DROP COLUMN invoice_number,
  DROP COLUMN qr_code_id,
  DROP COLUMN qr_code_label,
  DROP COLUMN payer_phone,
  DROP COLUMN payer_note,
  DROP COLUMN student_id,
  DROP COLUMN student_name,
  DROP COLUMN program_id,
  DROP COLUMN program_name,
  DROP COLUMN period,
  DROP COLUMN period_start,
  DROP COLUMN copy_payer_id,
  DROP COLUMN patient_id,
  DROP COLUMN patient_name,
  DROP COLUMN patient_first_name,
  DROP COLUMN date_of_service,
  DROP COLUMN statement_lines;

UPDATE payment_requests SET list_item = NULL;
