import type { z } from 'zod';
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import {
  ErrorCode,
  formatMoney,
  INSUFFICIENT_BALANCE,
  REFUND_EXCEEDS_PAYMENT,
  REFUND_REASON_LABELS,
  csvRow,
  formatDateTime,
  type CreateRefundBody,
  type Refund,
  type RefundListQuery,
} from '@tay/contract';
import { jobDb } from '../../db/executor';
import { firstDelivery } from '../../db/processor-events';
import type { DB } from '../../db/schema';
import type { RefundsTable } from '../../db/schema/payments';
import type { Jobs } from '../../jobs/queue';
import { AppError } from '../../lib/app-error';
import { newId } from '../../lib/ids';
import type { Mailer } from '../../mail/mailer';
import type { PaymentProcessor, RefundProcessorEvent, RefundResult } from '../../processor/port';
import { recordEvent, type Actor } from '../businesses/audit';
import { requireMoneyRule } from '../businesses/money-rules';
import { ensureAccounts, postRefundFailed, postRefundReserved } from '../ledger/post';
import { lockRequestAndPayment, PROCESSOR_ACTOR } from '../payments/payment-record';
import { parseReferenceNumber, referenceNumber } from '../payment-requests/request-record';
import { amountLimitsOf, checkConfirmed } from '../businesses/amount-limits';
import { refundReceiptEmail } from '../payments/receipt';
import { userActor, type ActingUser } from '../payment-requests/request-context';
import { recordRequestEvent } from '../payment-requests/transition';

type RefundRow = Selectable<RefundsTable>;

/** What refunding needs besides the database: the processor, the job queue and the fee rule. */
export interface RefundDeps {
  db: Kysely<DB>;
  processor: Pick<PaymentProcessor, 'refund'>;
  jobs: Pick<Jobs, 'send'>;
  /** The payer's refund receipt. */
  mailer: Pick<Mailer, 'send'>;
  /** FEE_REFUND_RETURNS_FEE. */
  refundReturnsFee: boolean;
}

/** How long the `refunds.send` job waits before asking the processor itself: the request asks at once, the job only after a crash. */
const RESUME_AFTER_SECONDS = 30;

const PROCESSOR_REFUND_ACTOR: Actor = { userId: null, label: 'payment processor' };

/** The payment's fee share of a refund: what the refunded total's share of the fee grew by, so partial refunds never return more than the fee. */
export function feeShare(feeCents: number, amountCents: number, refundedBefore: number, refundCents: number): number {
  const share = (refunded: number) => Math.floor((feeCents * refunded) / amountCents);
  return share(refundedBefore + refundCents) - share(refundedBefore);
}

/** A balance account's credit balance (what the business is owed on it). */
async function creditBalance(trx: Transaction<DB>, accountId: string): Promise<number> {
  const { rows } = await sql<{ total: number | null }>`
    SELECT coalesce(sum(amount_cents), 0)::bigint AS total FROM journal_entries WHERE account_id = ${accountId}`.execute(trx);
  return -Number(rows[0]?.total ?? 0) || 0;
}

type RefundListRow = RefundRow & { instrument: string; number: number; payer_display_name: string };

function toRefund(row: RefundListRow): Refund {
  return {
    refundId: row.id,
    requestId: row.request_id,
    referenceNumber: referenceNumber(row.number),
    payerName: row.payer_display_name,
    paymentId: row.payment_id,
    instrument: row.instrument,
    amountCents: Number(row.amount_cents),
    feeReturnedCents: Number(row.fee_returned_cents),
    reason: row.reason,
    note: row.note,
    state: row.state,
    failureReason: row.failure_reason,
    createdBy: row.created_by_email,
    createdAt: row.created_at.toISOString(),
    processedAt: row.processed_at?.toISOString() ?? null,
  };
}

