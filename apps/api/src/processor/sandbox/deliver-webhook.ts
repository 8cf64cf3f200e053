import type { Kysely, Transaction } from 'kysely';
import { jobDb } from '../../db/executor';
import type { DB } from '../../db/schema';
import type { Jobs } from '../../jobs/queue';
import { signatureHeader } from '../signature';

/**
 * Records a processor event and queues its delivery, in the transaction of the change it reports:
 * a change that rolls back sends nothing, and one that commits is delivered even after a crash.
 */
export async function queueWebhook(trx: Transaction<DB>, jobs: Pick<Jobs, 'send'>, event: { id: string; type: string }): Promise<void> {
  await trx
    .insertInto('sandbox_processor_webhooks')
    .values({ id: event.id, type: event.type, payload: JSON.stringify(event), delivered_at: null, last_error: null })
    .execute();
  await jobs.send('sandbox.deliver-webhook', { webhookId: event.id }, { db: jobDb(trx), singletonKey: event.id });
}

export interface DeliverWebhookOptions {
  db: Kysely<DB>;
  url: string;
  secret: string;
  webhookId: string;
  timeoutMs?: number;
}

/**
 * The `sandbox.deliver-webhook` job: POSTs one recorded event, signed, to the merchant's webhook
 * URL. Any answer but 2xx (or no answer) is recorded and thrown, so pg-boss retries with backoff;
 * an event already delivered is not sent again.
 */
export async function deliverWebhook({
  db,
  url,
  secret,
  webhookId,
  timeoutMs = 10_000,
}: DeliverWebhookOptions): Promise<'delivered' | 'already-delivered' | 'not-found'> {
  const hook = await db.selectFrom('sandbox_processor_webhooks').selectAll().where('id', '=', webhookId).executeTakeFirst();
  if (!hook) return 'not-found';
  if (hook.delivered_at) return 'already-delivered';
  const body = JSON.stringify(hook.payload);
  let failure: string | null = null;
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'tay-signature': signatureHeader(secret, body), 'user-agent': 'TaySandboxProcessor/1' },
      body,
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
    });
    if (!response.ok) failure = `HTTP ${response.status}: ${(await response.text()).slice(0, 500)}`;
  } catch (error) {
    failure = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  }
  await db
    .updateTable('sandbox_processor_webhooks')
    .set((eb) => ({
      attempts: eb('attempts', '+', 1),
      last_error: failure,
      ...(failure ? {} : { delivered_at: new Date() }),
    }))
    .where('id', '=', webhookId)
    .execute();
  if (failure) throw new Error(`Webhook ${webhookId} to ${url} failed: ${failure}`);
  return 'delivered';
}
