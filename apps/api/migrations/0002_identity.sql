-- Identity (better-auth tables, snake_case) and the database-held rate limiter.
CREATE TABLE users (
  id text PRIMARY KEY,
  name text NOT NULL,
  email text NOT NULL UNIQUE CHECK (email = lower(email)),
  email_verified boolean NOT NULL DEFAULT false,
  image text,
  first_name text,
  last_name text,
  mobile_number text,
  enroll_notification_via_email boolean NOT NULL DEFAULT true,
  enroll_notification_via_mobile_number boolean NOT NULL DEFAULT false,
  user_state text NOT NULL DEFAULT 'Incomplete' CHECK (user_state IN ('Incomplete', 'complete')),
  must_change_password boolean NOT NULL DEFAULT false,
  temporary_password_expires_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE sessions (
  id text PRIMARY KEY,
  expires_at timestamptz NOT NULL,
  token text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  ip_address text,
  user_agent text,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE
);
CREATE INDEX sessions_user_id_idx ON sessions (user_id);

CREATE TABLE accounts (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  provider_id text NOT NULL,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  access_token text,
  refresh_token text,
  id_token text,
  access_token_expires_at timestamptz,
  refresh_token_expires_at timestamptz,
  scope text,
  password text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX accounts_user_id_idx ON accounts (user_id);

-- Confirmation and password-reset codes; `value` holds the keyed hash of the code.
CREATE TABLE verifications (
  id text PRIMARY KEY,
  identifier text NOT NULL,
  value text NOT NULL,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX verifications_identifier_idx ON verifications (identifier);

-- Fixed-window counters shared by every process: `key` names the action and the client or
-- account (e.g. `sign-in:account:ana@example.com`).
CREATE TABLE rate_limits (
  key text PRIMARY KEY,
  count integer NOT NULL,
  window_ends_at timestamptz NOT NULL
);
CREATE INDEX rate_limits_window_ends_at_idx ON rate_limits (window_ends_at);
