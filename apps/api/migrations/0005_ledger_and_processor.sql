-- The double-entry ledger (architecture §5): an append-only journal; every money movement is one
-- journal transaction whose entries sum to zero; balances are derived from entries.
CREATE TABLE ledger_accounts (
  id text PRIMARY KEY,
  -- NULL for the platform's own accounts (fees, processor clearing).
  business_id text REFERENCES businesses (id),
  kind text NOT NULL CHECK (kind IN ('business_pending', 'business_available', 'business_payouts_in_flight', 'platform_fees', 'processor_clearing')),
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((business_id IS NULL) = (kind IN ('platform_fees', 'processor_clearing')))
);
CREATE UNIQUE INDEX ledger_accounts_business_kind_key ON ledger_accounts (business_id, kind) WHERE business_id IS NOT NULL;
CREATE UNIQUE INDEX ledger_accounts_platform_kind_key ON ledger_accounts (kind) WHERE business_id IS NULL;

CREATE TABLE journal_transactions (
  id text PRIMARY KEY,
  business_id text NOT NULL REFERENCES businesses (id),
  kind text NOT NULL CHECK (kind IN ('payment_captured', 'payment_settled', 'payment_returned')),
  -- The payment this movement belongs to; one journal transaction of each kind per payment.
  payment_id text NOT NULL,
  description text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (payment_id, kind)
);
CREATE INDEX journal_transactions_business_idx ON journal_transactions (business_id, created_at DESC);

-- Debits are positive, credits negative; each transaction's entries sum to zero.
CREATE TABLE journal_entries (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  transaction_id text NOT NULL REFERENCES journal_transactions (id),
  account_id text NOT NULL REFERENCES ledger_accounts (id),
  amount_cents bigint NOT NULL CHECK (amount_cents <> 0),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX journal_entries_account_idx ON journal_entries (account_id);
CREATE INDEX journal_entries_transaction_idx ON journal_entries (transaction_id);

-- Append-only: the database refuses to change or remove what was posted.
CREATE FUNCTION ledger_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the ledger is append-only: % on % is refused', TG_OP, TG_TABLE_NAME
    USING ERRCODE = 'insufficient_privilege';
END
$$;
CREATE TRIGGER journal_entries_append_only BEFORE UPDATE OR DELETE ON journal_entries
  FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
CREATE TRIGGER journal_transactions_append_only BEFORE UPDATE OR DELETE ON journal_transactions
  FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
CREATE TRIGGER journal_entries_no_truncate BEFORE TRUNCATE ON journal_entries
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change();

-- Balanced: checked when the inserting transaction commits, so all entries can be written first.
CREATE FUNCTION ledger_check_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  total bigint;
  n integer;
BEGIN
  SELECT coalesce(sum(amount_cents), 0), count(*) INTO total, n FROM journal_entries WHERE transaction_id = NEW.transaction_id;
  IF total <> 0 OR n < 2 THEN
    RAISE EXCEPTION 'journal transaction % is not balanced (% entries summing to %)', NEW.transaction_id, n, total
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END
$$;
CREATE CONSTRAINT TRIGGER journal_entries_balanced AFTER INSERT ON journal_entries
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_check_balanced();

-- Idempotency keys of money-moving requests (Stripe semantics): same key + same body → the stored
-- response; same key + different body → 422; while the first is still running → 409.
CREATE TABLE idempotency_keys (
  scope text NOT NULL,
  key text NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
  request_hash text NOT NULL,
  state text NOT NULL CHECK (state IN ('in_progress', 'completed')),
  response_status integer,
  response_body jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (scope, key)
);
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);

-- Webhook events received from the payment processor, by event id: each is processed once.
CREATE TABLE processor_events (
  event_id text PRIMARY KEY,
  type text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now()
);

-- The built-in sandbox processor's own records (it stands in for an external processor: our API
-- only ever sees its tokens, never card or account numbers).
CREATE TABLE sandbox_processor_tokens (
  id text PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('card', 'bank_account')),
  brand text NOT NULL,
  last4 text NOT NULL CHECK (last4 ~ '^[0-9]{4}$'),
  -- What this test instrument does when charged (see the README's sandbox table).
  behaviour text NOT NULL CHECK (behaviour IN ('succeed', 'decline', 'settle_late', 'return_after_settlement', 'insufficient_funds')),
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE sandbox_processor_charges (
  id text PRIMARY KEY,
  token_id text NOT NULL REFERENCES sandbox_processor_tokens (id),
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  -- The merchant's idempotency key for the charge (our payment id): one charge per payment.
  idempotency_key text NOT NULL UNIQUE,
  status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed', 'settled', 'returned')),
  failure_code text,
  metadata jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE sandbox_processor_webhooks (
  id text PRIMARY KEY,
  type text NOT NULL,
  payload jsonb NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  delivered_at timestamptz,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now()
);
