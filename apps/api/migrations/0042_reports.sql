-- Billing reports (issue 23, ADR 039): per-business totals by the business's calendar day, kept by
-- statement-level triggers in the same transaction as the money moves, so a report over two years
-- reads a few hundred rows whatever the history's size. A day is the business's local date:
-- (instant AT TIME ZONE businesses.time_zone)::date, so a DST day holds 23 or 25 hours.
-- No request or payment may be written between the backfill below and the triggers that keep it.
LOCK TABLE payment_requests, payments IN SHARE ROW EXCLUSIVE MODE;

-- A request is billed on its first send: a resend moves sent_at, not the day it was billed.
-- Kept by the trigger below; an update may set it explicitly (a correction), otherwise it stays.
ALTER TABLE payment_requests ADD COLUMN first_sent_at timestamptz;

UPDATE payment_requests r SET first_sent_at = CASE
  WHEN EXISTS (SELECT 1 FROM payment_request_events e WHERE e.business_id = r.business_id AND e.request_id = r.id AND e.event = 'resend')
    THEN least(r.sent_at, (SELECT min(e.created_at) FROM payment_request_events e
                           WHERE e.business_id = r.business_id AND e.request_id = r.id AND e.to_state = 'Sent'))
  ELSE r.sent_at END
WHERE r.sent_at IS NOT NULL;

CREATE FUNCTION payment_requests_first_sent() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.first_sent_at IS NULL THEN NEW.first_sent_at := NEW.sent_at; END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER payment_requests_first_sent BEFORE INSERT OR UPDATE OF sent_at, first_sent_at ON payment_requests
  FOR EACH ROW EXECUTE FUNCTION payment_requests_first_sent();

-- A single day's report reads that day's raw rows by hour.
CREATE INDEX payment_requests_first_sent_idx ON payment_requests (business_id, first_sent_at) WHERE first_sent_at IS NOT NULL;
CREATE INDEX payments_processed_idx ON payments (business_id, processed_at) WHERE processed_at IS NOT NULL;

-- One row per business and local day with anything on it. Definitions (packages/contract/src/reports/schemas.ts):
-- billed = requests first sent that day; collected = payments processed that day (by method, by
-- what they paid); returned = payments returned that day; fee = fees of collected less fees of
-- returned; outstanding = what the requests billed that day still owe now; paid = requests fully
-- paid that day (state Paid), on time when that day is on or before their due date.
CREATE TABLE report_days (
  business_id text NOT NULL REFERENCES businesses (id),
  day date NOT NULL,
  billed_count bigint NOT NULL DEFAULT 0,
  billed_cents bigint NOT NULL DEFAULT 0,
  collected_count bigint NOT NULL DEFAULT 0,
  collected_cents bigint NOT NULL DEFAULT 0,
  card_count bigint NOT NULL DEFAULT 0,
  card_cents bigint NOT NULL DEFAULT 0,
  bank_count bigint NOT NULL DEFAULT 0,
  bank_cents bigint NOT NULL DEFAULT 0,
  request_count bigint NOT NULL DEFAULT 0,
  request_cents bigint NOT NULL DEFAULT 0,
  invoice_count bigint NOT NULL DEFAULT 0,
  invoice_cents bigint NOT NULL DEFAULT 0,
  qr_count bigint NOT NULL DEFAULT 0,
  qr_cents bigint NOT NULL DEFAULT 0,
  student_count bigint NOT NULL DEFAULT 0,
  student_cents bigint NOT NULL DEFAULT 0,
  patient_count bigint NOT NULL DEFAULT 0,
  patient_cents bigint NOT NULL DEFAULT 0,
  returned_count bigint NOT NULL DEFAULT 0,
  returned_cents bigint NOT NULL DEFAULT 0,
  fee_cents bigint NOT NULL DEFAULT 0,
  outstanding_cents bigint NOT NULL DEFAULT 0,
  paid_count bigint NOT NULL DEFAULT 0,
  paid_on_time_count bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (business_id, day)
);

