-- Refunds (ADR 051): money going back to the payer of a captured payment, in full or in part,
-- several times, never more than was paid. `payments.refunded_cents` is the one guard: a refund
-- adds to it in a single UPDATE whose WHERE says it stays within the amount.
ALTER TABLE payments ADD COLUMN refunded_cents bigint NOT NULL DEFAULT 0;
ALTER TABLE payments ADD CONSTRAINT payments_refunded_within_amount CHECK (refunded_cents >= 0 AND refunded_cents <= amount_cents);

CREATE TABLE refunds (
  business_id text NOT NULL REFERENCES businesses (id),
  id text NOT NULL,
  request_id text NOT NULL,
  payment_id text NOT NULL,
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  -- The part of the payment's fee given back with it (FEE_REFUND_RETURNS_FEE), else 0.
  fee_returned_cents bigint NOT NULL DEFAULT 0 CHECK (fee_returned_cents >= 0),
  reason text NOT NULL CHECK (reason IN ('duplicate', 'fraudulent', 'requested_by_payer', 'other')),
  note text,
  state text NOT NULL CHECK (state IN ('Pending', 'Succeeded', 'Failed')),
  failure_reason text,
  processor_refund_id text UNIQUE,
  -- Set in the transaction that decides to call the processor: a retry after it asks again
  -- (the refund id is the processor's idempotency key) instead of giving up.
  send_started_at timestamptz,
  created_by text,
  created_by_email text,
  created_at timestamptz NOT NULL DEFAULT now(),
  processed_at timestamptz,
  PRIMARY KEY (business_id, id),
  FOREIGN KEY (business_id, request_id) REFERENCES payment_requests (business_id, id),
  FOREIGN KEY (business_id, payment_id) REFERENCES payments (business_id, id)
);
CREATE INDEX refunds_business_created_idx ON refunds (business_id, created_at DESC, id DESC);
CREATE INDEX refunds_payment_idx ON refunds (business_id, payment_id);

-- A refund's movements are posted under its own id: one journal transaction per (refund, kind),
-- while the payment's own movements stay one per (payment, kind).
ALTER TABLE journal_transactions ADD COLUMN refund_id text;
ALTER TABLE journal_transactions DROP CONSTRAINT journal_transactions_payment_id_kind_key;
CREATE UNIQUE INDEX journal_transactions_payment_kind_key ON journal_transactions (payment_id, kind) WHERE refund_id IS NULL;
CREATE UNIQUE INDEX journal_transactions_refund_kind_key ON journal_transactions (refund_id, kind) WHERE refund_id IS NOT NULL;
ALTER TABLE journal_transactions DROP CONSTRAINT journal_transactions_kind_check;
ALTER TABLE journal_transactions ADD CONSTRAINT journal_transactions_kind_check CHECK (kind IN (
  'payment_captured', 'payment_settled', 'payment_returned',
  'payout_reserved', 'payout_processed', 'payout_released', 'payout_returned',
  'refund_reserved', 'refund_failed'));
ALTER TABLE journal_transactions ADD CONSTRAINT journal_transactions_refund_kinds CHECK ((refund_id IS NOT NULL) = (kind IN ('refund_reserved', 'refund_failed')));

-- The sandbox processor's refunds of its charges.
CREATE TABLE sandbox_processor_refunds (
  id text PRIMARY KEY,
  charge_id text NOT NULL REFERENCES sandbox_processor_charges (id),
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  idempotency_key text NOT NULL UNIQUE,
  status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  failure_code text,
  metadata jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sandbox_processor_refunds_charge_idx ON sandbox_processor_refunds (charge_id);

-- A sandbox bank account whose debit settles and whose refund fails (the payer's account closed).
ALTER TABLE sandbox_processor_tokens DROP CONSTRAINT sandbox_processor_tokens_behaviour_check;
ALTER TABLE sandbox_processor_tokens ADD CONSTRAINT sandbox_processor_tokens_behaviour_check
  CHECK (behaviour IN ('succeed', 'decline', 'settle_late', 'return_after_settlement', 'insufficient_funds', 'refund_fails'));
