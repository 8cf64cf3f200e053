-- Accounting integrations (ADR 041, ADR 051): a succeeded refund of a payment on an invoice is
-- pushed once, as a QuickBooks Online refund receipt or a FreshBooks credit note. It is linked and
-- logged like the other records, and waits for its payment to be at the provider first. The
-- stand-ins keep what they are sent of it. The constraints are the ones PostgreSQL named when
-- migrations 0043, 0044 and 0047 declared them inline.
ALTER TABLE integration_links DROP CONSTRAINT integration_links_record_type_check;
ALTER TABLE integration_links ADD CONSTRAINT integration_links_record_type_check CHECK (record_type IN ('customer', 'invoice', 'payment', 'refund'));
ALTER TABLE integration_links DROP CONSTRAINT integration_links_waiting_for_check;
ALTER TABLE integration_links ADD CONSTRAINT integration_links_waiting_for_check CHECK (waiting_for IN ('customer', 'invoice', 'payment'));
ALTER TABLE integration_log DROP CONSTRAINT integration_log_record_type_check;
ALTER TABLE integration_log ADD CONSTRAINT integration_log_record_type_check CHECK (record_type IN ('customer', 'invoice', 'payment', 'refund'));
ALTER TABLE standin_accounting_records DROP CONSTRAINT standin_accounting_records_type_check;
ALTER TABLE standin_accounting_records ADD CONSTRAINT standin_accounting_records_type_check CHECK (type IN ('customer', 'invoice', 'payment', 'refund'));
