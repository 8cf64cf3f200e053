-- Payments out (issue 20, ADR 035): receivers who enter their own bank account on a secure link,
-- payouts to them with an approval step that reserves the money in the ledger, and events whose
-- QR code receivers scan to check in.

-- Whether a second member must approve a submitted payout (the submitter cannot approve their own).
ALTER TABLE businesses ADD COLUMN payout_approval_required boolean NOT NULL DEFAULT false;

CREATE TABLE receivers (
  business_id text NOT NULL REFERENCES businesses (id),
  id text NOT NULL,
  first_name text NOT NULL CHECK (length(first_name) BETWEEN 1 AND 100),
  last_name text NOT NULL CHECK (length(last_name) BETWEEN 1 AND 100),
  email text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
  mobile text,
  -- The business's own reference for the receiver (a bulk payout file may name it instead of the e-mail).
  reference text CHECK (reference IS NULL OR length(reference) BETWEEN 1 AND 64),
  verification text NOT NULL DEFAULT 'unverified' CHECK (verification IN ('unverified', 'verified')),
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'Disabled')),
  -- The bank account the receiver entered on their secure link; the full number only sealed
  -- (AES-256-GCM, the bank accounts' secret box), never returned to the business.
  bank_name text,
  routing_number text CHECK (routing_number IS NULL OR routing_number ~ '^[0-9]{9}$'),
  account_number_last4 text CHECK (account_number_last4 IS NULL OR account_number_last4 ~ '^[0-9]{4}$'),
  account_number_encrypted text,
  account_type text CHECK (account_type IS NULL OR account_type IN ('checking', 'savings')),
  account_holder_name text,
  bank_set_at timestamptz,
  -- The secure link: only the SHA-256 of its token is kept; a new link replaces the old one.
  link_token_hash text,
  link_expires_at timestamptz,
  link_sent_at timestamptz,
  -- Kept with every payout that is processed or returned.
  paid_count integer NOT NULL DEFAULT 0,
  paid_cents bigint NOT NULL DEFAULT 0,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (business_id, id),
  CHECK ((verification = 'verified') = (account_number_encrypted IS NOT NULL))
);
CREATE UNIQUE INDEX receivers_email_key ON receivers (business_id, lower(email));
CREATE UNIQUE INDEX receivers_reference_key ON receivers (business_id, lower(reference)) WHERE reference IS NOT NULL;
CREATE UNIQUE INDEX receivers_link_key ON receivers (link_token_hash) WHERE link_token_hash IS NOT NULL;
CREATE INDEX receivers_created_idx ON receivers (business_id, created_at DESC, id DESC);

CREATE TABLE events (
  business_id text NOT NULL REFERENCES businesses (id),
  id text NOT NULL,
  -- What the printed code encodes (PUBLIC_URL/checkin/<token>): random, never the id.
  token text NOT NULL CHECK (token ~ '^[A-Za-z0-9_-]{22,64}$'),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  event_date date NOT NULL,
  place text NOT NULL DEFAULT '',
  amount_cents bigint NOT NULL CHECK (amount_cents > 0 AND amount_cents <= 1000000000),
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'Disabled')),
  check_ins_count integer NOT NULL DEFAULT 0,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (business_id, id)
);
CREATE UNIQUE INDEX events_token_key ON events (token);
CREATE INDEX events_created_idx ON events (business_id, created_at DESC, id DESC);

-- A receiver checks in to an event once.
CREATE TABLE event_check_ins (
  business_id text NOT NULL,
  event_id text NOT NULL,
  receiver_id text NOT NULL,
  checked_in_at timestamptz NOT NULL DEFAULT now(),
  -- The payout that paid this check-in, once "Pay checked-in receivers" made one.
  payout_id text,
  PRIMARY KEY (business_id, event_id, receiver_id),
  FOREIGN KEY (business_id, event_id) REFERENCES events (business_id, id),
  FOREIGN KEY (business_id, receiver_id) REFERENCES receivers (business_id, id)
);

