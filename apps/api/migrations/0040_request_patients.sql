-- The history's item gains the healthcare template's fields (ADR 037): the patient a statement is
-- for (`clientId`, "First Last") and the statement (date of service, lines and totals), in
-- `toPaymentRequest`'s order and form (after the student template's). Requests that are not a
-- patient's statement have null for each. The rest of the item is as migration 0038 wrote it.
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
    || ',"period":' || coalesce(to_json(NEW.period)::text, 'null')
    || ',"clientId":' || coalesce(to_json(NEW.patient_id)::text, 'null')
    || ',"patientName":' || coalesce(to_json(NEW.patient_name)::text, 'null')
    || ',"statement":' || CASE WHEN NEW.date_of_service IS NULL OR NEW.statement_lines IS NULL THEN 'null'
         ELSE '{"dateOfService":"' || to_char(NEW.date_of_service, 'YYYY-MM-DD') || '"'
           || ',"lines":[' || coalesce((
                SELECT string_agg(
                  '{"serviceDate":' || to_json(l ->> 'serviceDate')::text
                  || ',"description":' || to_json(l ->> 'description')::text
                  || ',"billedCents":' || (l ->> 'billedCents')::bigint
                  || ',"insurancePaidCents":' || (l ->> 'insurancePaidCents')::bigint
                  || ',"adjustmentCents":' || (l ->> 'adjustmentCents')::bigint
                  || ',"responsibilityCents":' || (l ->> 'responsibilityCents')::bigint || '}', ',' ORDER BY n)
                FROM jsonb_array_elements(NEW.statement_lines) WITH ORDINALITY AS e (l, n)), '') || ']'
           || ',"totals":' || (
                SELECT '{"billedCents":' || coalesce(sum((l ->> 'billedCents')::bigint), 0)
                  || ',"insurancePaidCents":' || coalesce(sum((l ->> 'insurancePaidCents')::bigint), 0)
                  || ',"adjustmentCents":' || coalesce(sum((l ->> 'adjustmentCents')::bigint), 0)
                  || ',"responsibilityCents":' || coalesce(sum((l ->> 'responsibilityCents')::bigint), 0) || '}'
                FROM jsonb_array_elements(NEW.statement_lines) AS e (l))
           || '}' END;
  RETURN NEW;
END
$$;

UPDATE payment_requests SET list_item = NULL;
