-- A typo moves real money (issue 35): each business has two amount limits for a request to pay,
-- an invoice or a payout. Above `confirm_above_cents` the person confirms the amount, repeated in
-- words, before it goes out; above `amount_ceiling_cents` it is refused, naming the limit. The
-- ceiling is at most the product's own limit of $10,000,000.00.
ALTER TABLE businesses ADD COLUMN confirm_above_cents bigint NOT NULL DEFAULT 1000000 CHECK (confirm_above_cents BETWEEN 100 AND 1000000000);
ALTER TABLE businesses ADD COLUMN amount_ceiling_cents bigint NOT NULL DEFAULT 1000000000 CHECK (amount_ceiling_cents BETWEEN 100 AND 1000000000);
