-- Team members, roles and the audit log (ADR 031).

-- A fourth role: viewers read and export only. What each role may do is the contract's
-- ROLE_ACCESS (packages/contract/src/common/endpoint.ts).
ALTER TABLE business_members DROP CONSTRAINT business_members_role_check;
ALTER TABLE business_members ADD CONSTRAINT business_members_role_check CHECK (role IN ('owner', 'admin', 'member', 'viewer'));

-- The Team page's "last sign-in": every new session stamps its person.
ALTER TABLE users ADD COLUMN last_signed_in_at timestamptz;
CREATE FUNCTION users_stamp_sign_in() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE users SET last_signed_in_at = NEW.created_at WHERE id = NEW.user_id;
  RETURN NULL;
END
$$;
CREATE TRIGGER sessions_stamp_sign_in AFTER INSERT ON sessions FOR EACH ROW EXECUTE FUNCTION users_stamp_sign_in();

-- An invitation of a person who already has a Tay account: they accept it signed in, through the
-- link e-mailed to them (only its hash is kept). A new person is made a member at once instead,
-- with a temporary password, and meets the new-password challenge at first sign-in.
CREATE TABLE business_invitations (
  business_id text NOT NULL REFERENCES businesses (id),
  id text NOT NULL,
  email text NOT NULL CHECK (email = lower(email)),
  role text NOT NULL CHECK (role IN ('owner', 'admin', 'member', 'viewer')),
  token_hash text NOT NULL UNIQUE,
  invited_by_user_id text NOT NULL,
  invited_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  accepted_at timestamptz,
  revoked_at timestamptz,
  PRIMARY KEY (business_id, id)
);
-- At most one open invitation per address and business.
CREATE UNIQUE INDEX business_invitations_open_idx ON business_invitations (business_id, email) WHERE accepted_at IS NULL AND revoked_at IS NULL;

-- The address a change came from, for the audit log.
ALTER TABLE business_events ADD COLUMN ip_address text;
ALTER TABLE payment_request_events ADD COLUMN ip_address text;
-- Entries of one transaction share its time: `seq` keeps the order they were written in.
ALTER TABLE business_events ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY;
-- The audit log reads a business's trail newest first, by person too.
CREATE INDEX business_events_log_idx ON business_events (business_id, created_at DESC, seq DESC);
CREATE INDEX business_events_actor_idx ON business_events (business_id, actor_user_id, created_at DESC);

-- A request's events are its timeline (deleted with a deleted draft); the audit log keeps its own
-- copy of each, in the append-only trail, so a change is on record however the request ends.
CREATE FUNCTION business_events_of_request_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO business_events (business_id, id, actor_user_id, actor, action, details, created_at, ip_address)
  SELECT e.business_id, 'evt_' || replace(gen_random_uuid()::text, '-', ''),
         CASE WHEN e.actor_type = 'user' THEN e.actor_id END, e.actor_label, 'request.' || e.event,
         jsonb_strip_nulls(jsonb_build_object('requestId', e.request_id, 'reference', 'TRX-' || r.number, 'from', e.from_state, 'to', e.to_state, 'detail', e.detail)),
         e.created_at, e.ip_address
  FROM changed_rows e JOIN payment_requests r ON r.business_id = e.business_id AND r.id = e.request_id
  ORDER BY e.id;
  RETURN NULL;
END
$$;
CREATE TRIGGER payment_request_events_to_audit AFTER INSERT ON payment_request_events
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION business_events_of_request_events();

-- A request's audit copy is not a change of the business: the request's own notice covers it.
CREATE OR REPLACE FUNCTION business_changes_of_business_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM business_changes_add(array_agg(business_id), 'business', array_agg(business_id))
  FROM (SELECT DISTINCT business_id FROM changed_rows WHERE action NOT LIKE 'payer%' AND action NOT LIKE 'request.%') g;
  PERFORM business_changes_add(array_agg(business_id), 'payer', array_agg(entity_id))
  FROM (
    SELECT business_id, CASE WHEN count(*) = 1 THEN min(details ->> 'payerId') END AS entity_id
    FROM changed_rows WHERE action LIKE 'payer%' GROUP BY business_id) g;
  RETURN NULL;
END
$$;
