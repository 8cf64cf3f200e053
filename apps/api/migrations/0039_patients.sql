-- The healthcare template (issue 22, ADR 037): patients (the spec's "healthcare clients") with
-- their guarantor (the payer billed: the patient themself or another person), the audit of who
-- viewed a patient's record, and the statement a request carries. A business uses these only
-- when its template (businesses.entity_type) is 'healthCare'.

CREATE TABLE patients (
  business_id text NOT NULL REFERENCES businesses (id),
  id text NOT NULL,
  -- The practice's own patient id (medical record number).
  mrn text NOT NULL CHECK (length(mrn) BETWEEN 1 AND 64),
  first_name text NOT NULL CHECK (length(first_name) BETWEEN 1 AND 100),
  last_name text NOT NULL CHECK (length(last_name) BETWEEN 1 AND 100),
  date_of_birth date NOT NULL,
  -- The payer billed for the patient's statements.
  guarantor_payer_id text NOT NULL,
  -- Who the guarantor is to the patient: the patient themself, or another person.
  guarantor_relationship text NOT NULL DEFAULT 'self' CHECK (guarantor_relationship IN ('self', 'parent', 'spouse', 'child', 'other')),
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'Disabled')),
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (business_id, id),
  FOREIGN KEY (business_id, guarantor_payer_id) REFERENCES payers (business_id, id)
);
CREATE UNIQUE INDEX patients_mrn_key ON patients (business_id, lower(mrn));
CREATE INDEX patients_created_idx ON patients (business_id, created_at DESC, id DESC);
CREATE INDEX patients_guarantor_idx ON patients (business_id, guarantor_payer_id);

-- Every view of a patient's record (who, when): shown on the patient's page. The business's
-- audit log (business_events, action 'patient.viewed') keeps its own copy, which outlives a
-- deleted patient.
CREATE TABLE patient_record_views (
  business_id text NOT NULL,
  patient_id text NOT NULL,
  id bigint GENERATED ALWAYS AS IDENTITY,
  user_id text,
  -- The person's name and e-mail as shown ("Ana Lopez (ana@clinic.example)").
  actor text NOT NULL,
  -- What was viewed: the record, its edit form, its statements.
  what text NOT NULL DEFAULT 'record' CHECK (what IN ('record', 'edit', 'statements')),
  ip_address text,
  viewed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (business_id, patient_id, id),
  FOREIGN KEY (business_id, patient_id) REFERENCES patients (business_id, id) ON DELETE CASCADE
);
CREATE INDEX patient_record_views_recent_idx ON patient_record_views (business_id, patient_id, viewed_at DESC, id DESC);

-- A patient's statement is an ordinary payment request that carries the patient and its lines
-- (the amount due is the sum of the patient responsibility). The payer is the guarantor.
ALTER TABLE payment_requests ADD COLUMN patient_id text;
-- "First Last": the merchant's lists and detail.
ALTER TABLE payment_requests ADD COLUMN patient_name text;
-- What the payer-facing pages and e-mails show of the patient: the first name only.
ALTER TABLE payment_requests ADD COLUMN patient_first_name text;
ALTER TABLE payment_requests ADD COLUMN date_of_service date;
-- [{serviceDate, description, billedCents, insurancePaidCents, adjustmentCents, responsibilityCents}]
ALTER TABLE payment_requests ADD COLUMN statement_lines jsonb;
CREATE INDEX payment_requests_patient_idx ON payment_requests (business_id, patient_id, created_at DESC, id DESC) WHERE patient_id IS NOT NULL;

-- Batches of patients (an import) and of patient billing (a file of charges, one statement per patient).
ALTER TABLE batches DROP CONSTRAINT batches_kind_check;
ALTER TABLE batches ADD CONSTRAINT batches_kind_check CHECK (kind IN ('requests', 'payouts', 'students', 'student-billing', 'patients', 'patient-billing'));
