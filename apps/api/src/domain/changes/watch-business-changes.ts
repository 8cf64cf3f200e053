import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { requireMember } from '../businesses/access';
import type { ChangeFeed, ChangeListener, ChangeSubscription } from './change-feed';

/**
 * Subscribes a member of the business to its change notices; anyone else gets 404, as if the
 * business did not exist. Await `ready` before telling the client it is live.
 */
export async function watchBusinessChanges({
  db,
  feed,
  businessId,
  userId,
  listener,
}: {
  db: Kysely<DB>;
  feed: ChangeFeed;
  businessId: string;
  userId: string;
  listener: ChangeListener;
}): Promise<ChangeSubscription> {
  await requireMember(db, { businessId, userId, access: 'read' });
  return feed.subscribe(businessId, listener);
}

/** Whether the person may still watch: a stream re-checks now and then, and ends when not. */
export async function mayWatchBusiness({ db, businessId, userId }: { db: Kysely<DB>; businessId: string; userId: string }): Promise<boolean> {
  try {
    await requireMember(db, { businessId, userId, access: 'read' });
    return true;
  } catch (error) {
    if (error instanceof AppError) return false;
    throw error;
  }
}