-- Requests billed each local day by their state now: count and amount.
CREATE TABLE report_day_states (
  business_id text NOT NULL REFERENCES businesses (id),
  day date NOT NULL,
  state text NOT NULL,
  n bigint NOT NULL,
  cents bigint NOT NULL,
  PRIMARY KEY (business_id, day, state)
);

-- Money collected each local month by payer, net of returns that month. A payer with no record (a
-- walk-in QR code payer) is keyed by the e-mail and name given.
CREATE TABLE report_payer_months (
  business_id text NOT NULL REFERENCES businesses (id),
  month date NOT NULL,
  payer_key text NOT NULL,
  payer_id text,
  name text NOT NULL,
  email text NOT NULL,
  n bigint NOT NULL,
  cents bigint NOT NULL,
  PRIMARY KEY (business_id, month, payer_key)
);

-- Applies signed report_days rows (missing figures are 0). Rows are touched in key order, so two
-- transactions never wait on each other's rows in a cycle.
CREATE FUNCTION report_days_apply(deltas jsonb) RETURNS void LANGUAGE sql AS $$
  INSERT INTO report_days AS t (business_id, day, billed_count, billed_cents, collected_count, collected_cents,
    card_count, card_cents, bank_count, bank_cents, request_count, request_cents, invoice_count, invoice_cents,
    qr_count, qr_cents, student_count, student_cents, patient_count, patient_cents, returned_count, returned_cents,
    fee_cents, outstanding_cents, paid_count, paid_on_time_count)
  SELECT business_id, day,
    coalesce(sum(billed_count), 0), coalesce(sum(billed_cents), 0), coalesce(sum(collected_count), 0), coalesce(sum(collected_cents), 0),
    coalesce(sum(card_count), 0), coalesce(sum(card_cents), 0), coalesce(sum(bank_count), 0), coalesce(sum(bank_cents), 0),
    coalesce(sum(request_count), 0), coalesce(sum(request_cents), 0), coalesce(sum(invoice_count), 0), coalesce(sum(invoice_cents), 0),
    coalesce(sum(qr_count), 0), coalesce(sum(qr_cents), 0), coalesce(sum(student_count), 0), coalesce(sum(student_cents), 0),
    coalesce(sum(patient_count), 0), coalesce(sum(patient_cents), 0), coalesce(sum(returned_count), 0), coalesce(sum(returned_cents), 0),
    coalesce(sum(fee_cents), 0), coalesce(sum(outstanding_cents), 0), coalesce(sum(paid_count), 0), coalesce(sum(paid_on_time_count), 0)
  FROM jsonb_to_recordset(deltas) AS d(business_id text, day date, billed_count bigint, billed_cents bigint,
    collected_count bigint, collected_cents bigint, card_count bigint, card_cents bigint, bank_count bigint, bank_cents bigint,
    request_count bigint, request_cents bigint, invoice_count bigint, invoice_cents bigint, qr_count bigint, qr_cents bigint,
    student_count bigint, student_cents bigint, patient_count bigint, patient_cents bigint, returned_count bigint,
    returned_cents bigint, fee_cents bigint, outstanding_cents bigint, paid_count bigint, paid_on_time_count bigint)
  WHERE day IS NOT NULL
  GROUP BY business_id, day
  ORDER BY business_id, day
  ON CONFLICT (business_id, day) DO UPDATE SET
    billed_count = t.billed_count + EXCLUDED.billed_count,
    billed_cents = t.billed_cents + EXCLUDED.billed_cents,
    collected_count = t.collected_count + EXCLUDED.collected_count,
    collected_cents = t.collected_cents + EXCLUDED.collected_cents,
    card_count = t.card_count + EXCLUDED.card_count,
    card_cents = t.card_cents + EXCLUDED.card_cents,
    bank_count = t.bank_count + EXCLUDED.bank_count,
    bank_cents = t.bank_cents + EXCLUDED.bank_cents,
    request_count = t.request_count + EXCLUDED.request_count,
    request_cents = t.request_cents + EXCLUDED.request_cents,
    invoice_count = t.invoice_count + EXCLUDED.invoice_count,
    invoice_cents = t.invoice_cents + EXCLUDED.invoice_cents,
    qr_count = t.qr_count + EXCLUDED.qr_count,
    qr_cents = t.qr_cents + EXCLUDED.qr_cents,
    student_count = t.student_count + EXCLUDED.student_count,
    student_cents = t.student_cents + EXCLUDED.student_cents,
    patient_count = t.patient_count + EXCLUDED.patient_count,
    patient_cents = t.patient_cents + EXCLUDED.patient_cents,
    returned_count = t.returned_count + EXCLUDED.returned_count,
    returned_cents = t.returned_cents + EXCLUDED.returned_cents,
    fee_cents = t.fee_cents + EXCLUDED.fee_cents,
    outstanding_cents = t.outstanding_cents + EXCLUDED.outstanding_cents,
    paid_count = t.paid_count + EXCLUDED.paid_count,
    paid_on_time_count = t.paid_on_time_count + EXCLUDED.paid_on_time_count;