CREATE SEQUENCE payout_numbers START 1000;

CREATE TABLE payouts (
  business_id text NOT NULL REFERENCES businesses (id),
  id text NOT NULL,
  -- Shown as PAY-<number>.
  number bigint NOT NULL DEFAULT nextval('payout_numbers') UNIQUE,
  receiver_id text NOT NULL,
  -- The receiver's name and e-mail when the payout was made (the list reads these).
  receiver_name text NOT NULL,
  receiver_email text NOT NULL,
  amount_cents bigint NOT NULL CHECK (amount_cents > 0 AND amount_cents <= 1000000000),
  -- The fee the business pays for this payout, fixed when it is approved.
  fee_cents bigint NOT NULL DEFAULT 0 CHECK (fee_cents >= 0),
  memo text NOT NULL DEFAULT '',
  -- The day (business time zone) it is to be sent; null or past: as soon as it is approved.
  pay_on date,
  state text NOT NULL DEFAULT 'Draft'
    CHECK (state IN ('Draft', 'Submitted', 'Approved', 'Processed', 'Rejected', 'Error', 'Cancelled')),
  batch_id text,
  event_id text,
  reject_reason text,
  failure_reason text,
  processor_payout_id text,
  created_by text,
  submitted_by text,
  submitted_at timestamptz,
  approved_by text,
  approved_at timestamptz,
  processed_at timestamptz,
  finished_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (business_id, id),
  FOREIGN KEY (business_id, receiver_id) REFERENCES receivers (business_id, id)
);
CREATE INDEX payouts_created_idx ON payouts (business_id, created_at DESC, id DESC);
CREATE INDEX payouts_state_idx ON payouts (business_id, state, created_at DESC);
CREATE INDEX payouts_receiver_idx ON payouts (business_id, receiver_id, created_at DESC);
CREATE INDEX payouts_batch_idx ON payouts (business_id, batch_id) WHERE batch_id IS NOT NULL;

-- Each payout's timeline: every state change with who and why.
CREATE TABLE payout_events (
  business_id text NOT NULL,
  id text NOT NULL,
  payout_id text NOT NULL,
  event text NOT NULL,
  from_state text,
  to_state text,
  detail text,
  actor text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (business_id, id),
  FOREIGN KEY (business_id, payout_id) REFERENCES payouts (business_id, id)
);
CREATE INDEX payout_events_payout_idx ON payout_events (business_id, payout_id, created_at);

-- The ledger's payout movements (the journal's payment_id column holds the payout id for these):
-- approval reserves available → in flight; processing pays it out (to the processor, the fee to
-- the platform); a failure or a return gives it back.
ALTER TABLE journal_transactions DROP CONSTRAINT journal_transactions_kind_check;
ALTER TABLE journal_transactions ADD CONSTRAINT journal_transactions_kind_check CHECK (kind IN (
  'payment_captured', 'payment_settled', 'payment_returned',
  'payout_reserved', 'payout_processed', 'payout_released', 'payout_returned'));

-- Batches of payouts through the bulk engine.
ALTER TABLE batches DROP CONSTRAINT batches_kind_check;
ALTER TABLE batches ADD CONSTRAINT batches_kind_check CHECK (kind IN ('requests', 'payouts'));
-- A payouts batch made by "Pay checked-in receivers": its payouts pay that event's check-ins.
ALTER TABLE batches ADD COLUMN event_id text;

-- The sandbox processor's credits (payouts) to bank accounts.
CREATE TABLE sandbox_processor_payouts (
  id text PRIMARY KEY,
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  routing_number text NOT NULL,
  account_last4 text NOT NULL,
  behaviour text NOT NULL CHECK (behaviour IN ('paid', 'returned')),
  -- The merchant's idempotency key (our payout id): one credit per payout.
  idempotency_key text NOT NULL UNIQUE,
  status text NOT NULL CHECK (status IN ('pending', 'paid', 'returned')),
  failure_code text,
  metadata jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
