-- Whether a refund may take the business's available balance below zero (ADR 051). Off by
-- default: a refund the balance cannot cover is refused with the shortfall named. On, the refund
-- goes through and the shortfall is owed to Tay: no payout is approved until payments bring the
-- available balance back above zero (apps/api/src/domain/payouts/approve-payouts.ts).
ALTER TABLE businesses ADD COLUMN allow_negative_balance boolean NOT NULL DEFAULT false;
