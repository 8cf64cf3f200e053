-- Accounting integrations (issue 24, ADR 041): a business's connection to QuickBooks Online or
-- FreshBooks, the one-use OAuth states, the links from our records to the provider's, and the
-- sync log. Tokens are sealed with the secret box (AES-256-GCM, the business and provider bound
-- as associated data); nothing here holds a token in clear.

CREATE TABLE integrations (
  business_id text NOT NULL REFERENCES businesses (id),
  provider text NOT NULL CHECK (provider IN ('quickbooks', 'freshbooks')),
  state text NOT NULL CHECK (state IN ('not_connected', 'connected', 'needs_reconnect')),
  account_id text,
  company_name text,
  connected_at timestamptz,
  connected_by text,
  access_token_sealed text,
  refresh_token_sealed text,
  access_expires_at timestamptz,
  refresh_expires_at timestamptz,
  -- A run holds the lease until it ends or the lease lapses (a process that died).
  sync_state text NOT NULL DEFAULT 'idle' CHECK (sync_state IN ('idle', 'queued', 'running')),
  sync_lease_until timestamptz,
  last_sync_at timestamptz,
  last_sync_pushed integer,
  last_sync_failed integer,
  problem text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (business_id, provider),
  CHECK (state <> 'connected' OR (account_id IS NOT NULL AND access_token_sealed IS NOT NULL AND refresh_token_sealed IS NOT NULL))
);
-- The five-minute sweep finds connected integrations without reading every business.
CREATE INDEX integrations_connected_idx ON integrations (provider, business_id) WHERE state = 'connected';

-- One row per Connect: the state's hash (never the state), who asked, the PKCE verifier sealed.
-- Used once (deleted by the callback) and only within OAUTH_STATE_TTL_SECONDS.
CREATE TABLE integration_oauth_states (
  state_hash text PRIMARY KEY,
  business_id text NOT NULL REFERENCES businesses (id),
  provider text NOT NULL,
  user_id text NOT NULL,
  code_verifier_sealed text NOT NULL,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX integration_oauth_states_expiry_idx ON integration_oauth_states (expires_at);

-- Our record ↔ the provider's, per company (account): reconnecting the same company keeps them, so
-- a second sync updates; another company starts afresh. `pushed_hash` is what was last pushed.
CREATE TABLE integration_links (
  business_id text NOT NULL REFERENCES businesses (id),
  provider text NOT NULL,
  account_id text NOT NULL,
  record_type text NOT NULL CHECK (record_type IN ('customer', 'invoice', 'payment')),
  local_id text NOT NULL,
  remote_id text,
  remote_version text,
  pushed_hash text,
  pushed_at timestamptz,
  -- The last push failed with this (the provider's words); cleared by a push that succeeds.
  failure text,
  failed_at timestamptz,
  PRIMARY KEY (business_id, provider, account_id, record_type, local_id)
);
CREATE INDEX integration_links_failed_idx ON integration_links (business_id, provider, account_id) WHERE failure IS NOT NULL;

CREATE TABLE integration_log (
  business_id text NOT NULL REFERENCES businesses (id),
  provider text NOT NULL,
  id text NOT NULL,
  direction text NOT NULL CHECK (direction IN ('push', 'connection')),
  record_type text CHECK (record_type IN ('customer', 'invoice', 'payment')),
  record_id text,
  record_label text NOT NULL,
  remote_id text,
  outcome text NOT NULL CHECK (outcome IN ('created', 'updated', 'failed', 'info')),
  message text,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- Ids are time-ordered: the key serves the log page, newest first.
  PRIMARY KEY (business_id, provider, id)
);
