-- Payouts (ADR 035, amended):
-- * PAY- numbers count per business, from `business_counters` like the requests' TRX- numbers,
--   instead of one sequence shared by every business (which told each business how many payouts
--   the others made). Existing payouts keep their numbers; each business goes on after its highest.
-- * A payout remembers whether it was submitted while the business required a second approver, so
--   turning the rule off later does not let its submitter or its creator approve it.
-- * The sending job notes when it first goes to the processor: from then on a retry asks the
--   processor again (same key, same answer) instead of failing a payout that may have been paid.

ALTER TABLE payouts ALTER COLUMN number DROP DEFAULT;
ALTER TABLE payouts DROP CONSTRAINT payouts_number_key;
ALTER TABLE payouts ADD CONSTRAINT payouts_business_number_key UNIQUE (business_id, number);
DROP SEQUENCE payout_numbers;

INSERT INTO business_counters (business_id, name, value)
SELECT business_id, 'payout', max(number) FROM payouts GROUP BY business_id
ON CONFLICT (business_id, name) DO UPDATE SET value = greatest(business_counters.value, excluded.value);

ALTER TABLE payouts ADD COLUMN second_approver_required boolean NOT NULL DEFAULT false;
UPDATE payouts p SET second_approver_required = true
FROM businesses b
WHERE b.id = p.business_id AND p.state = 'Submitted' AND b.payout_approval_required;

ALTER TABLE payouts ADD COLUMN send_started_at timestamptz;
-- Approved, not known to be sent, and due: its job may have reached the processor already.
UPDATE payouts SET send_started_at = now()
WHERE state = 'Approved' AND processor_payout_id IS NULL AND (pay_on IS NULL OR pay_on <= current_date + 1);
