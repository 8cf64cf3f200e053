-- A kind of batch whose rows are sent in groups (patient billing, ADR 037: the charges of one
-- patient make one statement) counts its groups beside its rows: the valid rows' groups (what
-- submitting makes) and the requests its sent rows made. Other kinds keep 0 in both.
ALTER TABLE batches ADD COLUMN group_count integer NOT NULL DEFAULT 0;
ALTER TABLE batches ADD COLUMN sent_group_count integer NOT NULL DEFAULT 0;
