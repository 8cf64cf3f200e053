-- Searching a long history (issue 5, ADR 016): how many requests each business has per payer name
-- (lower-cased, as a search compares it), payer e-mail and state, kept by statement-level triggers
-- like the per-day counts (0012). A search by name or e-mail then adds up these counts for its
-- total, and lists its page from the few names and e-mails it matches: each one's newest requests,
-- read in order off the prefix indexes, which now carry the creation time as a key. It no longer
-- reads every match to count them and pick the newest 25.
-- Rows whose count falls to zero stay (a payer's requests move between states); readers skip them.
-- No request may be written between the counts filled below and the triggers that keep them.
LOCK TABLE payment_requests IN SHARE ROW EXCLUSIVE MODE;

CREATE TABLE payment_request_search_counts (
  business_id text NOT NULL REFERENCES businesses (id),
  name_key text NOT NULL,
  payer_email text NOT NULL,
  state text NOT NULL,
  n bigint NOT NULL
);

-- By name prefix (and the key every count is kept under), and by e-mail prefix.
CREATE UNIQUE INDEX payment_request_search_counts_key ON payment_request_search_counts (business_id, name_key text_pattern_ops, payer_email, state) INCLUDE (n);
CREATE INDEX payment_request_search_counts_email_idx ON payment_request_search_counts (business_id, payer_email text_pattern_ops) INCLUDE (name_key, state, n);

INSERT INTO payment_request_search_counts (business_id, name_key, payer_email, state, n)
SELECT business_id, lower(payer_display_name), payer_email, state, count(*) FROM payment_requests GROUP BY 1, 2, 3, 4;

CREATE FUNCTION payment_request_search_counts_apply(deltas jsonb) RETURNS void LANGUAGE sql AS $$
  INSERT INTO payment_request_search_counts (business_id, name_key, payer_email, state, n)
  SELECT d.business_id, d.name_key, d.payer_email, d.state, d.n
  FROM jsonb_to_recordset(deltas) AS d(business_id text, name_key text, payer_email text, state text, n bigint)
  WHERE d.n <> 0
  -- One order for every writer, so that two transactions never wait on each other's rows in turn.
  ORDER BY d.business_id, d.name_key COLLATE "C", d.payer_email COLLATE "C", d.state
  ON CONFLICT (business_id, name_key, payer_email, state) DO UPDATE SET n = payment_request_search_counts.n + EXCLUDED.n;
$$;

CREATE FUNCTION payment_request_search_counts_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM payment_request_search_counts_apply(coalesce((
    SELECT jsonb_agg(jsonb_build_object('business_id', business_id, 'name_key', name_key, 'payer_email', payer_email, 'state', state, 'n', c))
    FROM (SELECT business_id, lower(payer_display_name) AS name_key, payer_email, state, count(*) AS c FROM new_rows GROUP BY 1, 2, 3, 4) s), '[]'::jsonb));
  RETURN NULL;
END
$$;

CREATE FUNCTION payment_request_search_counts_on_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM payment_request_search_counts_apply(coalesce((
    SELECT jsonb_agg(jsonb_build_object('business_id', business_id, 'name_key', name_key, 'payer_email', payer_email, 'state', state, 'n', -c))
    FROM (SELECT business_id, lower(payer_display_name) AS name_key, payer_email, state, count(*) AS c FROM old_rows GROUP BY 1, 2, 3, 4) s), '[]'::jsonb));
  RETURN NULL;
END
$$;

CREATE FUNCTION payment_request_search_counts_on_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM payment_request_search_counts_apply(coalesce((
    SELECT jsonb_agg(jsonb_build_object('business_id', business_id, 'name_key', name_key, 'payer_email', payer_email, 'state', state, 'n', c))
    FROM (
      SELECT business_id, name_key, payer_email, state, sum(c) AS c FROM (
        SELECT business_id, lower(payer_display_name) AS name_key, payer_email, state, 1 AS c FROM new_rows
        UNION ALL
        SELECT business_id, lower(payer_display_name), payer_email, state, -1 FROM old_rows
      ) u GROUP BY 1, 2, 3, 4 HAVING sum(c) <> 0
    ) s), '[]'::jsonb));
  RETURN NULL;
END
$$;

CREATE TRIGGER payment_request_search_counts_insert AFTER INSERT ON payment_requests
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION payment_request_search_counts_on_insert();
CREATE TRIGGER payment_request_search_counts_delete AFTER DELETE ON payment_requests
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION payment_request_search_counts_on_delete();
CREATE TRIGGER payment_request_search_counts_update AFTER UPDATE ON payment_requests
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION payment_request_search_counts_on_update();

-- The prefix indexes keep each name's (and e-mail's) requests in creation order, newest read first
-- by walking backwards: a search's page takes the first few of each, not all. (On a large
-- production table, build these CONCURRENTLY by hand beforehand, as 0013 says.)
DROP INDEX payment_requests_payer_name_prefix_idx;
DROP INDEX payment_requests_payer_email_prefix_idx;
CREATE INDEX payment_requests_payer_name_prefix_idx ON payment_requests (business_id, lower(payer_display_name) text_pattern_ops, created_at, id)
  INCLUDE (state, payer_display_name, payer_email, payer_id, amount_cents, due_date, number);
CREATE INDEX payment_requests_payer_email_prefix_idx ON payment_requests (business_id, payer_email text_pattern_ops, created_at, id)
  INCLUDE (state, payer_display_name, payer_id, amount_cents, due_date, number);
