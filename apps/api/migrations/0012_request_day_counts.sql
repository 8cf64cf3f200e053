-- Numbered pages far down a long history (issue 5): how many requests each business created on
-- each day (UTC), per state and for the whole history view (every state but Draft), kept by
-- statement-level triggers like payment_request_counts (0009). A page by its number is then found
-- by adding up days from the nearer end and walking at most one day's rows, instead of every row
-- before it. The history view has its own totals so that it adds up one row a day, not eleven.
-- No request may be written between the counts filled below and the triggers that keep them.
LOCK TABLE payment_requests IN SHARE ROW EXCLUSIVE MODE;

CREATE FUNCTION payment_request_day(created_at timestamptz) RETURNS integer
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  -- Days since 1970-01-01 UTC: the instant's epoch, which no time zone setting changes.
  RETURN floor(extract(epoch FROM created_at) / 86400)::integer;

CREATE TABLE payment_request_day_counts (
  business_id text NOT NULL REFERENCES businesses (id),
  day integer NOT NULL,
  state text NOT NULL,
  n bigint NOT NULL,
  PRIMARY KEY (business_id, day, state)
);

CREATE TABLE payment_request_history_days (
  business_id text NOT NULL REFERENCES businesses (id),
  day integer NOT NULL,
  n bigint NOT NULL,
  PRIMARY KEY (business_id, day)
);

INSERT INTO payment_request_day_counts (business_id, day, state, n)
SELECT business_id, payment_request_day(created_at), state, count(*) FROM payment_requests GROUP BY 1, 2, 3;

INSERT INTO payment_request_history_days (business_id, day, n)
SELECT business_id, day, sum(n) FROM payment_request_day_counts WHERE state <> 'Draft' GROUP BY 1, 2;

-- Applies signed counts per (business, day, state). Rows are touched in key order, so two
-- transactions never wait on each other's count rows in a cycle.
CREATE FUNCTION payment_request_day_counts_apply(deltas jsonb) RETURNS void LANGUAGE sql AS $$
  INSERT INTO payment_request_day_counts (business_id, day, state, n)
  SELECT d.business_id, d.day, d.state, d.n
  FROM jsonb_to_recordset(deltas) AS d(business_id text, day integer, state text, n bigint)
  WHERE d.n <> 0
  ORDER BY d.business_id, d.day, d.state
  ON CONFLICT (business_id, day, state) DO UPDATE SET n = payment_request_day_counts.n + EXCLUDED.n;

  INSERT INTO payment_request_history_days (business_id, day, n)
  SELECT d.business_id, d.day, sum(d.n)
  FROM jsonb_to_recordset(deltas) AS d(business_id text, day integer, state text, n bigint)
  WHERE d.state <> 'Draft'
  GROUP BY d.business_id, d.day HAVING sum(d.n) <> 0
  ORDER BY d.business_id, d.day
  ON CONFLICT (business_id, day) DO UPDATE SET n = payment_request_history_days.n + EXCLUDED.n;
$$;

CREATE FUNCTION payment_request_day_counts_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM payment_request_day_counts_apply(coalesce((
    SELECT jsonb_agg(jsonb_build_object('business_id', business_id, 'day', day, 'state', state, 'n', c))
    FROM (SELECT business_id, payment_request_day(created_at) AS day, state, count(*) AS c FROM new_rows GROUP BY 1, 2, 3) s), '[]'::jsonb));
  RETURN NULL;
END
$$;

CREATE FUNCTION payment_request_day_counts_on_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM payment_request_day_counts_apply(coalesce((
    SELECT jsonb_agg(jsonb_build_object('business_id', business_id, 'day', day, 'state', state, 'n', -c))
    FROM (SELECT business_id, payment_request_day(created_at) AS day, state, count(*) AS c FROM old_rows GROUP BY 1, 2, 3) s), '[]'::jsonb));
  RETURN NULL;
END
$$;

-- (A column list, UPDATE OF state, would skip updates that cannot move a count, but PostgreSQL
-- allows no transition tables with one; an update that moves nothing applies nothing.)
CREATE FUNCTION payment_request_day_counts_on_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM payment_request_day_counts_apply(coalesce((
    SELECT jsonb_agg(jsonb_build_object('business_id', business_id, 'day', day, 'state', state, 'n', c))
    FROM (
      SELECT business_id, day, state, sum(c) AS c FROM (
        SELECT business_id, payment_request_day(created_at) AS day, state, 1 AS c FROM new_rows
        UNION ALL
        SELECT business_id, payment_request_day(created_at), state, -1 FROM old_rows
      ) u GROUP BY 1, 2, 3 HAVING sum(c) <> 0
    ) s), '[]'::jsonb));
  RETURN NULL;
END
$$;

CREATE TRIGGER payment_request_day_counts_insert AFTER INSERT ON payment_requests
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION payment_request_day_counts_on_insert();
CREATE TRIGGER payment_request_day_counts_delete AFTER DELETE ON payment_requests
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION payment_request_day_counts_on_delete();
CREATE TRIGGER payment_request_day_counts_update AFTER UPDATE ON payment_requests
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION payment_request_day_counts_on_update();
