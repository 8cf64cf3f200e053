-- Live updates (ADR 025): a short-lived notice for every change a business's open screens may
-- show, written by triggers in the transaction that makes the change. Whoever writes — a person,
-- a job, a webhook, an operator command in another process — the notice exists exactly when the
-- change committed. The API's change feed reads the notices of the businesses it streams to, by
-- the id of the transaction that wrote them (`xid`): those its previous snapshot could not see
-- are new. Kept an hour (the `maintenance.purge-changes` job), long enough for any poll.
CREATE TABLE business_changes (
  business_id text NOT NULL,
  id bigint GENERATED ALWAYS AS IDENTITY,
  kind text NOT NULL CHECK (kind IN ('business', 'request', 'payer', 'balances')),
  -- The business, request or payer that changed; NULL when one statement changed several.
  entity_id text,
  xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (business_id, id)
);
CREATE INDEX business_changes_feed_idx ON business_changes (business_id, xid);

-- One notice per business, kind and thing per transaction: a request created, its event and its
-- e-mail are one notice, and a thing already covered by a "several" notice adds none.
CREATE FUNCTION business_changes_add(p_business_ids text[], p_kind text, p_entity_ids text[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO business_changes (business_id, kind, entity_id)
  SELECT c.business_id, p_kind, c.entity_id
  FROM unnest(p_business_ids, p_entity_ids) AS c(business_id, entity_id)
  WHERE NOT EXISTS (
    SELECT 1 FROM business_changes b
    WHERE b.business_id = c.business_id AND b.xid = pg_current_xact_id() AND b.kind = p_kind
      AND (b.entity_id IS NULL OR b.entity_id = c.entity_id))
$$;

-- Statement-level triggers: a bulk statement (an import, a seeded table) writes one notice per
-- business, not one per row. Every trigger names its rows `changed_rows`.
CREATE FUNCTION business_changes_of_businesses() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM business_changes_add(array_agg(id), 'business', array_agg(id)) FROM changed_rows;
  RETURN NULL;
END
$$;

CREATE FUNCTION business_changes_of_business_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM business_changes_add(array_agg(business_id), 'business', array_agg(business_id))
  FROM (SELECT DISTINCT business_id FROM changed_rows WHERE action NOT LIKE 'payer%') g;
  PERFORM business_changes_add(array_agg(business_id), 'payer', array_agg(entity_id))
  FROM (
    SELECT business_id, CASE WHEN count(*) = 1 THEN min(details ->> 'payerId') END AS entity_id
    FROM changed_rows WHERE action LIKE 'payer%' GROUP BY business_id) g;
  RETURN NULL;
END
$$;

CREATE FUNCTION business_changes_of_payers() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM business_changes_add(array_agg(business_id), 'payer', array_agg(entity_id))
  FROM (SELECT business_id, CASE WHEN min(id) = max(id) THEN min(id) END AS entity_id FROM changed_rows GROUP BY business_id) g;
  RETURN NULL;
END
$$;

CREATE FUNCTION business_changes_of_requests() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM business_changes_add(array_agg(business_id), 'request', array_agg(entity_id))
  FROM (SELECT business_id, CASE WHEN min(id) = max(id) THEN min(id) END AS entity_id FROM changed_rows GROUP BY business_id) g;
  RETURN NULL;
END
$$;

-- A request's payments, timeline and messages show in its detail.
CREATE FUNCTION business_changes_of_request_parts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM business_changes_add(array_agg(business_id), 'request', array_agg(entity_id))
  FROM (
    SELECT business_id, CASE WHEN min(request_id) = max(request_id) THEN min(request_id) END AS entity_id
    FROM changed_rows WHERE business_id IS NOT NULL AND request_id IS NOT NULL GROUP BY business_id) g;
  RETURN NULL;
END
$$;

CREATE FUNCTION business_changes_of_journal() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM business_changes_add(array_agg(business_id), 'balances', array_agg(business_id))
  FROM (SELECT DISTINCT business_id FROM changed_rows) g;
  RETURN NULL;
END
$$;

CREATE TRIGGER business_changes_update AFTER UPDATE ON businesses
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION business_changes_of_businesses();
CREATE TRIGGER business_changes_insert AFTER INSERT ON business_events
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION business_changes_of_business_events();

CREATE TRIGGER business_changes_insert AFTER INSERT ON payers
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION business_changes_of_payers();
CREATE TRIGGER business_changes_update AFTER UPDATE ON payers
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION business_changes_of_payers();
CREATE TRIGGER business_changes_delete AFTER DELETE ON payers
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION business_changes_of_payers();

CREATE TRIGGER business_changes_insert AFTER INSERT ON payment_requests
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION business_changes_of_requests();
CREATE TRIGGER business_changes_update AFTER UPDATE ON payment_requests
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION business_changes_of_requests();
CREATE TRIGGER business_changes_delete AFTER DELETE ON payment_requests
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION business_changes_of_requests();

CREATE TRIGGER business_changes_insert AFTER INSERT ON payment_request_events
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION business_changes_of_request_parts();
CREATE TRIGGER business_changes_insert AFTER INSERT ON payments
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION business_changes_of_request_parts();
CREATE TRIGGER business_changes_update AFTER UPDATE ON payments
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION business_changes_of_request_parts();
CREATE TRIGGER business_changes_insert AFTER INSERT ON mail_outbox
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION business_changes_of_request_parts();
CREATE TRIGGER business_changes_update AFTER UPDATE ON mail_outbox
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION business_changes_of_request_parts();

CREATE TRIGGER business_changes_insert AFTER INSERT ON journal_transactions
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION business_changes_of_journal();
