-- The transaction history at a million rows per business (issue 5 benchmark):
-- 1. Exact totals without counting rows: per business and state, maintained by statement-level
--    triggers from the rows each statement changed (transition tables). Count rows are touched in
--    state order, so two transactions never wait on each other's count rows in a cycle.
CREATE TABLE payment_request_counts (
  business_id text NOT NULL REFERENCES businesses (id),
  state text NOT NULL,
  n bigint NOT NULL,
  PRIMARY KEY (business_id, state)
);

INSERT INTO payment_request_counts (business_id, state, n)
SELECT business_id, state, count(*) FROM payment_requests GROUP BY business_id, state;

CREATE FUNCTION payment_request_counts_apply(deltas jsonb) RETURNS void LANGUAGE sql AS $$
  INSERT INTO payment_request_counts (business_id, state, n)
  SELECT d.business_id, d.state, d.delta
  FROM jsonb_to_recordset(deltas) AS d(business_id text, state text, delta bigint)
  WHERE d.delta <> 0
  ORDER BY d.business_id, d.state
  ON CONFLICT (business_id, state) DO UPDATE SET n = payment_request_counts.n + EXCLUDED.n;
$$;

CREATE FUNCTION payment_request_counts_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM payment_request_counts_apply(coalesce((
    SELECT jsonb_agg(jsonb_build_object('business_id', business_id, 'state', state, 'delta', c))
    FROM (SELECT business_id, state, count(*) AS c FROM new_rows GROUP BY business_id, state) s), '[]'::jsonb));
  RETURN NULL;
END
$$;

CREATE FUNCTION payment_request_counts_on_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM payment_request_counts_apply(coalesce((
    SELECT jsonb_agg(jsonb_build_object('business_id', business_id, 'state', state, 'delta', -c))
    FROM (SELECT business_id, state, count(*) AS c FROM old_rows GROUP BY business_id, state) s), '[]'::jsonb));
  RETURN NULL;
END
$$;

CREATE FUNCTION payment_request_counts_on_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM payment_request_counts_apply(coalesce((
    SELECT jsonb_agg(jsonb_build_object('business_id', business_id, 'state', state, 'delta', c))
    FROM (
      SELECT business_id, state, sum(c) AS c FROM (
        SELECT business_id, state, 1 AS c FROM new_rows
        UNION ALL
        SELECT business_id, state, -1 AS c FROM old_rows
      ) u GROUP BY business_id, state
    ) s), '[]'::jsonb));
  RETURN NULL;
END
$$;

CREATE TRIGGER payment_request_counts_insert AFTER INSERT ON payment_requests
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION payment_request_counts_on_insert();
CREATE TRIGGER payment_request_counts_delete AFTER DELETE ON payment_requests
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION payment_request_counts_on_delete();
CREATE TRIGGER payment_request_counts_update AFTER UPDATE ON payment_requests
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION payment_request_counts_on_update();

-- 2. The history (everything but drafts) and the drafts list each walk their own index, so a deep
--    page is an index-only walk with no row filter.
CREATE INDEX payment_requests_history_idx ON payment_requests (business_id, created_at DESC, id DESC) WHERE state <> 'Draft';
CREATE INDEX payment_requests_drafts_idx ON payment_requests (business_id, created_at DESC, id DESC) WHERE state = 'Draft';
DROP INDEX payment_requests_created_idx;
