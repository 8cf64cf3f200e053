-- The built-in stand-ins of QuickBooks Online and FreshBooks (issue 24, ADR 041), answered by this
-- server under /sandbox/quickbooks and /sandbox/freshbooks when no client id is configured. Their
-- state lives here, not in memory, so it survives a restart and the API and the job worker (which
-- may be separate processes) see the same companies, tokens and records.

-- A provider's company. The same name (case and outer spaces aside) is the same company, so
-- connecting it again finds the records already pushed. The switches are the stand-in's test
-- controls (`POST /sandbox/<provider>/switches`).
CREATE TABLE standin_accounting_companies (
  -- QuickBooks realm id / FreshBooks account id: what the provider's paths name.
  id text PRIMARY KEY,
  provider text NOT NULL CHECK (provider IN ('quickbooks', 'freshbooks')),
  name text NOT NULL,
  name_key text NOT NULL,
  refuse_tokens boolean NOT NULL DEFAULT false,
  -- How many of the next API calls answer 429, and the Retry-After they carry.
  rate_limited_calls integer NOT NULL DEFAULT 0 CHECK (rate_limited_calls >= 0),
  retry_after_seconds integer NOT NULL DEFAULT 30 CHECK (retry_after_seconds >= 0),
  fail_record_match text,
  fail_record_message text,
  expire_codes boolean NOT NULL DEFAULT false,
  -- Both providers number their records per company.
  next_record_id integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (provider, name_key)
);

-- Authorization codes, single use, kept hashed. A code names the grant its tokens belong to.
CREATE TABLE standin_accounting_codes (
  code_hash text PRIMARY KEY,
  company_id text NOT NULL REFERENCES standin_accounting_companies (id) ON DELETE CASCADE,
  grant_id text NOT NULL,
  client_id text NOT NULL,
  redirect_uri text NOT NULL,
  -- PKCE (S256), when the authorization request carried one.
  code_challenge text,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Access and refresh tokens, kept hashed. Revoking one revokes its whole grant, as both providers do.
CREATE TABLE standin_accounting_tokens (
  token_hash text PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('access', 'refresh')),
  company_id text NOT NULL REFERENCES standin_accounting_companies (id) ON DELETE CASCADE,
  grant_id text NOT NULL,
  -- Null: no expiry of its own (a FreshBooks refresh token lasts until it is used).
  expires_at timestamptz,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX standin_accounting_tokens_grant ON standin_accounting_tokens (grant_id);

-- What a company holds: customers (clients), invoices and payments in the provider's own JSON.
-- `version` is QuickBooks' SyncToken; it moves on every update (FreshBooks' records keep one too,
-- for tests to see an update).
CREATE TABLE standin_accounting_records (
  company_id text NOT NULL REFERENCES standin_accounting_companies (id) ON DELETE CASCADE,
  type text NOT NULL CHECK (type IN ('customer', 'invoice', 'payment')),
  id text NOT NULL,
  version integer NOT NULL DEFAULT 0,
  body jsonb NOT NULL,
  -- A QuickBooks customer's DisplayName, lower-cased: no two customers of a company share it.
  name_key text,
  -- QuickBooks' `requestid` of the create that made it: the same create again answers this record.
  request_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (company_id, type, id)
);
CREATE UNIQUE INDEX standin_accounting_records_request ON standin_accounting_records (company_id, type, request_id) WHERE request_id IS NOT NULL;
CREATE UNIQUE INDEX standin_accounting_records_name ON standin_accounting_records (company_id, type, name_key) WHERE name_key IS NOT NULL;
