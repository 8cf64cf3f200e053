-- Payers: the people and companies a business asks for money (domain.md "Payer").
CREATE TABLE payers (
  business_id text NOT NULL REFERENCES businesses (id),
  id text NOT NULL,
  first_name text NOT NULL DEFAULT '',
  last_name text NOT NULL DEFAULT '',
  company_name text NOT NULL DEFAULT '',
  -- What lists show and the typeahead searches: the company, or "First Last".
  display_name text NOT NULL CHECK (length(display_name) BETWEEN 1 AND 300),
  email text NOT NULL CHECK (email = lower(email)),
  mobile_number text,
  -- The merchant's own reference (account number, student id…), unique per business.
  reference text,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'Disabled')),
  verification text NOT NULL DEFAULT 'unverified' CHECK (verification IN ('unverified', 'verified')),
  -- SHA-256 of the token in the verification link; the link itself is never stored.
  verification_token_hash text,
  verification_sent_at timestamptz,
  verified_at timestamptz,
  -- Set by an import: which file row created it (re-importing the same file creates nothing twice).
  import_batch_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (business_id, id)
);
CREATE UNIQUE INDEX payers_email_key ON payers (business_id, email);
CREATE UNIQUE INDEX payers_reference_key ON payers (business_id, reference) WHERE reference IS NOT NULL;
CREATE UNIQUE INDEX payers_verification_token_key ON payers (verification_token_hash) WHERE verification_token_hash IS NOT NULL;
-- Lists (newest first) and "begins with" search on name and e-mail.
CREATE INDEX payers_created_idx ON payers (business_id, created_at DESC, id DESC);
CREATE INDEX payers_name_prefix_idx ON payers (business_id, lower(display_name) text_pattern_ops);
CREATE INDEX payers_email_prefix_idx ON payers (business_id, email text_pattern_ops);

-- Per-business counters for human references (TRX-10234, INV-0042, PO-0007).
CREATE TABLE business_counters (
  business_id text NOT NULL REFERENCES businesses (id),
  name text NOT NULL,
  value bigint NOT NULL,
  PRIMARY KEY (business_id, name)
);