$$;

-- A request's signed contributions, grouped, from the rows `source` selects (columns `s`, the
-- sign, then the request's columns): billed, by state and outstanding on its first-sent day; paid
-- and on time on its paid day. Returns the SQL; the caller runs it where its rows are visible (a
-- trigger's transition tables are visible only to the trigger function's own statements).
CREATE FUNCTION report_request_deltas_sql(source text) RETURNS text LANGUAGE sql IMMUTABLE
  RETURN format($q$
    SELECT coalesce(jsonb_agg(g), '[]'::jsonb) FROM (
      SELECT r.business_id,
        (r.first_sent_at AT TIME ZONE b.time_zone)::date AS sent_day,
        r.state,
        CASE WHEN r.state = 'Paid' THEN (r.paid_at AT TIME ZONE b.time_zone)::date END AS paid_day,
        CASE WHEN r.state = 'Paid' THEN (r.paid_at AT TIME ZONE b.time_zone)::date <= r.due_date ELSE false END AS on_time,
        sum(r.s) AS n,
        sum(r.s * r.amount_cents) AS cents,
        sum(CASE WHEN r.state IN ('Sent', 'Resent', 'Accepted', 'PartiallyPaid', 'Error') THEN r.s * (r.amount_cents - r.amount_paid_cents) ELSE 0 END) AS owed
      FROM (%s) r JOIN businesses b ON b.id = r.business_id
      WHERE r.first_sent_at IS NOT NULL OR (r.state = 'Paid' AND r.paid_at IS NOT NULL)
      GROUP BY 1, 2, 3, 4, 5
      HAVING sum(r.s) <> 0 OR sum(r.s * r.amount_cents) <> 0
        OR sum(CASE WHEN r.state IN ('Sent', 'Resent', 'Accepted', 'PartiallyPaid', 'Error') THEN r.s * (r.amount_cents - r.amount_paid_cents) ELSE 0 END) <> 0
    ) g $q$, source);

CREATE FUNCTION report_request_apply(deltas jsonb) RETURNS void LANGUAGE sql AS $$
  SELECT report_days_apply(coalesce((
    SELECT jsonb_agg(x) FROM (
      SELECT jsonb_build_object('business_id', business_id, 'day', sent_day, 'billed_count', n, 'billed_cents', cents, 'outstanding_cents', owed) AS x
      FROM jsonb_to_recordset(deltas) AS d(business_id text, sent_day date, paid_day date, on_time boolean, n bigint, cents bigint, owed bigint)
      WHERE sent_day IS NOT NULL
      UNION ALL
      SELECT jsonb_build_object('business_id', business_id, 'day', paid_day, 'paid_count', n, 'paid_on_time_count', CASE WHEN on_time THEN n ELSE 0 END)
      FROM jsonb_to_recordset(deltas) AS d(business_id text, sent_day date, paid_day date, on_time boolean, n bigint, cents bigint, owed bigint)
      WHERE paid_day IS NOT NULL
    ) u), '[]'::jsonb));

  INSERT INTO report_day_states AS t (business_id, day, state, n, cents)
  SELECT business_id, sent_day, state, sum(n), sum(cents)
  FROM jsonb_to_recordset(deltas) AS d(business_id text, sent_day date, state text, n bigint, cents bigint)
  WHERE sent_day IS NOT NULL
  GROUP BY 1, 2, 3 HAVING sum(n) <> 0 OR sum(cents) <> 0
  ORDER BY 1, 2, 3
  ON CONFLICT (business_id, day, state) DO UPDATE SET n = t.n + EXCLUDED.n, cents = t.cents + EXCLUDED.cents;
