import { sql, type Kysely, type Transaction } from 'kysely';
import { ErrorCode } from '@tay/contract';
import type { DB } from '../../db/schema';
import type { Mailer } from '../../mail/mailer';
import { AppError } from '../../lib/app-error';
import type { Actor } from './transition';

/** What every request use case needs besides its own input. */
export interface RequestContext {
  db: Kysely<DB>;
  mailer: Pick<Mailer, 'send' | 'sendText'>;
  /** Keys the payer links (see `payToken`). */
  authSecret: string;
  /** Secrets `authSecret` replaced, whose links requests sent before the rotation still carry. */
  previousAuthSecrets?: readonly string[];
  publicUrl: string;
}

export interface ActingUser {
  userId: string;
  email: string;
}

export function userActor(user: ActingUser): Actor {
  return { type: 'user', id: user.userId, label: user.email };
}

export interface BusinessForRequests {
  id: string;
  business_name: string;
  state: string;
  time_zone: string;
  default_expiry_days: number;
}

/**
 * The business, if the person may act on its requests: a member (404 otherwise), and for any
 * change an owner/admin of an Approved business — the API refuses, not only the menu.
 */
export async function businessForRequests(
  db: Kysely<DB> | Transaction<DB>,
  { businessId, userId, access }: { businessId: string; userId: string; access: 'read' | 'write' },
): Promise<BusinessForRequests> {
  // One round trip: the membership and the business together (lists run this on every page).
  const business = await db
    .selectFrom('businesses as b')
    .innerJoin('business_members as m', (join) => join.onRef('m.business_id', '=', 'b.id').on('m.user_id', '=', userId))
    .select(['b.id', 'b.business_name', 'b.state', 'b.time_zone', 'b.default_expiry_days', 'm.role'])
    .where('b.id', '=', businessId)
    .executeTakeFirst();
  if (!business) throw AppError.notFound('Business');
  if (access === 'write' && business.role === 'member') {
    throw new AppError(ErrorCode.Forbidden, 'Only an owner or admin of this business can change it.');
  }
  if (access === 'write' && business.state !== 'Approved') {
    throw new AppError(
      ErrorCode.Forbidden,
      business.state === 'Disabled'
        ? 'This business is disabled, so it cannot request payments. Contact Tay support.'
        : 'Requests to pay can be created and sent once your business is approved.',
    );
  }
  return business;
}

/** The next per-business number of a kind (TRX-10001, TRX-10002…), gap-free within a commit. */
export async function nextNumber(trx: Transaction<DB>, businessId: string, name: string, first: number): Promise<number> {
  const { rows } = await sql<{ value: number }>`
    INSERT INTO business_counters (business_id, name, value) VALUES (${businessId}, ${name}, ${first})
    ON CONFLICT (business_id, name) DO UPDATE SET value = business_counters.value + 1
    RETURNING value`.execute(trx);
  return Number(rows[0]!.value);
}
