import { ErrorCode, isBusinessEditable } from '@tay/contract';
import type { Executor } from '../../db/executor';
import type { MemberRole } from '../../db/schema/business';
import { AppError } from '../../lib/app-error';
import type { BusinessRow } from './business-record';

/**
 * Tenant isolation: the person must be a member of the business. A business they do not belong
 * to answers exactly like one that does not exist (404), so ids reveal nothing. Changing it takes
 * the owner or admin role.
 */
export async function requireMember(
  executor: Executor,
  { businessId, userId, access }: { businessId: string; userId: string; access: 'read' | 'write' },
): Promise<MemberRole> {
  const member = await executor
    .selectFrom('business_members')
    .select('role')
    .where('business_id', '=', businessId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!member) throw AppError.notFound('Business');
  if (access === 'write' && member.role === 'member') {
    throw new AppError(ErrorCode.Forbidden, 'Only an owner or admin of this business can change it.');
  }
  return member.role;
}

/** Details can change while the business is Incomplete or Approved (contract `BUSINESS_EDITABLE_STATES`). */
export function assertEditable(row: Pick<BusinessRow, 'state'>): void {
  if (isBusinessEditable(row.state)) return;
  throw new AppError(
    ErrorCode.Conflict,
    row.state === 'Pending'
      ? 'This business has been submitted and is being reviewed; its details cannot change until the review is finished.'
      : 'This business is disabled, so its details cannot change. Contact Tay support to reactivate it.',
  );
}
