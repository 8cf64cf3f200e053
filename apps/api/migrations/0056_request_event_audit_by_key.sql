-- The audit copy of a request's timeline events (0028) reads each event's request by its key.
-- It joined the statement's new events to payment_requests, and while that table grows quickly
-- from empty (a new deployment's first large bulk send, before autovacuum has analyzed it) the
-- planner took it for a few hundred rows and hashed all of it for every 500 events: a send of
-- 100,000 rows went quadratic. A lookup per event by the primary key has no plan to get wrong.
CREATE OR REPLACE FUNCTION business_events_of_request_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO business_events (business_id, id, actor_user_id, actor, action, details, created_at, ip_address)
  SELECT e.business_id, 'evt_' || replace(gen_random_uuid()::text, '-', ''),
         CASE WHEN e.actor_type = 'user' THEN e.actor_id END, e.actor_label, 'request.' || e.event,
         jsonb_strip_nulls(jsonb_build_object('requestId', e.request_id, 'reference', 'TRX-' || e.number, 'from', e.from_state, 'to', e.to_state, 'detail', e.detail)),
         e.created_at, e.ip_address
  FROM (
    SELECT c.*, (SELECT r.number FROM payment_requests r WHERE r.business_id = c.business_id AND r.id = c.request_id) AS number
    FROM changed_rows c
  ) e
  WHERE e.number IS NOT NULL
  ORDER BY e.id;
  RETURN NULL;
END
$$;
