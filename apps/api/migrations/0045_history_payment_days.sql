-- The history's day filters of a billing report's figures (issue 23, ADR 039): a request's first
-- send day (`payment_requests_first_sent_idx`, migration 0042), the day one of its payments was
-- processed (`payments_processed_idx`, 0042) or returned (this index). The list finds that day's
-- payments on the business's own index entries and reads only their requests, however many
-- payments the business has.
CREATE INDEX payments_returned_idx ON payments (business_id, returned_at) WHERE returned_at IS NOT NULL;
