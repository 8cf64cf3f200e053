import type { Executor } from './executor';

/**
 * Records that the processor's event `id` has been applied, in the transaction that applies it:
 * false when it was applied before (a webhook delivered again, or raced by another replica),
 * and the caller then changes nothing.
 */
export async function firstDelivery(db: Executor, event: { id: string; type: string }): Promise<boolean> {
  const fresh = await db
    .insertInto('processor_events')
    .values({ event_id: event.id, type: event.type })
    .onConflict((oc) => oc.column('event_id').doNothing())
    .returning('event_id')
    .executeTakeFirst();
  return fresh !== undefined;
}