function refundsWithInstrument(db: Kysely<DB> | Transaction<DB>, businessId: string) {
  return db
    .selectFrom('refunds as r')
    .innerJoin('payments as p', (join) => join.onRef('p.business_id', '=', 'r.business_id').onRef('p.id', '=', 'r.payment_id'))
    .innerJoin('payment_requests as q', (join) => join.onRef('q.business_id', '=', 'r.business_id').onRef('q.id', '=', 'r.request_id'))
    .selectAll('r')
    .select(['p.instrument', 'q.number', 'q.payer_display_name'])
    .where('r.business_id', '=', businessId);
}

/** The payment a refund names, or the request's one refundable payment when it names none. */
async function choosePayment(trx: Transaction<DB>, businessId: string, requestId: string, paymentId: string | undefined): Promise<string> {
  const payments = await trx
    .selectFrom('payments')
    .select(['id', 'state', 'amount_cents', 'refunded_cents'])
    .where('business_id', '=', businessId)
    .where('request_id', '=', requestId)
    .execute();
  if (paymentId !== undefined) {
    if (!payments.some((p) => p.id === paymentId)) throw AppError.notFound('Payment');
    return paymentId;
  }
  const refundable = payments.filter((p) => p.state === 'Processed' && Number(p.refunded_cents) < Number(p.amount_cents));
  if (refundable.length === 1) return refundable[0]!.id;
  if (refundable.length === 0) throw new AppError(ErrorCode.Conflict, 'This request has no payment left to refund.');
  throw AppError.validation(`This request was paid in ${refundable.length} payments that can be refunded: say which one (paymentId).`, {
    paymentId: 'Choose the payment to refund.',
  });
}

/**
 * Refunds part or all of a captured payment of a request (ADR 051), in one transaction: the
 * refunder's role (`MONEY_RULES.refund`, read here), then the business's available balance under
 * its lock (every refund and payout approval of the business queues there), then the request and
 * the payment. The amount is added to the payment's refunded total by one guarded UPDATE, so
 * concurrent refunds never take more than was paid; the ledger moves it out of the balance
 * (available first, then pending) or the refund is refused with the shortfall named — unless the
 * business allows a negative balance, when the shortfall takes the available balance below zero
 * and payouts wait until it is back (migration 0060). The refund
 * is then sent to the processor at once, keyed by its id; a `refunds.send` job asks again if this
 * process dies before the answer is recorded.
 */
