-- The request jobs (ADR 013) walk their rows in (date, business, id) order, a batch at a time,
-- each batch starting after the last row read. Each gets a partial index on exactly that key and
-- its fixed row conditions, so a batch reads the index from where the last one stopped instead
-- of scanning and sorting every open request. The jobs write these conditions as literal SQL, so
-- the indexes match in any plan (statements are prepared, ADR 009). On a large table, build
-- them CONCURRENTLY by hand before deploying; this migration then finds them (ADR 014).

-- Scheduled sends: Pending, walked by send time (and the held-send notes, same order).
CREATE INDEX IF NOT EXISTS payment_requests_scheduled_walk_idx ON payment_requests (send_at, business_id, id)
  WHERE state = 'Pending';
DROP INDEX IF EXISTS payment_requests_send_at_idx;

-- Reminders: open requests that went out with a link, walked by due date up to the latest date a
-- reminder step can fall on.
CREATE INDEX IF NOT EXISTS payment_requests_reminder_walk_idx ON payment_requests (due_date, business_id, id)
  WHERE state IN ('Sent', 'Resent', 'PartiallyPaid', 'Error') AND sent_at IS NOT NULL AND pay_token_hash IS NOT NULL;

-- Expiry: open requests walked by expiry date.
CREATE INDEX IF NOT EXISTS payment_requests_expiry_walk_idx ON payment_requests (expires_on, business_id, id)
  WHERE state IN ('Sent', 'Resent', 'Error');
DROP INDEX IF EXISTS payment_requests_open_expiry_idx;
