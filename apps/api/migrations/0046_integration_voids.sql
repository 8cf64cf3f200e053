-- Accounting integrations (ADR 041): a payment pushed to the provider and later returned is taken
-- back there (QuickBooks deletes it, FreshBooks marks it deleted), once; the log says so.
ALTER TABLE integration_links ADD COLUMN voided_at timestamptz;
ALTER TABLE integration_log DROP CONSTRAINT integration_log_outcome_check;
ALTER TABLE integration_log ADD CONSTRAINT integration_log_outcome_check CHECK (outcome IN ('created', 'updated', 'voided', 'failed', 'info'));
