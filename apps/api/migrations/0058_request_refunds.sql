-- What refunds did to each request (ADR 051), beside its paid state: `refunded_cents` is the sum
-- of its payments' refunded totals (refunds pending or succeeded), changed in the transaction of
-- each refund and each failed refund. The history item carries it (the item's fields in
-- `toPaymentRequest`'s order, as in 0016 and 0055), and the history's refund filter finds the
-- refunded requests on their own index.
ALTER TABLE payment_requests ADD COLUMN refunded_cents bigint NOT NULL DEFAULT 0 CHECK (refunded_cents >= 0);
UPDATE payment_requests r SET refunded_cents = p.total
  FROM (SELECT business_id, request_id, sum(refunded_cents) AS total FROM payments GROUP BY 1, 2 HAVING sum(refunded_cents) > 0) p
  WHERE r.business_id = p.business_id AND r.id = p.request_id;
CREATE INDEX payment_requests_refunded_idx ON payment_requests (business_id, created_at DESC, id DESC) WHERE refunded_cents > 0;

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
    || ',"refundedCents":' || NEW.refunded_cents
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

UPDATE payment_requests SET list_item = NULL;
