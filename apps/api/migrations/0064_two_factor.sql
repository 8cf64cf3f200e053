-- A second factor for people who sign in: an authenticator app (TOTP) and ten one-time recovery
-- codes, on better-auth's two-factor plugin (ADR 052). Its tables in snake_case, as 0002's.
ALTER TABLE users ADD COLUMN two_factor_enabled boolean NOT NULL DEFAULT false;

-- One row per person who has started to enrol. `secret` and `backup_codes` are encrypted by
-- better-auth with a key derived from AUTH_SECRET (XChaCha20-Poly1305); neither is ever stored in
-- clear. `verified` is false until the first code from the app checks out: only then is the second
-- factor on. `failed_verification_count` and `locked_until` are better-auth's own lockout.
CREATE TABLE two_factors (
  id text PRIMARY KEY,
  user_id text NOT NULL UNIQUE REFERENCES users (id) ON DELETE CASCADE,
  secret text NOT NULL,
  backup_codes text NOT NULL,
  verified boolean NOT NULL DEFAULT true,
  failed_verification_count integer NOT NULL DEFAULT 0,
  locked_until timestamptz,
  -- The newest 30-second time step whose code was accepted: a code of this step or an earlier
  -- one is refused, so a code that was seen (over a shoulder, in a log) cannot be used again.
  last_totp_step bigint,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- What happened to a person's sign-in protection: the second factor turned on or off, a recovery
-- code used, the recovery codes replaced, a burst of wrong codes. The person's own, not any one
-- business's; it outlives the user row, and is append-only like the business audit trail.
CREATE TABLE user_security_events (
  id text PRIMARY KEY,
  user_id text NOT NULL,
  action text NOT NULL CHECK (action IN (
    'two_factor.enabled',
    'two_factor.disabled',
    'two_factor.recovery_code_used',
    'two_factor.recovery_codes_replaced',
    'two_factor.codes_refused'
  )),
  details jsonb NOT NULL DEFAULT '{}',
  ip_address text,
  created_at timestamptz NOT NULL DEFAULT now(),
  seq bigint GENERATED ALWAYS AS IDENTITY
);
CREATE INDEX user_security_events_user_idx ON user_security_events (user_id, created_at DESC, seq DESC);

CREATE FUNCTION user_security_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'user_security_events is append-only';
END;
$$;
CREATE TRIGGER user_security_events_no_update_or_delete
  BEFORE UPDATE OR DELETE ON user_security_events
  FOR EACH ROW EXECUTE FUNCTION user_security_events_append_only();
CREATE TRIGGER user_security_events_no_truncate
  BEFORE TRUNCATE ON user_security_events
  FOR EACH STATEMENT EXECUTE FUNCTION user_security_events_append_only();
