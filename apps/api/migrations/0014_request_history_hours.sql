-- A page far down the history by its number (0012) walked all the rows of its day before it: a
-- few thousand for a business with a million requests a year. The whole history view now also
-- keeps a count per hour, so the walk is through the day's hours, then at most one hour's rows.
-- The counts are kept by the same statement-level triggers, now working from the hour.
-- No request may be written between the counts filled below and the triggers that keep them.
LOCK TABLE payment_requests IN SHARE ROW EXCLUSIVE MODE;

CREATE FUNCTION payment_request_hour(created_at timestamptz) RETURNS integer
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  -- Hours since 1970-01-01 UTC; the hour's day is floor(hour / 24), as payment_request_day gives.
  RETURN floor(extract(epoch FROM created_at) / 3600)::integer;

CREATE TABLE payment_request_history_hours (
  business_id text NOT NULL REFERENCES businesses (id),
  hour integer NOT NULL,
  n bigint NOT NULL,
  PRIMARY KEY (business_id, hour)
);

INSERT INTO payment_request_history_hours (business_id, hour, n)
SELECT business_id, payment_request_hour(created_at), count(*) FROM payment_requests WHERE state <> 'Draft' GROUP BY 1, 2;

-- Deltas now come per (business, hour, state); days are whole hours, so each day's count is the
-- sum of its hours'. Rows are touched in key order, so two transactions never wait in a cycle.
CREATE OR REPLACE FUNCTION payment_request_day_counts_apply(deltas jsonb) RETURNS void LANGUAGE sql AS $$
  WITH d AS (
    SELECT business_id, hour, floor(hour / 24.0)::integer AS day, state, n
    FROM jsonb_to_recordset(deltas) AS x(business_id text, hour integer, state text, n bigint)
  ), by_state AS (
    INSERT INTO payment_request_day_counts (business_id, day, state, n)
    SELECT business_id, day, state, sum(n) FROM d GROUP BY 1, 2, 3 HAVING sum(n) <> 0 ORDER BY 1, 2, 3
    ON CONFLICT (business_id, day, state) DO UPDATE SET n = payment_request_day_counts.n + EXCLUDED.n
  ), by_day AS (
    INSERT INTO payment_request_history_days (business_id, day, n)
    SELECT business_id, day, sum(n) FROM d WHERE state <> 'Draft' GROUP BY 1, 2 HAVING sum(n) <> 0 ORDER BY 1, 2
    ON CONFLICT (business_id, day) DO UPDATE SET n = payment_request_history_days.n + EXCLUDED.n
  )
  INSERT INTO payment_request_history_hours (business_id, hour, n)
  SELECT business_id, hour, sum(n) FROM d WHERE state <> 'Draft' GROUP BY 1, 2 HAVING sum(n) <> 0 ORDER BY 1, 2
  ON CONFLICT (business_id, hour) DO UPDATE SET n = payment_request_history_hours.n + EXCLUDED.n;
$$;

CREATE OR REPLACE FUNCTION payment_request_day_counts_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM payment_request_day_counts_apply(coalesce((
    SELECT jsonb_agg(jsonb_build_object('business_id', business_id, 'hour', hour, 'state', state, 'n', c))
    FROM (SELECT business_id, payment_request_hour(created_at) AS hour, state, count(*) AS c FROM new_rows GROUP BY 1, 2, 3) s), '[]'::jsonb));
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION payment_request_day_counts_on_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM payment_request_day_counts_apply(coalesce((
    SELECT jsonb_agg(jsonb_build_object('business_id', business_id, 'hour', hour, 'state', state, 'n', -c))
    FROM (SELECT business_id, payment_request_hour(created_at) AS hour, state, count(*) AS c FROM old_rows GROUP BY 1, 2, 3) s), '[]'::jsonb));
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION payment_request_day_counts_on_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM payment_request_day_counts_apply(coalesce((
    SELECT jsonb_agg(jsonb_build_object('business_id', business_id, 'hour', hour, 'state', state, 'n', c))
    FROM (
      SELECT business_id, hour, state, sum(c) AS c FROM (
        SELECT business_id, payment_request_hour(created_at) AS hour, state, 1 AS c FROM new_rows
        UNION ALL
        SELECT business_id, payment_request_hour(created_at), state, -1 FROM old_rows
      ) u GROUP BY 1, 2, 3 HAVING sum(c) <> 0
    ) s), '[]'::jsonb));
  RETURN NULL;
END
$$;
