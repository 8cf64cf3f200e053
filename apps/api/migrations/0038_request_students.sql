-- The history's item gains the student template's fields (ADR 036): the student a request is for,
-- its program and its period, in `toPaymentRequest`'s order and form (after the QR code). Requests
-- of other templates have null for each. The rest of the item is as migration 0031 wrote it.
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
    || ',"qrCodeLabel":' || coalesce(to_json(NEW.qr_code_label)::text, 'null')
    || ',"student":' || CASE WHEN NEW.student_id IS NULL THEN 'null'
         ELSE '{"studentId":' || to_json(NEW.student_id)::text || ',"name":' || to_json(coalesce(NEW.student_name, ''))::text || '}' END
    || ',"program":' || CASE WHEN NEW.program_id IS NULL THEN 'null'
         ELSE '{"programId":' || to_json(NEW.program_id)::text || ',"name":' || to_json(coalesce(NEW.program_name, ''))::text || '}' END
    || ',"period":' || coalesce(to_json(NEW.period)::text, 'null');
  RETURN NEW;
END
$$;

-- The billing history's period filter within a business (the student and program filters have
-- their indexes from migration 0034).
CREATE INDEX payment_requests_period_idx ON payment_requests (business_id, period, created_at DESC, id DESC) WHERE period IS NOT NULL;

UPDATE payment_requests SET list_item = NULL;
