-- Who may move money (docs/product.md §6, the money rules):
-- * A receiver says how it was added (by the team, or by a check-in on an event's page) and
--   whether an owner or admin has reviewed it. A receiver a member or a check-in added is not
--   reviewed until an owner or admin marks it so, or approves a payout to it; a bulk payout row
--   (and "Pay checked-in receivers") leaves out a receiver not reviewed.
-- * Receivers already on record: reviewed when an owner or admin added them, or a payout to them
--   was approved; those from check-ins are `check_in` (only the check-in page adds a receiver with
--   no creator).
-- * An event may cap its check-ins and close them at a time.

ALTER TABLE receivers ADD COLUMN added_via text NOT NULL DEFAULT 'team' CHECK (added_via IN ('team', 'check_in'));
ALTER TABLE receivers ADD COLUMN reviewed_at timestamptz;
ALTER TABLE receivers ADD COLUMN reviewed_by text;

UPDATE receivers SET added_via = 'check_in' WHERE created_by IS NULL;
UPDATE receivers r SET reviewed_at = r.created_at, reviewed_by = r.created_by
WHERE EXISTS (
  SELECT 1 FROM business_members m
  WHERE m.business_id = r.business_id AND m.user_id = r.created_by AND m.role IN ('owner', 'admin')
);
UPDATE receivers r SET reviewed_at = now()
WHERE r.reviewed_at IS NULL AND EXISTS (
  SELECT 1 FROM payouts p WHERE p.business_id = r.business_id AND p.receiver_id = r.id AND p.approved_at IS NOT NULL
);
CREATE INDEX receivers_unreviewed_idx ON receivers (business_id, created_at DESC, id DESC) WHERE reviewed_at IS NULL;

ALTER TABLE events ADD COLUMN max_check_ins integer CHECK (max_check_ins IS NULL OR max_check_ins BETWEEN 1 AND 100000);
ALTER TABLE events ADD COLUMN check_ins_close_at timestamptz;
