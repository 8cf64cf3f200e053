-- Disputes in the reports' rollup (ADR 051, ADR 039): a dispute counts on the local day it opened,
-- by count and amount (disputed), and its dispute fee joins that day's fees; a won dispute gives
-- the amount back on the local day it closed (disputed goes down by it there), and the fee where it
-- was returned. Net is collected − returned − refunded − disputed − fees
-- (packages/contract/src/reports/schemas.ts).
ALTER TABLE report_days ADD COLUMN disputed_count bigint NOT NULL DEFAULT 0, ADD COLUMN disputed_cents bigint NOT NULL DEFAULT 0;

-- report_days_apply with the two dispute figures (missing figures are still 0).
CREATE OR REPLACE FUNCTION report_days_apply(deltas jsonb) RETURNS void LANGUAGE sql AS $$
  INSERT INTO report_days AS t (business_id, day, billed_count, billed_cents, collected_count, collected_cents,
    card_count, card_cents, bank_count, bank_cents, request_count, request_cents, invoice_count, invoice_cents,
    qr_count, qr_cents, student_count, student_cents, patient_count, patient_cents, returned_count, returned_cents,
    fee_cents, outstanding_cents, paid_count, paid_on_time_count, refunded_count, refunded_cents, disputed_count, disputed_cents)
  SELECT business_id, day,
    coalesce(sum(billed_count), 0), coalesce(sum(billed_cents), 0), coalesce(sum(collected_count), 0), coalesce(sum(collected_cents), 0),
    coalesce(sum(card_count), 0), coalesce(sum(card_cents), 0), coalesce(sum(bank_count), 0), coalesce(sum(bank_cents), 0),
    coalesce(sum(request_count), 0), coalesce(sum(request_cents), 0), coalesce(sum(invoice_count), 0), coalesce(sum(invoice_cents), 0),
    coalesce(sum(qr_count), 0), coalesce(sum(qr_cents), 0), coalesce(sum(student_count), 0), coalesce(sum(student_cents), 0),
    coalesce(sum(patient_count), 0), coalesce(sum(patient_cents), 0), coalesce(sum(returned_count), 0), coalesce(sum(returned_cents), 0),
    coalesce(sum(fee_cents), 0), coalesce(sum(outstanding_cents), 0), coalesce(sum(paid_count), 0), coalesce(sum(paid_on_time_count), 0),
    coalesce(sum(refunded_count), 0), coalesce(sum(refunded_cents), 0), coalesce(sum(disputed_count), 0), coalesce(sum(disputed_cents), 0)
  FROM jsonb_to_recordset(deltas) AS d(business_id text, day date, billed_count bigint, billed_cents bigint,
    collected_count bigint, collected_cents bigint, card_count bigint, card_cents bigint, bank_count bigint, bank_cents bigint,
    request_count bigint, request_cents bigint, invoice_count bigint, invoice_cents bigint, qr_count bigint, qr_cents bigint,
    student_count bigint, student_cents bigint, patient_count bigint, patient_cents bigint, returned_count bigint,
    returned_cents bigint, fee_cents bigint, outstanding_cents bigint, paid_count bigint, paid_on_time_count bigint,
    refunded_count bigint, refunded_cents bigint, disputed_count bigint, disputed_cents bigint)
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
    paid_on_time_count = t.paid_on_time_count + EXCLUDED.paid_on_time_count,
    refunded_count = t.refunded_count + EXCLUDED.refunded_count,
    refunded_cents = t.refunded_cents + EXCLUDED.refunded_cents,
    disputed_count = t.disputed_count + EXCLUDED.disputed_count,
    disputed_cents = t.disputed_cents + EXCLUDED.disputed_cents;
$$;

-- A dispute's signed contributions, grouped, from the rows `source` selects (column `s`, the sign,
-- then the dispute's columns): opened on its local opening day; won back on its local closing day.
CREATE FUNCTION report_dispute_deltas_sql(source text) RETURNS text LANGUAGE sql IMMUTABLE
  RETURN format($q$
    SELECT coalesce(jsonb_agg(g), '[]'::jsonb) FROM (
      SELECT c.business_id, c.day,
        sum(c.n) AS disputed_count, sum(c.cents) AS disputed_cents, sum(c.fee) AS fee_cents
      FROM (
        SELECT f.business_id, (f.created_at AT TIME ZONE b.time_zone)::date AS day,
          f.s AS n, f.s * f.amount_cents AS cents, f.s * f.fee_cents AS fee
        FROM (%1$s) f JOIN businesses b ON b.id = f.business_id
        UNION ALL
        SELECT f.business_id, (f.closed_at AT TIME ZONE b.time_zone)::date,
          0, -f.s * f.amount_cents, -f.s * f.fee_returned_cents
        FROM (%1$s) f JOIN businesses b ON b.id = f.business_id
        WHERE f.state = 'Won' AND f.closed_at IS NOT NULL
      ) c
      GROUP BY 1, 2
      HAVING sum(c.n) <> 0 OR sum(c.cents) <> 0 OR sum(c.fee) <> 0
    ) g $q$, source);

-- As the requests', payments' and refunds' triggers: the businesses share-locked first, in id order.
CREATE FUNCTION report_disputes_follow() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  deltas jsonb;
BEGIN
  EXECUTE format('SELECT count(*) FROM (SELECT 1 FROM businesses WHERE id IN (SELECT business_id FROM (%s) c) ORDER BY id FOR SHARE) l',
    report_changed_rows_sql(TG_OP));
  EXECUTE report_dispute_deltas_sql(report_changed_rows_sql(TG_OP)) INTO deltas;
  IF deltas <> '[]'::jsonb THEN PERFORM report_days_apply(deltas); END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER report_disputes_insert AFTER INSERT ON disputes
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION report_disputes_follow();
CREATE TRIGGER report_disputes_update AFTER UPDATE ON disputes
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION report_disputes_follow();
CREATE TRIGGER report_disputes_delete AFTER DELETE ON disputes
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION report_disputes_follow();

-- The rebuild (a time-zone change) counts the disputes too.
CREATE OR REPLACE FUNCTION report_rebuild(business text) RETURNS void LANGUAGE plpgsql AS $$
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
  EXECUTE report_refund_deltas_sql('SELECT 1 AS s, * FROM refunds WHERE business_id = $1') INTO deltas USING business;
  PERFORM report_days_apply(deltas);
  EXECUTE report_dispute_deltas_sql('SELECT 1 AS s, * FROM disputes WHERE business_id = $1') INTO deltas USING business;
  PERFORM report_days_apply(deltas);
END
$$;

SELECT report_rebuild(business_id) FROM (SELECT DISTINCT business_id FROM disputes ORDER BY business_id) r;