export async function createRefund(
  deps: RefundDeps,
  input: { businessId: string; requestId: string; body: CreateRefundBody; actor: ActingUser },
): Promise<Refund> {
  const { businessId, requestId, body, actor } = input;
  const refundId = newId('rfd');
  await deps.db.transaction().execute(async (trx) => {
    await requireMoneyRule(trx, businessId, actor.userId, 'refund');
    const accounts = await ensureAccounts(trx, businessId);
    await trx.selectFrom('ledger_accounts').select('id').where('id', '=', accounts.business_available).forUpdate().execute();
    const request = await trx
      .selectFrom('payment_requests')
      .select(['id', 'number'])
      .where('business_id', '=', businessId)
      .where('id', '=', requestId)
      .forUpdate()
      .executeTakeFirst();
    if (!request) throw AppError.notFound('Request');
    const paymentId = await choosePayment(trx, businessId, requestId, body.paymentId);
    const payment = await trx
      .selectFrom('payments')
      .select(['id', 'state', 'amount_cents', 'fee_cents', 'refunded_cents', 'instrument', 'processor_charge_id'])
      .where('business_id', '=', businessId)
      .where('id', '=', paymentId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (payment.state !== 'Processed' || !payment.processor_charge_id) {
      throw new AppError(
        ErrorCode.Conflict,
        payment.state === 'Returned'
          ? 'This payment was returned by the payer’s bank, so there is nothing to refund.'
          : 'Only a payment that was received can be refunded.',
      );
    }
    // A disputed payment's money went back through the payer's bank already (ADR 051): a refund would pay it twice.
    const dispute = await trx
      .selectFrom('disputes')
      .select('state')
      .where('business_id', '=', businessId)
      .where('payment_id', '=', paymentId)
      .where('state', '<>', 'Won')
      .executeTakeFirst();
    if (dispute) {
      throw new AppError(
        ErrorCode.Conflict,
        'This payment is disputed: the payer’s bank took the disputed amount back already, so it cannot be refunded. Answer or accept the dispute instead.',
      );
    }
    const amount = body.amountCents;
    // A typo sends real money back: above the confirmation limit, only with the amount repeated.
    checkConfirmed(await amountLimitsOf(trx, businessId), amount, body.confirmedAmountCents, 'this refund');
    const paymentAmount = Number(payment.amount_cents);
    const refundedBefore = Number(payment.refunded_cents);
    const feeReturned = deps.refundReturnsFee ? feeShare(Number(payment.fee_cents), paymentAmount, refundedBefore, amount) : 0;
    const needed = amount - feeReturned;
    const available = Math.max(0, await creditBalance(trx, accounts.business_available));
    const pending = Math.max(0, await creditBalance(trx, accounts.business_pending));
    let fromAvailable = Math.min(available, needed);
    const fromPending = Math.min(pending, needed - fromAvailable);
    const shortfall = needed - fromAvailable - fromPending;
    const { allow_negative_balance: negativeAllowed } = await trx
      .selectFrom('businesses')
      .select('allow_negative_balance')
      .where('id', '=', businessId)
      .executeTakeFirstOrThrow();
    // Allowed, what the balance cannot cover is owed by the business: its available balance goes below zero.
    if (negativeAllowed) fromAvailable += shortfall;
    // What is still refundable is checked by the guard below; the balance first, so a refund
    // that is too large says what it exceeds, and one the balance cannot cover says by how much.
    else if (refundedBefore + amount <= paymentAmount && shortfall > 0) {
      throw new AppError(
        INSUFFICIENT_BALANCE,
        `Refunding needs ${formatMoney(shortfall)} more than the business’s balance of ${formatMoney(available + pending)}.`,
        undefined,
        409,
      );
    }
    // The one guard: the refunded total grows only while it stays within what was paid.
    const guarded = await sql<{ refunded_cents: number }>`
      UPDATE payments SET refunded_cents = refunded_cents + ${amount}
      WHERE business_id = ${businessId} AND id = ${paymentId} AND state = 'Processed' AND refunded_cents + ${amount} <= amount_cents
      RETURNING refunded_cents`.execute(trx);
    if (guarded.rows.length === 0) {
      const left = paymentAmount - refundedBefore;
      throw new AppError(
        REFUND_EXCEEDS_PAYMENT,
        left === 0
          ? 'This payment was refunded in full already.'
          : `At most ${formatMoney(left)} of this payment can be refunded: ${formatMoney(paymentAmount)} was paid${refundedBefore > 0 ? ` and ${formatMoney(refundedBefore)} refunded` : ''}.`,
        { amountCents: `At most ${formatMoney(left)}.` },
        409,
      );
    }
    // The request's refunded total, beside its paid state in the history (migration 0058).
    await sql`UPDATE payment_requests SET refunded_cents = refunded_cents + ${amount}, updated_at = now()
      WHERE business_id = ${businessId} AND id = ${requestId}`.execute(trx);
    await trx
      .insertInto('refunds')
      .values({
        business_id: businessId,
        id: refundId,
        request_id: requestId,
        payment_id: paymentId,
        amount_cents: amount,
        fee_returned_cents: feeReturned,
        reason: body.reason,
        note: body.note || null,
        state: 'Pending',
        failure_reason: null,
        processor_refund_id: null,
        send_started_at: new Date(),
        created_by: actor.userId,
        created_by_email: actor.email,
        processed_at: null,
      })
      .execute();
    await postRefundReserved(trx, {
      businessId,
      paymentId,
      refundId,
      amountCents: amount,
      feeReturnedCents: feeReturned,
      taken: { fromAvailable, fromPending },
      description: `Refund of ${formatMoney(amount)} to ${payment.instrument}`,
    });
    await recordRequestEvent({
      db: trx,
      businessId,
      requestId,
      actor: userActor(actor),
      event: 'refund',
      from: null,
      to: null,
      detail: `${formatMoney(amount)} refunded to ${payment.instrument} (${REFUND_REASON_LABELS[body.reason]}${body.note ? `: ${body.note}` : ''}).`,
    });
    await recordEvent(trx, {
      businessId,
      actor: { userId: actor.userId, label: actor.email, ip: actor.ip ?? null },
      action: 'refund.created',
      details: { refundId, requestId, paymentId, amountCents: amount, feeReturnedCents: feeReturned, reason: body.reason },
    });
    await deps.jobs.send('refunds.send', { businessId, refundId }, { db: jobDb(trx), singletonKey: `refund:${refundId}`, startAfter: RESUME_AFTER_SECONDS });
  });
  // The refund is recorded and its money reserved: a processor that cannot be reached now leaves
  // it Pending, answered as such (and stored under the Idempotency-Key), for the job to finish.
  await sendRefund(deps, { businessId, refundId }).catch(() => 'left for refunds.send');
  return getRefund(deps.db, businessId, refundId);
}

/**
 * Asks the processor for a Pending refund (the refund's id is its idempotency key, so asking
 * again after a crash refunds nothing twice) and records its answer. The request calls it at once;
 * the `refunds.send` job calls it again later, and finds nothing left to do when the first answer
 * was recorded.
 */
export async function sendRefund(
  deps: Pick<RefundDeps, 'db' | 'processor' | 'mailer'>,
  { businessId, refundId }: { businessId: string; refundId: string },
): Promise<string> {
  const row = await deps.db
    .selectFrom('refunds as r')
    .innerJoin('payments as p', (join) => join.onRef('p.business_id', '=', 'r.business_id').onRef('p.id', '=', 'r.payment_id'))
    .select(['r.state', 'r.amount_cents', 'r.processor_refund_id', 'r.payment_id', 'p.processor_charge_id'])
    .where('r.business_id', '=', businessId)
    .where('r.id', '=', refundId)
    .executeTakeFirst();
  if (!row) return 'not-found';
  if (row.state !== 'Pending' || row.processor_refund_id) return 'already-done';
  const result = await deps.processor.refund({
    chargeId: row.processor_charge_id ?? '',
    amountCents: Number(row.amount_cents),
    idempotencyKey: refundId,
    metadata: { businessId, paymentId: row.payment_id, refundId },
  });
  return deps.db.transaction().execute((trx) => applyRefundResult(trx, deps.mailer, businessId, refundId, result));
}

/** Records the processor's answer on a Pending refund; anything else was recorded before. */
async function applyRefundResult(
  trx: Transaction<DB>,
  mailer: Pick<Mailer, 'send'>,
  businessId: string,
  refundId: string,
  result: RefundResult,
): Promise<string> {
  const refund = await lockRefund(trx, businessId, refundId);
  if (!refund || refund.state !== 'Pending') return 'unchanged';
  if (result.status === 'failed') {
    await failRefund(trx, refund, result.failureMessage, result.processorRefundId);
    return 'failed';
  }
  if (result.status === 'pending') {
    if (refund.processor_refund_id) return 'unchanged';
    await trx
      .updateTable('refunds')
      .set({ processor_refund_id: result.processorRefundId })
      .where('business_id', '=', businessId)
      .where('id', '=', refundId)
      .execute();
    return 'pending';
  }
  await succeedRefund(trx, mailer, refund, result.processorRefundId);
  return 'succeeded';
}

function lockRefund(trx: Transaction<DB>, businessId: string, refundId: string) {
  return trx.selectFrom('refunds').selectAll().where('business_id', '=', businessId).where('id', '=', refundId).forUpdate().executeTakeFirst();
}

async function succeedRefund(trx: Transaction<DB>, mailer: Pick<Mailer, 'send'>, refund: RefundRow, processorRefundId: string): Promise<void> {
  const processedAt = new Date();
  await trx
    .updateTable('refunds')
    .set({ state: 'Succeeded', processed_at: processedAt, processor_refund_id: refund.processor_refund_id ?? processorRefundId })
    .where('business_id', '=', refund.business_id)
    .where('id', '=', refund.id)
    .execute();
  await recordEvent(trx, {
    businessId: refund.business_id,
    actor: PROCESSOR_REFUND_ACTOR,
    action: 'refund.succeeded',
    details: { refundId: refund.id, requestId: refund.request_id, amountCents: Number(refund.amount_cents) },
  });
  const { request, payment } = (await lockRequestAndPayment(trx, refund.business_id, refund.payment_id))!;
  const to = payment.payer_email || request.payer_email;
  if (to) await mailer.send(await refundReceiptEmail(trx, to, request, payment, { ...refund, processed_at: processedAt }), trx);
}

/** The processor could not refund: Failed with its reason, the payment refundable again by that much, the money back in the balance. */
async function failRefund(trx: Transaction<DB>, refund: RefundRow, reason: string, processorRefundId: string | null): Promise<void> {
  const amount = Number(refund.amount_cents);
  // The request, then the payment: the order every refund and payment takes their locks in.
  await lockRequestAndPayment(trx, refund.business_id, refund.payment_id);
  await trx
    .updateTable('refunds')
    .set({ state: 'Failed', failure_reason: reason, processed_at: new Date(), processor_refund_id: refund.processor_refund_id ?? processorRefundId })
    .where('business_id', '=', refund.business_id)
    .where('id', '=', refund.id)
    .execute();
  await sql`UPDATE payments SET refunded_cents = refunded_cents - ${amount}
    WHERE business_id = ${refund.business_id} AND id = ${refund.payment_id}`.execute(trx);
  await sql`UPDATE payment_requests SET refunded_cents = refunded_cents - ${amount}, updated_at = now()
    WHERE business_id = ${refund.business_id} AND id = ${refund.request_id}`.execute(trx);
  await postRefundFailed(trx, { businessId: refund.business_id, refundId: refund.id, description: `Refund of ${formatMoney(amount)} failed: ${reason}` });
  await recordRequestEvent({
    db: trx,
    businessId: refund.business_id,
    requestId: refund.request_id,
    actor: PROCESSOR_ACTOR,
    event: 'refundFailed',
    from: null,
    to: null,
    detail: `The refund of ${formatMoney(amount)} failed: ${reason} The money is back in the balance.`,
  });
  await recordEvent(trx, {
    businessId: refund.business_id,
    actor: PROCESSOR_REFUND_ACTOR,
    action: 'refund.failed',
    details: { refundId: refund.id, requestId: refund.request_id, amountCents: amount, reason },
  });
}

/** A verified `refund.*` webhook, applied once (`firstDelivery`); one for a refund we do not know is recorded and ignored. */
export async function applyRefundEvent(
  { db, mailer }: { db: Kysely<DB>; mailer: Pick<Mailer, 'send'> },
  event: RefundProcessorEvent,
): Promise<'applied' | 'duplicate' | 'unchanged' | 'unknown-refund'> {
  return db.transaction().execute(async (trx) => {
    if (!(await firstDelivery(trx, event))) return 'duplicate';
    const { businessId, refundId } = event.data.metadata;
    const refund = await lockRefund(trx, businessId, refundId);
    if (!refund) return 'unknown-refund';
    if (refund.processor_refund_id && refund.processor_refund_id !== event.data.processorRefundId) return 'unknown-refund';
    if (refund.state !== 'Pending') return 'unchanged';
    if (event.type === 'refund.succeeded') await succeedRefund(trx, mailer, refund, event.data.processorRefundId);
    else await failRefund(trx, refund, event.data.failureMessage ?? 'The processor could not refund the payment.', event.data.processorRefundId);
    return 'applied';
  });
}

export async function getRefund(db: Kysely<DB>, businessId: string, refundId: string): Promise<Refund> {
  const row = await refundsWithInstrument(db, businessId).where('r.id', '=', refundId).executeTakeFirst();
  if (!row) throw AppError.notFound('Refund');
  return toRefund(row);
}

type RefundQuery = Pick<z.output<typeof RefundListQuery>, 'state' | 'requestId' | 'reason' | 'search'>;

/** The list's filters: state, reason and request; the search is a TRX number, or the start of the payer's name. */
function filtered(db: Kysely<DB>, businessId: string, query: RefundQuery) {
  let base = refundsWithInstrument(db, businessId);
  if (query.state) base = base.where('r.state', '=', query.state);
  if (query.reason) base = base.where('r.reason', '=', query.reason);
  if (query.requestId) base = base.where('r.request_id', '=', query.requestId);
  const search = query.search?.trim();
  if (search) {
    const number = parseReferenceNumber(search);
    const prefix = `${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    base = base.where((eb) => eb.or([...(number !== null ? [eb('q.number', '=', number)] : []), eb(sql<string>`lower(q.payer_display_name)`, 'like', prefix)]));
  }
  return base;
}

/** The business's refunds, newest first, by state, reason and request, searched by TRX number or payer. */
export async function listRefunds(
  db: Kysely<DB>,
  businessId: string,
  query: RefundQuery & { page: number; pageSize: number; sortDirection?: 'asc' | 'desc' | undefined },
): Promise<{ items: Refund[]; page: number; pageSize: number; total: number }> {
  const base = filtered(db, businessId, query);
  const direction = query.sortDirection ?? 'desc';
  const [rows, count] = await Promise.all([
    base
      .orderBy('r.created_at', direction)
      .orderBy('r.id', direction)
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute(),
    base
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toRefund), page: query.page, pageSize: query.pageSize, total: Number(count.n) };
}

const dollars = (cents: number) => (cents / 100).toFixed(2);

/** The CSV of what the list shows (same filters and search, newest first), in batches by keyset: memory stays flat. */
export async function* exportRefunds(db: Kysely<DB>, businessId: string, timeZone: string, query: RefundQuery): AsyncGenerator<string> {
  const columns: { header: string; value: (r: Refund) => string }[] = [
    { header: 'Refund', value: (r) => r.refundId },
    { header: 'Reference', value: (r) => r.referenceNumber },
    { header: 'Payer', value: (r) => r.payerName },
    { header: 'Refunded to', value: (r) => r.instrument },
    { header: 'Amount (USD)', value: (r) => dollars(r.amountCents) },
    { header: 'Fee returned (USD)', value: (r) => dollars(r.feeReturnedCents) },
    { header: 'Reason', value: (r) => REFUND_REASON_LABELS[r.reason] },
    { header: 'Note', value: (r) => r.note ?? '' },
    { header: 'Status', value: (r) => r.state },
    { header: 'Failure', value: (r) => r.failureReason ?? '' },
    { header: 'Refunded by', value: (r) => r.createdBy ?? '' },
    { header: `Created (${timeZone})`, value: (r) => formatDateTime(r.createdAt, timeZone) },
    { header: `Processed (${timeZone})`, value: (r) => (r.processedAt ? formatDateTime(r.processedAt, timeZone) : '') },
  ];
  yield `\ufeff${csvRow(columns.map((c) => c.header))}\r\n`;
  let after: { createdAt: Date; id: string } | null = null;
  for (;;) {
    let q = filtered(db, businessId, query);
    if (after) {
      const anchor = after;
      q = q.where((eb) => eb(eb.refTuple('r.created_at', 'r.id'), '<', eb.tuple(anchor.createdAt, anchor.id)));
    }
    const rows = await q.orderBy('r.created_at', 'desc').orderBy('r.id', 'desc').limit(1000).execute();
    if (rows.length === 0) return;
    yield rows.map((row) => `${csvRow(columns.map((c) => c.value(toRefund(row))))}\r\n`).join('');
    const last = rows[rows.length - 1]!;
    after = { createdAt: last.created_at, id: last.id };
  }
}
