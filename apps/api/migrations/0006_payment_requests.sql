-- Requests to pay ("transactions" in the portal), their timeline, and the payments made on them.
CREATE TABLE payment_requests (
  business_id text NOT NULL REFERENCES businesses (id),
  id text NOT NULL,
  -- Per-business number shown as TRX-<number>.
  number bigint NOT NULL,
  payer_id text NOT NULL,
  -- Copied from the payer when the request is made: lists show and search them without a join.
  payer_display_name text NOT NULL,
  payer_email text NOT NULL,
  amount_cents bigint NOT NULL CHECK (amount_cents > 0 AND amount_cents <= 1000000000),
  amount_paid_cents bigint NOT NULL DEFAULT 0 CHECK (amount_paid_cents >= 0),
  memo text NOT NULL DEFAULT '',
  reference text NOT NULL DEFAULT '',
  due_date date NOT NULL,
  expires_on date NOT NULL CHECK (expires_on >= due_date),
  allow_partial boolean NOT NULL DEFAULT false,
  state text NOT NULL CHECK (state IN ('Draft', 'Pending', 'Sent', 'Resent', 'Accepted', 'Paid', 'PartiallyPaid', 'Error', 'Rejected', 'Expired', 'Withdrawn', 'Cancelled')),
  send_at timestamptz,
  sent_at timestamptz,
  paid_at timestamptz,
  -- SHA-256 of the token in the payer's link (/pay/<token>); the link itself is never stored.
  pay_token_hash text,
  -- The last reminder that went out, as an offset in days from the due date.
  last_reminder_offset integer,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (business_id, id),
  FOREIGN KEY (business_id, payer_id) REFERENCES payers (business_id, id),
  CHECK (amount_paid_cents <= amount_cents),
  CHECK (state <> 'Pending' OR (send_at IS NOT NULL AND sent_at IS NULL))
);
CREATE UNIQUE INDEX payment_requests_number_key ON payment_requests (business_id, number);
CREATE UNIQUE INDEX payment_requests_pay_token_key ON payment_requests (pay_token_hash) WHERE pay_token_hash IS NOT NULL;
-- The history list (newest first), by status, by payer, by due date and amount, and search.
CREATE INDEX payment_requests_created_idx ON payment_requests (business_id, created_at DESC, id DESC);
CREATE INDEX payment_requests_state_created_idx ON payment_requests (business_id, state, created_at DESC, id DESC);
CREATE INDEX payment_requests_payer_idx ON payment_requests (business_id, payer_id, created_at DESC);
CREATE INDEX payment_requests_due_idx ON payment_requests (business_id, due_date, id);
CREATE INDEX payment_requests_amount_idx ON payment_requests (business_id, amount_cents, id);
CREATE INDEX payment_requests_payer_name_prefix_idx ON payment_requests (business_id, lower(payer_display_name) text_pattern_ops);
CREATE INDEX payment_requests_payer_email_prefix_idx ON payment_requests (business_id, payer_email text_pattern_ops);
-- Background jobs: scheduled sends, expiry and reminders look across businesses by date.
CREATE INDEX payment_requests_send_at_idx ON payment_requests (send_at) WHERE state = 'Pending';
CREATE INDEX payment_requests_open_expiry_idx ON payment_requests (expires_on) WHERE state IN ('Sent', 'Resent', 'Error');

-- Every state change: who, when, what (the detail view's timeline).
CREATE TABLE payment_request_events (
  business_id text NOT NULL,
  request_id text NOT NULL,
  id bigint GENERATED ALWAYS AS IDENTITY,
  actor_type text NOT NULL CHECK (actor_type IN ('user', 'payer', 'system', 'operations')),
  actor_id text,
  actor_label text NOT NULL,
  event text NOT NULL,
  from_state text,
  to_state text,
  detail text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (business_id, request_id, id),
  FOREIGN KEY (business_id, request_id) REFERENCES payment_requests (business_id, id) ON DELETE CASCADE
);

-- One attempt to move money for a request (domain.md "Payment").
CREATE TABLE payments (
  business_id text NOT NULL REFERENCES businesses (id),
  id text NOT NULL,
  request_id text NOT NULL,
  method text NOT NULL CHECK (method IN ('card', 'bank_account')),
  -- "Visa •••• 4242": what the processor told us; never a full number.
  instrument text NOT NULL,
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  fee_cents bigint NOT NULL CHECK (fee_cents >= 0 AND fee_cents < amount_cents),
  state text NOT NULL CHECK (state IN ('Pending', 'Processed', 'Rejected', 'Returned')),
  failure_reason text,
  processor_charge_id text UNIQUE,
  payer_email text,
  created_at timestamptz NOT NULL DEFAULT now(),
  processed_at timestamptz,
  settled_at timestamptz,
  returned_at timestamptz,
  PRIMARY KEY (business_id, id),
  FOREIGN KEY (business_id, request_id) REFERENCES payment_requests (business_id, id)
);
CREATE INDEX payments_request_idx ON payments (business_id, request_id, created_at);
