-- An Idempotency-Key still in progress is held by a lease its request renews while it runs, so a
-- key whose process died is free again within one lease rather than after a fixed two minutes.
-- Work that moves money records how far it got (`recovery_point`, e.g. the payment it created) in
-- the same transaction as that step, so a retry after a crash finishes that work and answers with
-- what happened instead of running the request a second time (ADR 024).
ALTER TABLE idempotency_keys ADD COLUMN lease_id text;
ALTER TABLE idempotency_keys ADD COLUMN lease_expires_at timestamptz;
ALTER TABLE idempotency_keys ADD COLUMN recovery_point text;
-- Keys in progress when this runs keep the two minutes they were promised.
UPDATE idempotency_keys SET lease_id = 'before-leases', lease_expires_at = created_at + interval '2 minutes' WHERE state = 'in_progress';
ALTER TABLE idempotency_keys ADD CONSTRAINT idempotency_keys_lease_check
  CHECK (state = 'completed' OR (lease_id IS NOT NULL AND lease_expires_at IS NOT NULL));
