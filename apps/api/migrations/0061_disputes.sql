-- Disputes (ADR 051): a payer's bank takes a captured card payment back and the business may answer
-- with evidence. One dispute per payment (the processor opens at most one per charge), so the
-- ledger's movements of a dispute are the payment's own (payment, kind): `dispute_opened` takes
-- the disputed amount and the dispute fee from the available balance, `dispute_won` gives them back.
CREATE TABLE disputes (
  business_id text NOT NULL REFERENCES businesses (id),
  id text NOT NULL,
  request_id text NOT NULL,
  payment_id text NOT NULL,
  processor_dispute_id text NOT NULL UNIQUE,
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  -- FEE_DISPUTE_CENTS when it opened; what came back of it when won (FEE_DISPUTE_WON_RETURNS_FEE).
  fee_cents bigint NOT NULL CHECK (fee_cents >= 0),
  fee_returned_cents bigint NOT NULL DEFAULT 0 CHECK (fee_returned_cents >= 0 AND fee_returned_cents <= fee_cents),
  reason text NOT NULL CHECK (reason IN ('fraudulent', 'unrecognized', 'duplicate', 'product_not_received', 'product_unacceptable', 'credit_not_processed', 'general')),
  state text NOT NULL CHECK (state IN ('NeedsResponse', 'UnderReview', 'Won', 'Lost', 'Accepted')),
  evidence_due_at timestamptz NOT NULL,
  -- The text the business answered with (the files are in dispute_evidence_files).
  evidence jsonb,
  submitted_at timestamptz,
  submitted_by text,
  -- Set in the transaction that decides to tell the processor (evidence or acceptance); cleared once it knows.
  send_pending text CHECK (send_pending IN ('evidence', 'accept')),
  reminder_sent_at timestamptz,
  closed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (business_id, id),
  UNIQUE (business_id, payment_id),
  FOREIGN KEY (business_id, request_id) REFERENCES payment_requests (business_id, id),
  FOREIGN KEY (business_id, payment_id) REFERENCES payments (business_id, id)
);
CREATE INDEX disputes_business_created_idx ON disputes (business_id, created_at DESC, id DESC);
-- Home's "Needs response" and the reminder a week before the due date.
CREATE INDEX disputes_open_due_idx ON disputes (evidence_due_at) WHERE state = 'NeedsResponse';

CREATE TABLE dispute_evidence_files (
  business_id text NOT NULL,
  id text NOT NULL,
  dispute_id text NOT NULL,
  file_name text NOT NULL,
  content_type text NOT NULL CHECK (content_type IN ('application/pdf', 'image/png', 'image/jpeg')),
  size_bytes integer NOT NULL CHECK (size_bytes > 0 AND size_bytes <= 5242880),
  content bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (business_id, id),
  FOREIGN KEY (business_id, dispute_id) REFERENCES disputes (business_id, id)
);
CREATE INDEX dispute_evidence_files_dispute_idx ON dispute_evidence_files (business_id, dispute_id);

ALTER TABLE journal_transactions DROP CONSTRAINT journal_transactions_kind_check;
ALTER TABLE journal_transactions ADD CONSTRAINT journal_transactions_kind_check CHECK (kind IN (
  'payment_captured', 'payment_settled', 'payment_returned',
  'payout_reserved', 'payout_processed', 'payout_released', 'payout_returned',
  'refund_reserved', 'refund_failed',
  'dispute_opened', 'dispute_won'));

-- The sandbox processor's disputes of its charges.
CREATE TABLE sandbox_processor_disputes (
  id text PRIMARY KEY,
  charge_id text NOT NULL UNIQUE REFERENCES sandbox_processor_charges (id),
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  reason text NOT NULL,
  status text NOT NULL CHECK (status IN ('needs_response', 'under_review', 'won', 'lost')),
  evidence jsonb,
  due_by timestamptz NOT NULL,
  metadata jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- A card disputed after it settles (4000 0000 0000 0259); a bank account whose debit is returned as unauthorised (R10).
ALTER TABLE sandbox_processor_tokens DROP CONSTRAINT sandbox_processor_tokens_behaviour_check;
ALTER TABLE sandbox_processor_tokens ADD CONSTRAINT sandbox_processor_tokens_behaviour_check
  CHECK (behaviour IN ('succeed', 'decline', 'settle_late', 'return_after_settlement', 'insufficient_funds', 'refund_fails', 'dispute', 'return_unauthorized'));
