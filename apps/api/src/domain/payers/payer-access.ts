import type { Executor } from '../../db/executor';
import { AppError } from '../../lib/app-error';
import { requireMember } from '../businesses/access';

export interface PayerScope {
  businessId: string;
  userId: string;
}

/** Any member of the business may read its payers; anyone else gets 404 (ADR 004). */
export async function requirePayerReader(executor: Executor, { businessId, userId }: PayerScope): Promise<void> {
  await requireMember(executor, { businessId, userId, access: 'read' });
}

/**
 * Changing payers takes an owner or admin of an Approved business: only Approved unlocks
 * payments (spec §4), and the API refuses, not only the menu. Returns the business's name, which
 * the payer's e-mails use.
 */
export async function requirePayerWriter(executor: Executor, { businessId, userId }: PayerScope): Promise<{ businessName: string }> {
  await requireMember(executor, { businessId, userId, access: 'write' });
  const business = await executor.selectFrom('businesses').select(['state', 'business_name']).where('id', '=', businessId).executeTakeFirst();
  if (!business) throw AppError.notFound('Business');
  if (business.state === 'Approved') return { businessName: business.business_name };
  throw new AppError(
    'BUSINESS_NOT_APPROVED',
    business.state === 'Disabled'
      ? 'Your business is disabled, so its payers cannot be added or changed. Contact Tay support to enable it again.'
      : 'Payers can be added or changed once your business is approved. Finish and submit your business setup first.',
    undefined,
    403,
  );
}
