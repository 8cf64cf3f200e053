-- The student template (issue 21, ADR 036): students with their guardians (payers), programs,
-- enrollments, billing cycles and their runs. A business uses these only when its template
-- (businesses.entity_type) is 'student'. Requests made for a student carry the student, the
-- program and the period; a charge row per enrollment and period is what makes a period billed
-- once, whatever made the request (a cycle's run, program billing, a rerun, two workers).

CREATE TABLE students (
  business_id text NOT NULL REFERENCES businesses (id),
  id text NOT NULL,
  -- The school's own student id.
  student_number text NOT NULL CHECK (length(student_number) BETWEEN 1 AND 64),
  first_name text NOT NULL CHECK (length(first_name) BETWEEN 1 AND 100),
  last_name text NOT NULL CHECK (length(last_name) BETWEEN 1 AND 100),
  -- Grade or group ("5", "Year 7", "U12 Blue"); '' when none.
  grade text NOT NULL DEFAULT '' CHECK (length(grade) <= 50),
  date_of_birth date,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'Disabled')),
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (business_id, id)
);
CREATE UNIQUE INDEX students_number_key ON students (business_id, lower(student_number));
CREATE INDEX students_created_idx ON students (business_id, created_at DESC, id DESC);
CREATE INDEX students_grade_idx ON students (business_id, grade);

-- A student has one or two guardians (payers); a payer may guard several students.
CREATE TABLE student_guardians (
  business_id text NOT NULL,
  student_id text NOT NULL,
  payer_id text NOT NULL,
  -- 1 for the first guardian (billed by default), 2 for the second.
  position smallint NOT NULL CHECK (position IN (1, 2)),
  PRIMARY KEY (business_id, student_id, payer_id),
  UNIQUE (business_id, student_id, position),
  FOREIGN KEY (business_id, student_id) REFERENCES students (business_id, id) ON DELETE CASCADE,
  FOREIGN KEY (business_id, payer_id) REFERENCES payers (business_id, id)
);
CREATE INDEX student_guardians_payer_idx ON student_guardians (business_id, payer_id);

CREATE TABLE programs (
  business_id text NOT NULL REFERENCES businesses (id),
  id text NOT NULL,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  description text NOT NULL DEFAULT '' CHECK (length(description) <= 500),
  fee_cents bigint NOT NULL CHECK (fee_cents > 0 AND fee_cents <= 1000000000),
  frequency text NOT NULL CHECK (frequency IN ('one_time', 'monthly', 'term')),
  start_date date NOT NULL,
  end_date date,
  -- How many students may be enrolled at once; null for no limit.
  capacity integer CHECK (capacity IS NULL OR capacity > 0),
  -- Whether an enrollment that starts (or ends) inside a period is billed for its share of it.
  prorate boolean NOT NULL DEFAULT false,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'Disabled')),
  -- Active enrollments, kept with every enroll and withdraw (the capacity check locks the row).
  enrolled_count integer NOT NULL DEFAULT 0 CHECK (enrolled_count >= 0),
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (business_id, id),
  CHECK (end_date IS NULL OR end_date >= start_date),
  CHECK (capacity IS NULL OR enrolled_count <= capacity)
);
CREATE UNIQUE INDEX programs_name_key ON programs (business_id, lower(name));
CREATE INDEX programs_created_idx ON programs (business_id, created_at DESC, id DESC);

CREATE TABLE enrollments (
  business_id text NOT NULL,
  id text NOT NULL,
  student_id text NOT NULL,
  program_id text NOT NULL,
  start_date date NOT NULL,
  -- Set when withdrawn: the last day billed for.
  end_date date,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'Withdrawn')),
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  withdrawn_at timestamptz,
  withdrawn_by text,
  PRIMARY KEY (business_id, id),
  FOREIGN KEY (business_id, student_id) REFERENCES students (business_id, id),
  FOREIGN KEY (business_id, program_id) REFERENCES programs (business_id, id),
  CHECK (end_date IS NULL OR end_date >= start_date - 1)
);
-- A student is enrolled in a program once at a time.
CREATE UNIQUE INDEX enrollments_active_key ON enrollments (business_id, student_id, program_id) WHERE status = 'active';
CREATE INDEX enrollments_program_idx ON enrollments (business_id, program_id, status);
CREATE INDEX enrollments_student_idx ON enrollments (business_id, student_id);

