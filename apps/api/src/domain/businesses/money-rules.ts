import { ErrorCode, mayMoveMoney, moneyRefusal, type MemberRole, type MoneyAct } from '@tay/contract';
import type { Executor } from '../../db/executor';
import { AppError } from '../../lib/app-error';

/**
 * The person's role in the business, read in the caller's transaction and held (FOR SHARE) until
 * it commits: a demotion or removal that commits meanwhile waits for the money to move, or the
 * money waits for it. Null when they are no longer a member.
 */
export async function roleNow(trx: Executor, businessId: string, userId: string): Promise<MemberRole | null> {
  const row = await trx
    .selectFrom('business_members')
    .select('role')
    .where('business_id', '=', businessId)
    .where('user_id', '=', userId)
    .forShare()
    .executeTakeFirst();
  return row?.role ?? null;
}

/** Whether the person may do the act now (`MONEY_RULES` in the contract), asked inside the transaction that does it. */
export async function mayNow(trx: Executor, businessId: string, userId: string, act: MoneyAct): Promise<boolean> {
  const role = await roleNow(trx, businessId, userId);
  return role !== null && mayMoveMoney(role, act);
}

/**
 * Refuses (403 `FORBIDDEN`, or 404 for someone no longer a member) a person whose role, read in
 * this transaction, may not do the act: the rule is decided where the money moves, whatever the
 * endpoint or the screen let through.
 */
export async function requireMoneyRule(trx: Executor, businessId: string, userId: string, act: MoneyAct): Promise<MemberRole> {
  const role = await roleNow(trx, businessId, userId);
  if (role === null) throw AppError.notFound('Business');
  if (!mayMoveMoney(role, act)) throw new AppError(ErrorCode.Forbidden, moneyRefusal(act));
  return role;
}
