import { ErrorCode, type BusinessState } from '@tay/contract';
import type { Executor } from '../../db/executor';
import { AppError } from '../../lib/app-error';

export interface OperatorTarget {
  id: string;
  businessName: string;
  state: BusinessState;
}

/**
 * The business an operator names on the command line: its id (`biz_…`), or the e-mail of its
 * owner when they own exactly one business.
 */
export async function findBusinessForOperator({ db, ref }: { db: Executor; ref: string }): Promise<OperatorTarget> {
  const value = ref.trim();
  if (value.startsWith('biz_')) {
    const row = await db.selectFrom('businesses').select(['id', 'business_name', 'state']).where('id', '=', value).executeTakeFirst();
    if (!row) throw new AppError(ErrorCode.NotFound, `No business has the id ${value}.`);
    return { id: row.id, businessName: row.business_name, state: row.state };
  }
  if (!value.includes('@')) throw AppError.validation(`"${ref}" is neither a business id (biz_…) nor an e-mail address.`);
  const email = value.toLowerCase();
  const rows = await db
    .selectFrom('business_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .innerJoin('businesses as b', 'b.id', 'm.business_id')
    .select(['b.id', 'b.business_name', 'b.state'])
    .where('u.email', '=', email)
    .where('m.role', '=', 'owner')
    .orderBy('b.created_at')
    .execute();
  if (rows.length === 0) throw new AppError(ErrorCode.NotFound, `No business is owned by ${email}.`);
  if (rows.length > 1) {
    const list = rows.map((r) => `  ${r.id}  ${r.business_name} (${r.state})`).join('\n');
    throw new AppError(ErrorCode.Conflict, `${email} owns ${rows.length} businesses; name one by its id:\n${list}`);
  }
  const [row] = rows as [(typeof rows)[number]];
  return { id: row.id, businessName: row.business_name, state: row.state };
}
