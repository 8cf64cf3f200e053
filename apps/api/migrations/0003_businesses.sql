-- Businesses (tenants), who belongs to them, their owners, settlement bank accounts and an
-- append-only audit trail. Child tables key on (business_id, id): business_id is the tenant and
-- the future distribution key (architecture §3), so it leads every key and index.
CREATE TABLE businesses (
  id text PRIMARY KEY,
  state text NOT NULL DEFAULT 'Incomplete' CHECK (state IN ('Incomplete', 'Pending', 'Approved', 'Disabled')),
  -- Set by operations only; 1 unlocks payouts (spec §3).
  payout_enabled smallint NOT NULL DEFAULT 0 CHECK (payout_enabled IN (0, 1)),
  entity_type text NOT NULL CHECK (entity_type IN ('standard', 'student', 'healthCare')),
  business_name text NOT NULL CHECK (length(business_name) BETWEEN 1 AND 200),

  legal_name text,
  dba_name text,
  ein text CHECK (ein ~ '^[0-9]{9}$'),
  mcc text CHECK (mcc ~ '^[0-9]{4}$'),
  corporate_structure text,
  non_profit_code text,
  phone text,
  email text,
  website text,

  -- The address is written whole: either line1, city, state, postal code and country are all
  -- set or none is.
  address_line1 text,
  address_line2 text,
  address_city text,
  address_state text,
  address_postal_code text,
  address_country text CHECK (address_country = 'US'),
  CHECK (
    (address_line1 IS NULL AND address_city IS NULL AND address_state IS NULL AND address_postal_code IS NULL AND address_country IS NULL)
    OR (address_line1 IS NOT NULL AND address_city IS NOT NULL AND address_state IS NOT NULL AND address_postal_code IS NOT NULL AND address_country IS NOT NULL)
  ),

  time_zone text NOT NULL DEFAULT 'America/New_York',
  default_expiry_days integer NOT NULL DEFAULT 30 CHECK (default_expiry_days BETWEEN 1 AND 365),
  -- Days relative to the due date when reminders go out (negative: before).
  reminder_schedule integer[] NOT NULL DEFAULT '{-3,0,3}',
  invoice_terms text,
  auto_reminders boolean NOT NULL DEFAULT true,
  auto_expire boolean NOT NULL DEFAULT true,

  logo bytea,
  logo_content_type text CHECK (logo_content_type IN ('image/png', 'image/jpeg', 'image/webp', 'image/svg+xml')),
  logo_updated_at timestamptz,
  CHECK ((logo IS NULL) = (logo_content_type IS NULL) AND (logo IS NULL) = (logo_updated_at IS NULL)),

  submitted_at timestamptz,
  approved_at timestamptz,
  -- Why operations disabled the business, while it is disabled.
  state_reason text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE business_members (
  business_id text NOT NULL REFERENCES businesses (id),
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (business_id, user_id)
);
-- GET /api/user: the businesses of one person.
CREATE INDEX business_members_user_id_idx ON business_members (user_id);

CREATE TABLE business_owners (
  business_id text NOT NULL REFERENCES businesses (id),
  id text NOT NULL,
  -- Order in which the owner listed them.
  position smallint NOT NULL CHECK (position >= 0),
  first_name text NOT NULL,
  last_name text NOT NULL,
  title text NOT NULL,
  ownership_percent smallint NOT NULL CHECK (ownership_percent BETWEEN 0 AND 100),
  date_of_birth date NOT NULL,
  ssn_last4 text NOT NULL CHECK (ssn_last4 ~ '^[0-9]{4}$'),
  email text NOT NULL,
  phone text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (business_id, id)
);
CREATE UNIQUE INDEX business_owners_business_position_idx ON business_owners (business_id, position);

CREATE TABLE bank_accounts (
  business_id text NOT NULL REFERENCES businesses (id),
  id text NOT NULL,
  -- A sandbox directory bank id, or 'manual' for a typed routing number not in the directory.
  directory_id text NOT NULL,
  bank_name text NOT NULL,
  routing_number text NOT NULL CHECK (routing_number ~ '^[0-9]{9}$'),
  account_number_last4 text NOT NULL CHECK (account_number_last4 ~ '^[0-9]{4}$'),
  -- AES-256-GCM ciphertext of the full number (key derived from AUTH_SECRET); never returned.
  account_number_encrypted text NOT NULL,
  account_type text NOT NULL CHECK (account_type IN ('checking', 'savings')),
  account_holder_name text NOT NULL,
  is_settlement boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- When a newer settlement account took its place (kept for the audit trail).
  replaced_at timestamptz,
  PRIMARY KEY (business_id, id)
);
-- At most one settlement account per business.
CREATE UNIQUE INDEX bank_accounts_one_settlement_idx ON bank_accounts (business_id) WHERE is_settlement;

-- Who changed what, when: one row per create, update, submission, state or payout change, bank
-- account and logo change. actor_user_id is null for operations and background jobs; actor is
-- the readable name at the time (the user's e-mail, 'operations', …).
CREATE TABLE business_events (
  business_id text NOT NULL REFERENCES businesses (id),
  id text NOT NULL,
  actor_user_id text,
  actor text NOT NULL,
  action text NOT NULL,
  details jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (business_id, id)
);
CREATE INDEX business_events_business_created_idx ON business_events (business_id, created_at DESC);

-- The audit trail is append-only: the database refuses to rewrite history.
CREATE FUNCTION business_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'business_events is append-only';
END;
$$;
CREATE TRIGGER business_events_no_update_or_delete
  BEFORE UPDATE OR DELETE ON business_events
  FOR EACH ROW EXECUTE FUNCTION business_events_append_only();
