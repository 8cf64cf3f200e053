import type { Kysely, Selectable, Transaction } from 'kysely';
import { jobDb } from '../../db/executor';
import type { DB } from '../../db/schema';
import type { SandboxProcessorChargesTable, SandboxProcessorTokensTable } from '../../db/schema/payments';
import type { Jobs } from '../../jobs/queue';
import { newId } from '../../lib/ids';
import { queueWebhook } from './deliver-webhook';
import type { ChargeRequest, ChargeResult, InstrumentInfo, PaymentProcessor, ProcessorEvent, ProcessorEventType } from '../port';
import { instrumentLabel, type Instrument } from './instruments';
import { sendSandboxPayout } from './sandbox-payouts';
import { refundSandboxCharge } from './sandbox-refunds';
import { acceptSandboxDispute, scheduleSandboxDispute, submitSandboxEvidence } from './sandbox-disputes';

type TokenRow = Selectable<SandboxProcessorTokensTable>;
type ChargeRow = Selectable<SandboxProcessorChargesTable>;
type ChargeStatus = ChargeRow['status'];

export const SANDBOX_ELEMENTS_PATH = '/sandbox-processor/elements/card-field';

export interface SandboxOptions {
  db: Kysely<DB>;
  jobs: Pick<Jobs, 'send'>;
  publishableKey: string;
  /** Delay between the asynchronous steps of a charge (SANDBOX_SETTLEMENT_SECONDS). */
  settlementSeconds: number;
}

const FAILURES = {
  card_declined: 'Your card was declined.',
  card_insufficient_funds: 'Your card has insufficient funds.',
  bank_insufficient_funds: 'The bank account has insufficient funds.',
  R01: 'The bank returned the payment: insufficient funds (R01).',
  R10: 'The bank returned the payment: the account holder says it was not authorised (R10).',
  invalid_token: 'These card or bank details are no longer valid. Enter them again.',
} as const;

/** The sandbox's token for an instrument it has checked; only brand, last 4 and behaviour are kept. */
export async function createToken(db: Kysely<DB>, instrument: Instrument): Promise<{ id: string; kind: Instrument['kind']; label: string }> {
  const id = newId('tok');
  await db
    .insertInto('sandbox_processor_tokens')
    .values({ id, ...instrument, used_at: null })
    .execute();
  return { id, kind: instrument.kind, label: instrumentLabel(instrument) };
}

function describe(token: Pick<TokenRow, 'kind' | 'brand' | 'last4'>): InstrumentInfo {
  return { method: token.kind, label: instrumentLabel(token) };
}

/**
 * What `charge` answered the first time, rebuilt from the stored charge: a card is captured or
 * failed at once; a bank debit always starts pending (what follows arrives by webhook).
 */
function firstResult(charge: ChargeRow, token: TokenRow): ChargeResult {
  const instrument = describe(token);
  if (charge.status === 'failed' && token.kind === 'card') {
    const code = charge.failure_code ?? 'card_declined';
    return { status: 'failed', chargeId: charge.id, failureCode: code, failureMessage: failureMessage(token, code), instrument };
  }
  return { status: token.kind === 'card' ? 'succeeded' : 'pending', chargeId: charge.id, instrument };
}

function failureMessage(token: Pick<TokenRow, 'kind'>, code: string): string {
  if (code === 'insufficient_funds') return token.kind === 'card' ? FAILURES.card_insufficient_funds : FAILURES.bank_insufficient_funds;
  if (code === 'R01') return FAILURES.R01;
  if (code === 'R10') return FAILURES.R10;
  return FAILURES.card_declined;
}

export function createSandboxProcessor(options: SandboxOptions): PaymentProcessor {
  const { db } = options;
  return {
    publishableKey: options.publishableKey,
    elementsUrl: SANDBOX_ELEMENTS_PATH,

    async describeToken(token) {
      const row = await db.selectFrom('sandbox_processor_tokens').selectAll().where('id', '=', token).executeTakeFirst();
      return row && !row.used_at ? describe(row) : null;
    },

    async charge(request) {
      return db.transaction().execute(async (trx) => {
        // The token row is the lock: two charges of one token, or two calls with one key, queue here.
        const token = await trx.selectFrom('sandbox_processor_tokens').selectAll().where('id', '=', request.token).forUpdate().executeTakeFirst();
        const existing = await trx.selectFrom('sandbox_processor_charges').selectAll().where('idempotency_key', '=', request.idempotencyKey).executeTakeFirst();
        if (existing) {
          const ofExisting = await trx.selectFrom('sandbox_processor_tokens').selectAll().where('id', '=', existing.token_id).executeTakeFirstOrThrow();
          return firstResult(existing, ofExisting);
        }
        if (!token || token.used_at) {
          return { status: 'failed', chargeId: null, failureCode: 'invalid_token', failureMessage: FAILURES.invalid_token, instrument: null };
        }
        return createCharge(trx, options, token, request);
      });
    },

    sendPayout(request) {
      return sendSandboxPayout(options, request);
    },

    refund(request) {
      return refundSandboxCharge(options, request);
    },

    submitDisputeEvidence(request) {
      return submitSandboxEvidence(options, request);
    },

    acceptDispute(request) {
      return acceptSandboxDispute(options, request);
    },
  };
}

