-- Searching the history of a business with a million requests (issue 5): the payer name and
-- e-mail prefix indexes carry what a search's filters, order and total need, so a search that
-- matches a thousand requests counts and orders them from the index alone and reads only the
-- page's rows (ADR 010). payer_display_name itself is included so the name's recheck needs no row.
-- (Built inside the migration's transaction, which holds writes to payment_requests while the
-- indexes build: on a large production table, build them CONCURRENTLY by hand beforehand, under
-- other names, and drop the old ones; the migration is then a quick rename.)
DROP INDEX payment_requests_payer_name_prefix_idx;
DROP INDEX payment_requests_payer_email_prefix_idx;

CREATE INDEX payment_requests_payer_name_prefix_idx ON payment_requests (business_id, lower(payer_display_name) text_pattern_ops)
  INCLUDE (id, state, created_at, payer_display_name, payer_email, payer_id, amount_cents, due_date, number);
CREATE INDEX payment_requests_payer_email_prefix_idx ON payment_requests (business_id, payer_email text_pattern_ops)
  INCLUDE (id, state, created_at, payer_display_name, payer_id, amount_cents, due_date, number);
