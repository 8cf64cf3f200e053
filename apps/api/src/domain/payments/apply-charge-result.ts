import type { Kysely } from 'kysely';
import type { FeeSchedule } from '../../config';
import type { DB } from '../../db/schema';
import type { Jobs } from '../../jobs/queue';
import type { Mailer } from '../../mail/mailer';
import type { ChargeResult, PaymentProcessor } from '../../processor/port';
import { lockRequestAndPayment } from './payment-record';
import { markCaptured, markFailed, recordCharge, type OutcomeContext } from './charge-outcomes';

/** What the payment use cases need besides their own input. */
export interface PaymentDeps {
  db: Kysely<DB>;
  processor: PaymentProcessor;
  mailer: Pick<Mailer, 'send' | 'sendText'>;
  jobs: Pick<Jobs, 'send'>;
  fees: FeeSchedule;
  log: { warn(details: object, message: string): void };
}

/**
 * Applies the processor's answer to `charge` in one short transaction (no processor call inside):
 * captured → Processed; failed → Rejected; pending → the charge id is kept and webhooks follow.
 */
export async function applyChargeResult(
  deps: Pick<PaymentDeps, 'db' | 'mailer'>,
  ids: { businessId: string; paymentId: string },
  result: ChargeResult,
): Promise<OutcomeContext> {
  return deps.db.transaction().execute(async (trx) => {
    const locked = await lockRequestAndPayment(trx, ids.businessId, ids.paymentId);
    if (!locked) throw new Error(`Payment ${ids.paymentId} of ${ids.businessId} does not exist`);
    const ctx: OutcomeContext = { trx, mailer: deps.mailer, ...locked };
    if (result.status === 'succeeded') await markCaptured(ctx, result.chargeId);
    else if (result.status === 'failed') await markFailed(ctx, { chargeId: result.chargeId, message: result.failureMessage });
    else await recordCharge(ctx, result.chargeId);
    return ctx;
  });
}