$$;

-- A payment's signed contributions, grouped: collected (method, kind, fee, payer) on its local
-- processed day; returned (the fee given back, the payer's total taken back) on its returned day.
-- What it paid and who paid come from its request, which keeps them from its creation.
CREATE FUNCTION report_payment_deltas_sql(source text) RETURNS text LANGUAGE sql IMMUTABLE
  RETURN format($q$
    SELECT coalesce(jsonb_agg(g), '[]'::jsonb) FROM (
      SELECT p.business_id,
        (p.processed_at AT TIME ZONE b.time_zone)::date AS processed_day,
        (p.returned_at AT TIME ZONE b.time_zone)::date AS returned_day,
        p.method,
        CASE WHEN r.invoice_id IS NOT NULL THEN 'invoice' WHEN r.qr_code_id IS NOT NULL THEN 'qr'
             WHEN r.student_id IS NOT NULL THEN 'student' WHEN r.patient_id IS NOT NULL THEN 'patient' ELSE 'request' END AS kind,
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

CREATE FUNCTION report_payment_apply(deltas jsonb) RETURNS void LANGUAGE sql AS $$
  SELECT report_days_apply(coalesce((
    SELECT jsonb_agg(x) FROM (
      SELECT jsonb_build_object('business_id', business_id, 'day', processed_day,
          'collected_count', n, 'collected_cents', cents, 'fee_cents', fee,
          method_col || '_count', n, method_col || '_cents', cents,
          kind || '_count', n, kind || '_cents', cents) AS x
      FROM (SELECT *, CASE WHEN method = 'card' THEN 'card' ELSE 'bank' END AS method_col
            FROM jsonb_to_recordset(deltas) AS d(business_id text, processed_day date, method text, kind text, n bigint, cents bigint, fee bigint)) d
      UNION ALL
      SELECT jsonb_build_object('business_id', business_id, 'day', returned_day, 'returned_count', n, 'returned_cents', cents, 'fee_cents', -fee)
      FROM jsonb_to_recordset(deltas) AS d(business_id text, returned_day date, n bigint, cents bigint, fee bigint)
      WHERE returned_day IS NOT NULL
    ) u), '[]'::jsonb));

  INSERT INTO report_payer_months AS t (business_id, month, payer_key, payer_id, name, email, n, cents)
  SELECT business_id, month, payer_key, max(payer_id), max(name), max(email), sum(n), sum(cents)
  FROM (
    SELECT business_id, date_trunc('month', processed_day)::date AS month, payer_key, payer_id, name, email, n, cents
    FROM jsonb_to_recordset(deltas) AS d(business_id text, processed_day date, payer_key text, payer_id text, name text, email text, n bigint, cents bigint)
    UNION ALL
    SELECT business_id, date_trunc('month', returned_day)::date, payer_key, payer_id, name, email, -n, -cents
    FROM jsonb_to_recordset(deltas) AS d(business_id text, returned_day date, payer_key text, payer_id text, name text, email text, n bigint, cents bigint)
    WHERE returned_day IS NOT NULL
  ) u
  GROUP BY 1, 2, 3 HAVING sum(n) <> 0 OR sum(cents) <> 0
  ORDER BY 1, 2, 3
  ON CONFLICT (business_id, month, payer_key) DO UPDATE SET
    payer_id = EXCLUDED.payer_id, name = EXCLUDED.name, email = EXCLUDED.email,
    n = t.n + EXCLUDED.n, cents = t.cents + EXCLUDED.cents;
$$;

-- The rows a statement changed, signed: new rows count once, old rows are taken back.
CREATE FUNCTION report_changed_rows_sql(op text) RETURNS text LANGUAGE sql IMMUTABLE
  RETURN CASE op
    WHEN 'INSERT' THEN 'SELECT 1 AS s, * FROM new_rows'
    WHEN 'DELETE' THEN 'SELECT -1 AS s, * FROM old_rows'
    ELSE 'SELECT 1 AS s, * FROM new_rows UNION ALL SELECT -1 AS s, * FROM old_rows' END;

-- The businesses' rows are share-locked first, in id order: a time-zone change (which rebuilds
-- the rollup, below) then waits for money in flight and money waits for it, so no delta is
-- ever worked out with a zone that is being replaced, and no two transactions wait in a cycle.
CREATE FUNCTION report_requests_follow() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  deltas jsonb;
BEGIN
  EXECUTE format('SELECT count(*) FROM (SELECT 1 FROM businesses WHERE id IN (SELECT business_id FROM (%s) c) ORDER BY id FOR SHARE) l',
    report_changed_rows_sql(TG_OP));
  EXECUTE report_request_deltas_sql(report_changed_rows_sql(TG_OP)) INTO deltas;
  IF deltas <> '[]'::jsonb THEN PERFORM report_request_apply(deltas); END IF;
  RETURN NULL;
END
$$;

CREATE FUNCTION report_payments_follow() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  deltas jsonb;
BEGIN
  EXECUTE format('SELECT count(*) FROM (SELECT 1 FROM businesses WHERE id IN (SELECT business_id FROM (%s) c) ORDER BY id FOR SHARE) l',
    report_changed_rows_sql(TG_OP));
  EXECUTE report_payment_deltas_sql(report_changed_rows_sql(TG_OP)) INTO deltas;
  IF deltas <> '[]'::jsonb THEN PERFORM report_payment_apply(deltas); END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER report_requests_insert AFTER INSERT ON payment_requests
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION report_requests_follow();
CREATE TRIGGER report_requests_update AFTER UPDATE ON payment_requests
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION report_requests_follow();
CREATE TRIGGER report_requests_delete AFTER DELETE ON payment_requests
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION report_requests_follow();
CREATE TRIGGER report_payments_insert AFTER INSERT ON payments
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION report_payments_follow();
CREATE TRIGGER report_payments_update AFTER UPDATE ON payments
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION report_payments_follow();
CREATE TRIGGER report_payments_delete AFTER DELETE ON payments
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION report_payments_follow();

-- A business's rollup worked out again from its raw rows, in its time zone now (a time-zone
-- change moves instants to other days). Also the backfill below.
CREATE FUNCTION report_rebuild(business text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  deltas jsonb;
BEGIN
  DELETE FROM report_days WHERE business_id = business;
  DELETE FROM report_day_states WHERE business_id = business;
  DELETE FROM report_payer_months WHERE business_id = business;
  EXECUTE report_request_deltas_sql('SELECT 1 AS s, * FROM payment_requests WHERE business_id = $1') INTO deltas USING business;
  PERFORM report_request_apply(deltas);
  EXECUTE report_payment_deltas_sql('SELECT 1 AS s, * FROM payments WHERE business_id = $1') INTO deltas USING business;
  PERFORM report_payment_apply(deltas);
END
$$;

CREATE FUNCTION businesses_report_time_zone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM report_rebuild(NEW.id);
  RETURN NULL;
END
$$;
CREATE TRIGGER businesses_report_time_zone AFTER UPDATE OF time_zone ON businesses
  FOR EACH ROW WHEN (OLD.time_zone IS DISTINCT FROM NEW.time_zone) EXECUTE FUNCTION businesses_report_time_zone();

SELECT report_rebuild(id) FROM businesses ORDER BY id;
