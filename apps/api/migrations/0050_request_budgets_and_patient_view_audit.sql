-- Issue 35, points 8 and 4.

-- The API's request budgets (ADR 044): calls per signed-in session (by a hash of its token) or per
-- address, in fixed windows, shared by every replica. Every API call writes its row, so the table
-- is UNLOGGED: a commit waits for no WAL flush. A database crash empties it, which only starts
-- every budget again; the sign-in limits stay in the logged `rate_limits`.
CREATE UNLOGGED TABLE request_budgets (
  key text PRIMARY KEY,
  count integer NOT NULL,
  window_ends_at timestamptz NOT NULL
);
CREATE INDEX request_budgets_window_ends_at_idx ON request_budgets (window_ends_at);

-- Who saw a patient's data is on record for good, like the audit log: the app's role may only
-- read and add rows (APPEND_ONLY_TABLES, ADR 022), and these triggers refuse changes to anyone,
-- the owner included. So a deleted patient's views stay (their record is gone; who looked at it
-- is not), and the row no longer needs its patient.
ALTER TABLE patient_record_views DROP CONSTRAINT patient_record_views_business_id_patient_id_fkey;

-- An export (the patients' CSV) is a view of every record it holds: one 'export' row each.
ALTER TABLE patient_record_views DROP CONSTRAINT patient_record_views_what_check;
ALTER TABLE patient_record_views ADD CONSTRAINT patient_record_views_what_check CHECK (what IN ('record', 'edit', 'statements', 'export'));

CREATE FUNCTION patient_record_views_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'patient_record_views is append-only';
END;
$$;
CREATE TRIGGER patient_record_views_no_update_or_delete
  BEFORE UPDATE OR DELETE ON patient_record_views
  FOR EACH ROW EXECUTE FUNCTION patient_record_views_append_only();
CREATE TRIGGER patient_record_views_no_truncate
  BEFORE TRUNCATE ON patient_record_views
  FOR EACH STATEMENT EXECUTE FUNCTION patient_record_views_append_only();
