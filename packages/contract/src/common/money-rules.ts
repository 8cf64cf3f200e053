import { MEMBER_ROLES, roleAllows, type Access, type MemberRole } from './endpoint';

/**
 * Who may move money: one line per money-moving act, each naming the access level of
 * {@link ROLE_ACCESS} it needs. The use case that moves the money asks this table inside its own
 * transaction, with the role it reads there (`apps/api/src/domain/businesses/money-rules.ts`);
 * the endpoint table declares the same access for its endpoints; the web greys out by it; and
 * `docs/product.md` §6 prints it (`moneyRuleTable`).
 */
export const MONEY_RULES = {
  collect: {
    access: 'business:operate',
    act: 'Request money: requests to pay, invoices, QR codes, bulk requests, student and patient billing',
  },
  preparePayout: {
    access: 'business:operate',
    act: 'Add receivers; create, edit, submit and cancel payouts (a member’s wait, Submitted, for an owner or admin)',
  },
  approvePayout: {
    access: 'business:write',
    act: 'Approve or reject payouts — single, bulk and checked-in — and review the receivers a member or a check-in added',
  },
  refund: {
    access: 'business:write',
    act: 'Refund a payment, in full or in part',
  },
  dispute: {
    access: 'business:write',
    act: 'Answer a dispute with evidence, or accept it',
  },
  settlementAccount: {
    access: 'business:owner',
    act: 'Change the settlement bank account the business is paid into',
  },
} as const satisfies Record<string, { access: Access; act: string }>;

export type MoneyAct = keyof typeof MONEY_RULES;

/** Whether a role may do a money-moving act. */
export function mayMoveMoney(role: MemberRole, act: MoneyAct): boolean {
  return roleAllows(role, MONEY_RULES[act].access);
}

/** What a role that may not do the act is told (403 `FORBIDDEN`). */
export function moneyRefusal(act: MoneyAct): string {
  switch (act) {
    case 'approvePayout':
      return 'Only an owner or admin of this business can approve or reject payouts and review receivers.';
    case 'settlementAccount':
      return 'Only an owner of this business can change its settlement bank account.';
    case 'refund':
      return 'Only an owner or admin of this business can refund a payment.';
    case 'dispute':
      return 'Only an owner or admin of this business can answer or accept a dispute.';
    default:
      return 'Your role in this business is view only: you can read and export, not change.';
  }
}

/** The table as rows of the act and, per role, whether it may: what `docs/product.md` §6 shows. */
export function moneyRuleTable(): { act: MoneyAct; words: string; roles: Record<MemberRole, boolean> }[] {
  return (Object.keys(MONEY_RULES) as MoneyAct[]).map((act) => ({
    act,
    words: MONEY_RULES[act].act,
    roles: Object.fromEntries(MEMBER_ROLES.map((role) => [role, mayMoveMoney(role, act)])) as Record<MemberRole, boolean>,
  }));
}
