import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import type { Mailer } from '../../mail/mailer';
import type { ProcessorEvent } from '../../processor/port';
import { markCaptured, markFailed, markReturned, markSettled, type OutcomeContext } from './charge-outcomes';
import { lockRequestAndPayment } from './payment-record';
import { firstDelivery } from '../../db/processor-events';

export type EventOutcome = 'applied' | 'duplicate' | 'unchanged' | 'unknown-payment';

/**
 * A verified webhook from the processor. The event id is recorded in the same transaction that
 * applies it: a replay finds it already there and changes nothing, and a failure leaves it
 * unrecorded so the processor's retry applies it later. Events for a payment we do not know (or a
 * charge id that is not the payment's) are recorded and ignored.
 */
export async function applyProcessorEvent(
  { db, mailer }: { db: Kysely<DB>; mailer: Pick<Mailer, 'send' | 'sendText'> },
  event: ProcessorEvent,
): Promise<EventOutcome> {
  return db.transaction().execute(async (trx) => {
    if (!(await firstDelivery(trx, event))) return 'duplicate';
    const { businessId, paymentId } = event.data.metadata;
    const locked = await lockRequestAndPayment(trx, businessId, paymentId);
    if (!locked) return 'unknown-payment';
    if (locked.payment.processor_charge_id && locked.payment.processor_charge_id !== event.data.chargeId) return 'unknown-payment';
    const ctx: OutcomeContext = { trx, mailer, ...locked };
    const message = event.data.failureMessage ?? 'The payment did not go through.';
    let changed: boolean;
    switch (event.type) {
      case 'charge.succeeded':
        changed = await markCaptured(ctx, event.data.chargeId);
        break;
      case 'charge.failed':
        changed = await markFailed(ctx, { chargeId: event.data.chargeId, message });
        break;
      case 'charge.settled':
        if (!ctx.payment.processor_charge_id) await markCaptured(ctx, event.data.chargeId);
        changed = await markSettled(ctx);
        break;
      case 'charge.returned':
        if (!ctx.payment.processor_charge_id) await markCaptured(ctx, event.data.chargeId);
        changed = await markReturned(ctx, { message });
        break;
    }
    return changed ? 'applied' : 'unchanged';
  });
}
