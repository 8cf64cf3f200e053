-- The payments landing page's figures (outstanding, collected) at a million requests: the
-- per-state counts of 0009 also keep the amounts requested and paid, maintained the same way.
ALTER TABLE payment_request_counts
  ADD COLUMN amount_cents bigint NOT NULL DEFAULT 0,
  ADD COLUMN amount_paid_cents bigint NOT NULL DEFAULT 0;

UPDATE payment_request_counts c SET
  amount_cents = s.amount,
  amount_paid_cents = s.paid
FROM (
  SELECT business_id, state, sum(amount_cents) AS amount, sum(amount_paid_cents) AS paid
  FROM payment_requests GROUP BY business_id, state
) s
WHERE s.business_id = c.business_id AND s.state = c.state;

CREATE OR REPLACE FUNCTION payment_request_counts_apply(deltas jsonb) RETURNS void LANGUAGE sql AS $$
  INSERT INTO payment_request_counts (business_id, state, n, amount_cents, amount_paid_cents)
  SELECT d.business_id, d.state, d.delta, d.amount, d.paid
  FROM jsonb_to_recordset(deltas) AS d(business_id text, state text, delta bigint, amount bigint, paid bigint)
  WHERE d.delta <> 0 OR d.amount <> 0 OR d.paid <> 0
  ORDER BY d.business_id, d.state
  ON CONFLICT (business_id, state) DO UPDATE SET
    n = payment_request_counts.n + EXCLUDED.n,
    amount_cents = payment_request_counts.amount_cents + EXCLUDED.amount_cents,
    amount_paid_cents = payment_request_counts.amount_paid_cents + EXCLUDED.amount_paid_cents;
$$;

CREATE OR REPLACE FUNCTION payment_request_counts_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM payment_request_counts_apply(coalesce((
    SELECT jsonb_agg(jsonb_build_object('business_id', business_id, 'state', state, 'delta', c, 'amount', a, 'paid', p))
    FROM (SELECT business_id, state, count(*) AS c, sum(amount_cents) AS a, sum(amount_paid_cents) AS p
          FROM new_rows GROUP BY business_id, state) s), '[]'::jsonb));
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION payment_request_counts_on_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM payment_request_counts_apply(coalesce((
    SELECT jsonb_agg(jsonb_build_object('business_id', business_id, 'state', state, 'delta', -c, 'amount', -a, 'paid', -p))
    FROM (SELECT business_id, state, count(*) AS c, sum(amount_cents) AS a, sum(amount_paid_cents) AS p
          FROM old_rows GROUP BY business_id, state) s), '[]'::jsonb));
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION payment_request_counts_on_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM payment_request_counts_apply(coalesce((
    SELECT jsonb_agg(jsonb_build_object('business_id', business_id, 'state', state, 'delta', c, 'amount', a, 'paid', p))
    FROM (
      SELECT business_id, state, sum(c) AS c, sum(a) AS a, sum(p) AS p FROM (
        SELECT business_id, state, 1 AS c, amount_cents AS a, amount_paid_cents AS p FROM new_rows
        UNION ALL
        SELECT business_id, state, -1 AS c, -amount_cents AS a, -amount_paid_cents AS p FROM old_rows
      ) u GROUP BY business_id, state
    ) s), '[]'::jsonb));
  RETURN NULL;
END
$$;
