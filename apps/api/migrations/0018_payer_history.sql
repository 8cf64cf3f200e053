-- A payer's history (issue 5: "who changed what"): the audit events that name the payer, newest
-- first, read by the payer's Transactions page. Events of other kinds have no payerId and index as
-- NULL; the payers.imported event is found by its batch, which the payer row keeps.
CREATE INDEX business_events_payer_idx ON business_events (business_id, (details ->> 'payerId'), created_at DESC);
CREATE INDEX business_events_batch_idx ON business_events (business_id, (details ->> 'batchId'));
