-- Each request's list item, kept as the JSON the history list sends (ADR 015): a page of the list
-- is then 25 stored texts joined, where writing them afresh from the columns on every read was
-- most of what PostgreSQL did for a page. Kept by a row trigger from the row itself, on every
-- insert and update, so it can never say something the row does not.
--
-- The item is `PaymentRequest` (packages/contract) without its last field, `actions`, and without
-- the closing brace: the actions follow from the state, and are added when the page is read.
-- Fields in `toPaymentRequest`'s order and form: timestamps as `Date.prototype.toISOString` writes
-- them (UTC, milliseconds, Z), dates as YYYY-MM-DD, text escaped by to_json as JSON.stringify does.
-- A change to the item's fields is a new migration that replaces this function and refills the
-- rows (UPDATE payment_requests SET list_item = NULL).
ALTER TABLE payment_requests ADD COLUMN list_item text;

CREATE FUNCTION payment_requests_list_item() RETURNS trigger LANGUAGE plpgsql AS $$
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
    || ',"updatedAt":"' || to_char(NEW.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"';
  RETURN NEW;
END
$$;

CREATE TRIGGER payment_requests_list_item BEFORE INSERT OR UPDATE ON payment_requests
  FOR EACH ROW EXECUTE FUNCTION payment_requests_list_item();

-- Fill the rows there are: each update runs the trigger.
UPDATE payment_requests SET list_item = NULL;
ALTER TABLE payment_requests ALTER COLUMN list_item SET NOT NULL;
