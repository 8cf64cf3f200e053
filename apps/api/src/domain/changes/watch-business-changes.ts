import type { ChangeFeed, ChangeListener, ChangeSubscription } from './change-feed';

/**
 * Subscribes to the business's change notices (the endpoint admitted a member). Await `ready`
 * before telling the client it is live.
 */
export function watchBusinessChanges({ feed, businessId, listener }: { feed: ChangeFeed; businessId: string; listener: ChangeListener }): ChangeSubscription {
  return feed.subscribe(businessId, listener);
}
