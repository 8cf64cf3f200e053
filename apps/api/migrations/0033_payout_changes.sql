-- Live updates (ADR 025) for payments out (ADR 035): a payout, a receiver, an event or a check-in
-- that changes is a `payout` notice, so the dashboard, the approval queue and the lists of
-- another person (or a webhook's outcome) show without a reload.
ALTER TABLE business_changes DROP CONSTRAINT business_changes_kind_check;
ALTER TABLE business_changes ADD CONSTRAINT business_changes_kind_check CHECK (kind IN ('business', 'request', 'payer', 'balances', 'payout'));

-- The payout's id when one statement changed one payout; otherwise (receivers, events, several) none.
CREATE FUNCTION business_changes_of_payouts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM business_changes_add(array_agg(business_id), 'payout', array_agg(entity_id))
  FROM (
    SELECT business_id, CASE WHEN TG_TABLE_NAME = 'payouts' AND min(id) = max(id) THEN min(id) END AS entity_id
    FROM changed_rows GROUP BY business_id) g;
  RETURN NULL;
END
$$;

CREATE FUNCTION business_changes_of_payout_parts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM business_changes_add(array_agg(business_id), 'payout', array_agg(NULL::text))
  FROM (SELECT DISTINCT business_id FROM changed_rows) g;
  RETURN NULL;
END
$$;

CREATE TRIGGER business_changes_insert AFTER INSERT ON payouts
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION business_changes_of_payouts();
CREATE TRIGGER business_changes_update AFTER UPDATE ON payouts
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION business_changes_of_payouts();
CREATE TRIGGER business_changes_delete AFTER DELETE ON payouts
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION business_changes_of_payouts();

CREATE TRIGGER business_changes_insert AFTER INSERT ON receivers
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION business_changes_of_payout_parts();
CREATE TRIGGER business_changes_update AFTER UPDATE ON receivers
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION business_changes_of_payout_parts();
CREATE TRIGGER business_changes_delete AFTER DELETE ON receivers
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION business_changes_of_payout_parts();

CREATE TRIGGER business_changes_insert AFTER INSERT ON events
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION business_changes_of_payout_parts();
CREATE TRIGGER business_changes_update AFTER UPDATE ON events
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION business_changes_of_payout_parts();
CREATE TRIGGER business_changes_delete AFTER DELETE ON events
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION business_changes_of_payout_parts();

CREATE TRIGGER business_changes_insert AFTER INSERT ON event_check_ins
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION business_changes_of_payout_parts();
CREATE TRIGGER business_changes_update AFTER UPDATE ON event_check_ins
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION business_changes_of_payout_parts();
