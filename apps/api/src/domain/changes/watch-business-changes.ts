import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import { isMember } from '../businesses/business-scope';
import type { ChangeFeed, ChangeListener, ChangeSubscription } from './change-feed';

/**
 * Subscribes to the business's change notices (the endpoint admitted a member). Await `ready`
 * before telling the client it is live.
 */
export function watchBusinessChanges({ feed, businessId, listener }: { feed: ChangeFeed; businessId: string; listener: ChangeListener }): ChangeSubscription {
  return feed.subscribe(businessId, listener);
}

/** Whether the person may still watch: a stream re-checks now and then, and ends when not. */
export async function mayWatchBusiness({ db, businessId, userId }: { db: Kysely<DB>; businessId: string; userId: string }): Promise<boolean> {
  return isMember(db, businessId, userId);
}