async function createCharge(trx: Transaction<DB>, options: SandboxOptions, token: TokenRow, request: ChargeRequest): Promise<ChargeResult> {
  const failureCode = token.kind === 'card' ? cardFailure(token.behaviour) : null;
  const status: ChargeStatus = token.kind === 'card' ? (failureCode ? 'failed' : 'succeeded') : 'pending';
  const inserted = await trx
    .insertInto('sandbox_processor_charges')
    .values({
      id: newId('ch'),
      token_id: token.id,
      amount_cents: request.amountCents,
      idempotency_key: request.idempotencyKey,
      status,
      failure_code: failureCode,
      metadata: JSON.stringify(request.metadata),
    })
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .returningAll()
    .executeTakeFirst();
  if (!inserted) {
    // A twin call with the same key and another token won the race: answer as it did.
    const twin = await trx.selectFrom('sandbox_processor_charges').selectAll().where('idempotency_key', '=', request.idempotencyKey).executeTakeFirstOrThrow();
    const twinToken = await trx.selectFrom('sandbox_processor_tokens').selectAll().where('id', '=', twin.token_id).executeTakeFirstOrThrow();
    return firstResult(twin, twinToken);
  }
  await trx.updateTable('sandbox_processor_tokens').set({ used_at: new Date() }).where('id', '=', token.id).execute();

  if (token.kind === 'card') {
    // Cards answer at once; the webhook also tells us, so a merchant that crashed mid-call still learns it.
    await emitEvent(trx, options.jobs, inserted, failureCode ? 'charge.failed' : 'charge.succeeded', token);
    if (!failureCode) await scheduleStep(trx, options, inserted.id, 'settled');
  } else {
    await scheduleStep(trx, options, inserted.id, token.behaviour === 'insufficient_funds' ? 'failed' : 'succeeded');
  }
  return firstResult(inserted, token);
}

function cardFailure(behaviour: TokenRow['behaviour']): string | null {
  if (behaviour === 'decline') return 'card_declined';
  if (behaviour === 'insufficient_funds') return 'insufficient_funds';
  return null;
}

type Step = 'succeeded' | 'failed' | 'settled' | 'returned';

/** Which status a charge must be in for each step; anything else means the step already ran. */
const STEP_FROM: Record<Step, ChargeStatus> = { succeeded: 'pending', failed: 'pending', settled: 'succeeded', returned: 'settled' };

async function scheduleStep(trx: Transaction<DB>, options: Pick<SandboxOptions, 'jobs' | 'settlementSeconds'>, chargeId: string, to: Step) {
  await options.jobs.send('sandbox.advance-charge', { chargeId, to }, { db: jobDb(trx), startAfter: options.settlementSeconds });
}

/**
 * The `sandbox.advance-charge` job: moves a charge one step on (a bank debit succeeds or fails,
 * a captured charge settles, a settled debit is returned), sends the webhook and schedules the
 * next step. Idempotent: a charge no longer in the step's starting status is left alone.
 */
export async function advanceCharge(
  options: Pick<SandboxOptions, 'db' | 'jobs' | 'settlementSeconds'>,
  { chargeId, to }: { chargeId: string; to: Step },
): Promise<ChargeStatus | 'not-found' | 'already-done'> {
  return options.db.transaction().execute(async (trx) => {
    const charge = await trx.selectFrom('sandbox_processor_charges').selectAll().where('id', '=', chargeId).forUpdate().executeTakeFirst();
    if (!charge) return 'not-found';
    if (charge.status !== STEP_FROM[to]) return 'already-done';
    const token = await trx.selectFrom('sandbox_processor_tokens').selectAll().where('id', '=', charge.token_id).executeTakeFirstOrThrow();
    const returnCode = token.behaviour === 'return_unauthorized' ? 'R10' : 'R01';
    const failureCode = to === 'failed' ? 'insufficient_funds' : to === 'returned' ? returnCode : charge.failure_code;
    const updated = await trx
      .updateTable('sandbox_processor_charges')
      .set({ status: to, failure_code: failureCode, updated_at: new Date() })
      .where('id', '=', chargeId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await emitEvent(trx, options.jobs, updated, `charge.${to}`, token);
    if (to === 'succeeded') await scheduleStep(trx, options, chargeId, 'settled');
    if (to === 'settled' && (token.behaviour === 'return_after_settlement' || token.behaviour === 'return_unauthorized')) {
      await scheduleStep(trx, options, chargeId, 'returned');
    }
    // The disputed test card: once settled, the payer's bank disputes it (ADR 051).
    if (to === 'settled' && token.behaviour === 'dispute') await scheduleSandboxDispute(trx, options, chargeId);
    return to;
  });
}

/** Records the event and queues its delivery in the same transaction as the change it reports. */
async function emitEvent(trx: Transaction<DB>, jobs: Pick<Jobs, 'send'>, charge: ChargeRow, type: ProcessorEventType, token: TokenRow) {
  const failureCode = type === 'charge.failed' || type === 'charge.returned' ? (charge.failure_code ?? undefined) : undefined;
  const event: ProcessorEvent = {
    id: newId('evt'),
    type,
    created: Math.floor(Date.now() / 1000),
    data: {
      chargeId: charge.id,
      amountCents: charge.amount_cents,
      metadata: charge.metadata as ProcessorEvent['data']['metadata'],
      ...(failureCode ? { failureCode, failureMessage: failureMessage(token, failureCode) } : {}),
    },
  };
  await queueWebhook(trx, jobs, event);
}
