-- Bulk batches (ADR 032): a file of rows checked, reviewed and sent as one unit. The engine is
-- shared by every kind (requests now; payouts, student and patient billing later).

-- The uploaded file, as it came (the SHA-256 finds an earlier upload of the same content).
CREATE TABLE batch_files (
  business_id text NOT NULL REFERENCES businesses (id),
  batch_id text NOT NULL,
  content bytea NOT NULL,
  PRIMARY KEY (business_id, batch_id)
);

CREATE TABLE batches (
  business_id text NOT NULL REFERENCES businesses (id),
  id text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('requests')),
  file_name text NOT NULL,
  file_bytes integer NOT NULL,
  file_sha256 text NOT NULL,
  -- How the file was read: its text encoding and delimiter, and its header row.
  encoding text NOT NULL,
  delimiter text NOT NULL,
  columns jsonb NOT NULL,
  -- The first rows' cells, for the map step's preview.
  sample jsonb NOT NULL DEFAULT '[]',
  -- Data rows in the file (blank lines left out).
  file_rows integer NOT NULL,
  mapping jsonb NOT NULL,
  state text NOT NULL DEFAULT 'Draft' CHECK (state IN ('Draft', 'Submitted', 'Processed', 'Error')),
  phase text NOT NULL DEFAULT 'uploaded' CHECK (phase IN ('uploaded', 'validating', 'validated', 'sending', 'done')),
  -- Bumped by every new mapping: a validation run for an older one stops and changes nothing.
  mapping_version integer NOT NULL DEFAULT 0,
  -- How far the work under way has got (rows), and when it last moved (a stalled run is resumed).
  progress_done integer NOT NULL DEFAULT 0,
  progress_total integer NOT NULL DEFAULT 0,
  heartbeat_at timestamptz,
  -- The rows by outcome and the sums of what will be and was requested, kept with every change.
  row_count integer NOT NULL DEFAULT 0,
  valid_count integer NOT NULL DEFAULT 0,
  invalid_count integer NOT NULL DEFAULT 0,
  sent_count integer NOT NULL DEFAULT 0,
  failed_count integer NOT NULL DEFAULT 0,
  total_cents bigint NOT NULL DEFAULT 0,
  sent_cents bigint NOT NULL DEFAULT 0,
  -- The submission: send now, or at send_at; who and when.
  send_mode text CHECK (send_mode IN ('send', 'schedule')),
  send_at timestamptz,
  submitted_at timestamptz,
  submitted_by_user_id text,
  submitted_by text,
  processed_at timestamptz,
  created_by_user_id text NOT NULL,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (business_id, id)
);
CREATE INDEX batches_list_idx ON batches (business_id, created_at DESC, id DESC);
CREATE INDEX batches_sha_idx ON batches (business_id, file_sha256, created_at);
-- The sweep that resumes submissions whose worker died.
CREATE INDEX batches_running_idx ON batches (heartbeat_at) WHERE phase IN ('validating', 'sending');

-- One row of a batch's file: its values by field, its outcome, and what it made.
CREATE TABLE batch_rows (
  business_id text NOT NULL,
  batch_id text NOT NULL,
  -- The line of the file where the row starts (the header is line 1).
  line integer NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'valid', 'invalid', 'sent', 'failed')),
  fields jsonb NOT NULL,
  errors jsonb NOT NULL DEFAULT '{}',
  -- What a valid row will do, as the kind reads it (the payer, the amount, the dates…).
  plan jsonb,
  amount_cents bigint,
  payer_name text,
  -- Repeats: the same payer, amount and reference as an earlier row of the file.
  dedupe_key text,
  request_id text,
  PRIMARY KEY (business_id, batch_id, line),
  FOREIGN KEY (business_id, batch_id) REFERENCES batches (business_id, id) ON DELETE CASCADE
);
CREATE INDEX batch_rows_status_idx ON batch_rows (business_id, batch_id, status, line);

-- Requests a batch made: the history filters by it and the detail names it.
ALTER TABLE payment_requests ADD COLUMN batch_id text;
CREATE INDEX payment_requests_batch_idx ON payment_requests (business_id, batch_id, created_at DESC, id DESC) WHERE batch_id IS NOT NULL;