CREATE TABLE billing_cycles (
  business_id text NOT NULL REFERENCES businesses (id),
  id text NOT NULL,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  -- monthly: every month on day_of_month; term and custom: the periods listed in `periods`.
  schedule text NOT NULL CHECK (schedule IN ('monthly', 'term', 'custom')),
  day_of_month smallint CHECK (day_of_month IS NULL OR day_of_month BETWEEN 1 AND 28),
  -- term / custom: [{"start":"YYYY-MM-DD","end":"YYYY-MM-DD","label":"…"}], in order.
  periods jsonb NOT NULL DEFAULT '[]',
  -- The programs it bills (ids).
  program_ids jsonb NOT NULL DEFAULT '[]',
  -- true: a run submits its batch at once; false: the batch waits in review.
  auto_submit boolean NOT NULL DEFAULT false,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'Disabled')),
  -- The business's calendar day of the next run (its midnight); null when nothing is left to run.
  next_run_on date,
  last_run_at timestamptz,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (business_id, id),
  CHECK ((schedule = 'monthly') = (day_of_month IS NOT NULL))
);
CREATE INDEX billing_cycles_due_idx ON billing_cycles (next_run_on) WHERE status = 'active' AND next_run_on IS NOT NULL;

-- One run per cycle and period: a rerun, a restart or a second worker finds it and makes nothing.
CREATE TABLE billing_cycle_runs (
  business_id text NOT NULL,
  id text NOT NULL,
  cycle_id text NOT NULL,
  period_start date NOT NULL,
  period_end date NOT NULL,
  -- "December 2026", "Term 1 2026–27".
  period_label text NOT NULL,
  batch_id text,
  state text NOT NULL DEFAULT 'Running' CHECK (state IN ('Running', 'Drafted', 'Submitted', 'Empty', 'Error')),
  requests_count integer NOT NULL DEFAULT 0,
  total_cents bigint NOT NULL DEFAULT 0,
  -- 'schedule' (the job at the business's midnight, or a catch-up) or 'manual' (Run now).
  trigger text NOT NULL CHECK (trigger IN ('schedule', 'manual')),
  error text,
  started_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  PRIMARY KEY (business_id, id),
  UNIQUE (business_id, cycle_id, period_start),
  FOREIGN KEY (business_id, cycle_id) REFERENCES billing_cycles (business_id, id),
  CHECK (period_end >= period_start)
);

-- What an enrollment was billed for a period: at most once, whichever path billed it. A row is
-- written when the request is made (a batch row sent), in the same transaction; a discarded
-- draft batch made no row, so its enrollments can be billed again.
CREATE TABLE student_charges (
  business_id text NOT NULL,
  enrollment_id text NOT NULL,
  period_start date NOT NULL,
  period_end date NOT NULL,
  student_id text NOT NULL,
  program_id text NOT NULL,
  request_id text NOT NULL,
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (business_id, enrollment_id, period_start),
  FOREIGN KEY (business_id, enrollment_id) REFERENCES enrollments (business_id, id)
);
CREATE INDEX student_charges_student_idx ON student_charges (business_id, student_id, period_start);

-- Requests for a student: who, for which program and period (shown on the request, its e-mail
-- and the pay page; filtered on in the billing history).
ALTER TABLE payment_requests ADD COLUMN student_id text;
ALTER TABLE payment_requests ADD COLUMN student_name text;
ALTER TABLE payment_requests ADD COLUMN program_id text;
ALTER TABLE payment_requests ADD COLUMN program_name text;
-- The period's label ("December 2026"); period_start orders and filters it.
ALTER TABLE payment_requests ADD COLUMN period text;
ALTER TABLE payment_requests ADD COLUMN period_start date;
-- "Bill both guardians": one request (one payment settles it), paid by the first guardian and
-- e-mailed with the same link to the second as well.
ALTER TABLE payment_requests ADD COLUMN copy_payer_id text;
CREATE INDEX payment_requests_student_idx ON payment_requests (business_id, student_id, created_at DESC, id DESC) WHERE student_id IS NOT NULL;
CREATE INDEX payment_requests_program_idx ON payment_requests (business_id, program_id, created_at DESC, id DESC) WHERE program_id IS NOT NULL;

-- Batches of students (an import) and of student billing (a cycle's run, program billing, bulk).
ALTER TABLE batches DROP CONSTRAINT batches_kind_check;
ALTER TABLE batches ADD CONSTRAINT batches_kind_check CHECK (kind IN ('requests', 'payouts', 'students', 'student-billing'));
-- A student-billing batch made by a cycle's run.
ALTER TABLE batches ADD COLUMN billing_run_id text;
