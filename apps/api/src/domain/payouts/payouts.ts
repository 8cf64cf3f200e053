import { sql, type Kysely, type Transaction } from 'kysely';
import {
  csvRow,
  ErrorCode,
  formatDateTime,
  formatDay,
  formatMoney,
  PAYOUT_STATE_LABELS,
  payoutReference,
  type Payout,
  type PayoutDetail,
  type PayoutList,
  type PayoutListQuery,
  type PayoutSettings,
  type PayoutSummary,
  type PayoutValues,
} from '@tay/contract';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { newId } from '../../lib/ids';
import { recordEvent } from '../businesses/audit';
import type { ScopedBusiness } from '../businesses/business-scope';
import { checkAmount } from '../businesses/amount-limits';
import { mayNow, requireMoneyRule } from '../businesses/money-rules';
import { getBalances } from '../ledger/get-balances';
import type { ActingUser } from '../payment-requests/request-context';
import { todayIn } from '../payment-requests/request-record';
import { approvePayouts, inTransaction, lockAvailable, type PayoutDeps } from './approve-payouts';
import {
  auditActor,
  movePayout,
  receiverProblem,
  recordPayoutEvent,
  selectPayout,
  takePayoutNumbers,
  receiverReviewedColumn,
  toPayout,
  toPayoutDetail,
  type PayoutRow,
} from './payout-record';

export interface PayoutContext extends PayoutDeps {
  db: Kysely<DB>;
}

type Business = Pick<ScopedBusiness, 'id' | 'timeZone'>;
type ListQuery = ReturnType<typeof PayoutListQuery.parse>;

const ref = (row: Pick<PayoutRow, 'number'>) => payoutReference(Number(row.number));

async function approvalRequired(db: Kysely<DB>, businessId: string): Promise<boolean> {
  const row = await db.selectFrom('businesses').select('payout_approval_required').where('id', '=', businessId).executeTakeFirstOrThrow();
  return Boolean(row.payout_approval_required);
}

/** The receiver, checked payable; refused (422) naming the field `receiverId`. */
async function payableReceiver(db: Kysely<DB>, businessId: string, receiverId: string) {
  const receiver = await db.selectFrom('receivers').selectAll().where('business_id', '=', businessId).where('id', '=', receiverId).executeTakeFirst();
  const problem = receiverProblem(receiver);
  if (problem) throw AppError.validation(problem, { receiverId: problem });
  return receiver!;
}

function checkPayOn(business: Business, payOn: string | null | undefined, previous?: string | null): void {
  const today = todayIn(business.timeZone);
  if (payOn && payOn < today && payOn !== previous) {
    throw AppError.validation('The pay date is in the past.', {
      payOn: `Choose today (${formatDay(today)}) or a later day, or leave it empty to pay once approved.`,
    });
  }
}

/**
 * Creates payouts as Drafts, or Submitted ones (the bulk engine's rows, or `submit`), in the
 * caller's transaction when `db` is one. Each receiver must be verified and active. Submitted
 * payouts are not approved here: `submitPayout` / `approvePayouts` do that.
 */
export async function createPayouts(
  db: Kysely<DB>,
  business: Business,
  user: ActingUser,
  items: readonly (PayoutValues & { batchId?: string | null; eventId?: string | null; state?: 'Draft' | 'Submitted'; detail?: string })[],
): Promise<PayoutRow[]> {
  return inTransaction(db, async (trx) => {
    const made: PayoutRow[] = [];
    const needsApproval = items.some((i) => i.state === 'Submitted') && (await approvalRequired(trx, business.id));
    for (const item of items) {
      const receiver = await payableReceiver(trx, business.id, item.receiverId);
      const now = new Date();
      const state = item.state ?? 'Draft';
      const row = await trx
        .insertInto('payouts')
        .values({
          business_id: business.id,
          id: newId('pout'),
          number: await takePayoutNumbers(trx, business.id, 1),
          receiver_id: receiver.id,
          receiver_name: `${receiver.first_name} ${receiver.last_name}`,
          receiver_email: receiver.email,
          amount_cents: item.amountCents,
          memo: item.memo,
          pay_on: item.payOn ?? null,
          state,
          batch_id: item.batchId ?? null,
          event_id: item.eventId ?? null,
          created_by: user.userId,
          ...(state === 'Submitted' ? { submitted_by: user.email, submitted_at: now, second_approver_required: needsApproval } : {}),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await recordPayoutEvent(trx, {
        businessId: business.id,
        payoutId: row.id,
        event: 'create',
        from: null,
        to: 'Draft',
        detail: item.detail ?? null,
        actor: user.email,
      });
      if (state === 'Submitted') {
        await recordPayoutEvent(trx, {
          businessId: business.id,
          payoutId: row.id,
          event: 'submit',
          from: 'Draft',
          to: 'Submitted',
          detail: null,
          actor: user.email,
        });
      }
      await recordEvent(trx, {
        businessId: business.id,
        actor: auditActor(user),
        action: 'payout.created',
        details: { payoutId: row.id, receiverId: receiver.id, amountCents: item.amountCents, state },
      });
      made.push(row);
    }
    return made;
  });
}

/** The single payout's create: a Draft, or submitted at once (`submit`). */
export async function createPayout(
  ctx: PayoutContext,
  {
    business,
    user,
    body,
  }: { business: Business; user: ActingUser; body: PayoutValues & { submit?: boolean | undefined; confirmedAmountCents?: number | null | undefined } },
): Promise<PayoutDetail> {
  checkPayOn(business, body.payOn);
  return ctx.db.transaction().execute(async (trx) => {
    await checkAmount(trx, business.id, { amountCents: body.amountCents, field: 'amountCents', what: 'a payout', goesOut: false });
    const [row] = await createPayouts(trx, business, user, [body]);
    const final = body.submit ? await submitPayout(trx, ctx, business, row!.id, user, body.confirmedAmountCents ?? null) : row!;
    return toPayoutDetail(trx, final);
  });
}

export async function updatePayout(
  ctx: PayoutContext,
  { business, user, payoutId, body }: { business: Business; user: ActingUser; payoutId: string; body: PayoutValues },
): Promise<PayoutDetail> {
  return ctx.db.transaction().execute(async (trx) => {
    const current = await selectPayout(trx, business.id, payoutId, { lock: true });
    if (current.state !== 'Draft')
      throw new AppError(ErrorCode.Conflict, `${ref(current)} is ${current.state}; only a Draft can be edited. Copy it to make a new one.`);
    checkPayOn(business, body.payOn, current.pay_on);
    await checkAmount(trx, business.id, { amountCents: body.amountCents, field: 'amountCents', what: 'a payout', goesOut: false });
    const receiver = await payableReceiver(trx, business.id, body.receiverId);
    const row = await trx
      .updateTable('payouts')
      .set({
        receiver_id: receiver.id,
        receiver_name: `${receiver.first_name} ${receiver.last_name}`,
        receiver_email: receiver.email,
        amount_cents: body.amountCents,
        memo: body.memo,
        pay_on: body.payOn ?? null,
        updated_at: sql<Date>`now()`,
      })
      .where('business_id', '=', business.id)
      .where('id', '=', payoutId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordPayoutEvent(trx, {
      businessId: business.id,
      payoutId,
      event: 'edit',
      from: null,
      to: null,
      detail: `${formatMoney(body.amountCents)} to ${row.receiver_name}`,
      actor: user.email,
    });
    await recordEvent(trx, {
      businessId: business.id,
      actor: auditActor(user),
      action: 'payout.updated',
      details: { payoutId, amountCents: body.amountCents },
    });
    return toPayoutDetail(trx, row);
  });
}

export async function deletePayout(
  ctx: PayoutContext,
  { business, user, payoutId }: { business: Business; user: ActingUser; payoutId: string },
): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const current = await selectPayout(trx, business.id, payoutId, { lock: true });
    if (current.state !== 'Draft')
      throw new AppError(ErrorCode.Conflict, `${ref(current)} is ${current.state}; only a Draft can be deleted. Cancel it instead.`);
    await trx.deleteFrom('payout_events').where('business_id', '=', business.id).where('payout_id', '=', payoutId).execute();
    await trx.deleteFrom('payouts').where('business_id', '=', business.id).where('id', '=', payoutId).execute();
    await recordEvent(trx, { businessId: business.id, actor: auditActor(user), action: 'payout.deleted', details: { payoutId, reference: ref(current) } });
  });
}

/**
 * Submits a Draft. Submitted by an owner or admin of a business that needs no second approver (the
 * default), it is approved at once in the same transaction, which reserves the money or refuses
 * for the whole submit; a member's submit waits, Submitted, for an owner or admin
 * (`MONEY_RULES.approvePayout`, the role read in this transaction). `db` may be a transaction.
 */
export async function submitPayout(
  db: Kysely<DB>,
  deps: PayoutDeps,
  business: Business,
  payoutId: string,
  user: ActingUser,
  confirmedAmountCents: number | null = null,
): Promise<PayoutRow> {
  return inTransaction(db, async (trx) => {
    const needsApproval = await approvalRequired(trx, business.id);
    const approveNow = !needsApproval && (await mayNow(trx, business.id, user.userId, 'approvePayout'));
    // Approval locks the balance first, then the payout: the same order here, so neither waits on the other.
    if (approveNow) await lockAvailable(trx, business.id);
    const current = await selectPayout(trx, business.id, payoutId, { lock: true });
    if (current.state !== 'Draft') throw new AppError(ErrorCode.Conflict, `${ref(current)} is ${current.state}; only a Draft can be submitted.`);
    await checkAmount(trx, business.id, {
      amountCents: Number(current.amount_cents),
      confirmedAmountCents,
      field: 'amountCents',
      what: 'this payout',
      goesOut: true,
    });
    await payableReceiver(trx, business.id, current.receiver_id);
    checkPayOn(business, current.pay_on);
    const submitted = await movePayout(
      trx,
      current,
      'Submitted',
      // Submitted under the rule, it keeps the rule: turning it off later lets no one approve their own.
      { submitted_by: user.email, submitted_at: new Date(), second_approver_required: needsApproval },
      { event: 'submit', detail: approveNow || needsApproval ? null : 'Waiting for an owner or admin to approve it.', actor: user.email },
    );
    await recordEvent(trx, {
      businessId: business.id,
      actor: auditActor(user),
      action: 'payout.submitted',
      details: { payoutId, amountCents: Number(current.amount_cents) },
    });
    if (!approveNow) return submitted;
    const [approved] = await approvePayouts(trx, deps, business, [payoutId], user, {
      detail: 'Approved on submission (this business needs no second approver).',
    });
    return approved!;
  });
}

export async function submitOne(
  ctx: PayoutContext,
  { business, user, payoutId, confirmedAmountCents = null }: { business: Business; user: ActingUser; payoutId: string; confirmedAmountCents?: number | null },
): Promise<PayoutDetail> {
  return ctx.db.transaction().execute(async (trx) => toPayoutDetail(trx, await submitPayout(trx, ctx, business, payoutId, user, confirmedAmountCents)));
}

export async function approveOne(
  ctx: PayoutContext,
  { business, user, payoutId }: { business: Business; user: ActingUser; payoutId: string },
): Promise<PayoutDetail> {
  return ctx.db.transaction().execute(async (trx) => {
    const selfApproval = (await approvalRequired(trx, business.id)) ? 'refuse' : 'allow';
    const [row] = await approvePayouts(trx, ctx, business, [payoutId], user, { selfApproval });
    return toPayoutDetail(trx, row!);
  });
}

/**
 * A batch's Submitted payouts (the bulk engine's), all or none. Another business's batch, or none
 * at all, is not found (404) like any other id; 409 is for a batch of this business with nothing
 * waiting.
 */
async function batchPayouts(trx: Transaction<DB>, businessId: string, batchId: string): Promise<PayoutRow[]> {
  const batch = await trx
    .selectFrom('batches')
    .select('id')
    .where('business_id', '=', businessId)
    .where('id', '=', batchId)
    .where('kind', '=', 'payouts')
    .executeTakeFirst();
  if (!batch) throw AppError.notFound('Batch');
  const rows = await trx
    .selectFrom('payouts')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('batch_id', '=', batchId)
    .where('state', '=', 'Submitted')
    .orderBy('id')
    .execute();
  if (rows.length === 0) throw new AppError(ErrorCode.Conflict, 'This batch has no payouts waiting for approval.');
  return rows;
}

export async function approveBatch(
  ctx: PayoutContext,
  { business, user, batchId }: { business: Business; user: ActingUser; batchId: string },
): Promise<Payout[]> {
  return ctx.db.transaction().execute(async (trx) => {
    const selfApproval = (await approvalRequired(trx, business.id)) ? 'refuse' : 'allow';
    const rows = await batchPayouts(trx, business.id, batchId);
    const approved = await approvePayouts(
      trx,
      ctx,
      business,
      rows.map((r) => r.id),
      user,
      { selfApproval, detail: `Approved with bulk batch ${batchId}.`, what: 'batch' },
    );
    return approved.map(toPayout);
  });
}

async function reject(trx: Transaction<DB>, business: Business, user: ActingUser, row: PayoutRow, reason: string, selfApproval: boolean): Promise<PayoutRow> {
  await requireMoneyRule(trx, business.id, user.userId, 'approvePayout');
  if (row.state !== 'Submitted') throw new AppError(ErrorCode.Conflict, `${ref(row)} is ${row.state}; only a Submitted payout can be rejected.`);
  if ((selfApproval || row.second_approver_required) && row.submitted_by?.toLowerCase() === user.email.toLowerCase()) {
    throw new AppError(ErrorCode.Forbidden, `You submitted ${ref(row)}, so another owner or admin must review it. Cancel it instead if it should not be paid.`);
  }
  const updated = await movePayout(
    trx,
    row,
    'Rejected',
    { reject_reason: reason, finished_at: new Date() },
    { event: 'reject', detail: reason, actor: user.email },
  );
  await recordEvent(trx, { businessId: business.id, actor: auditActor(user), action: 'payout.rejected', details: { payoutId: row.id, reason } });
  return updated;
}

export async function rejectOne(
  ctx: PayoutContext,
  { business, user, payoutId, reason }: { business: Business; user: ActingUser; payoutId: string; reason: string },
): Promise<PayoutDetail> {
  return ctx.db.transaction().execute(async (trx) => {
    const refuseSelf = await approvalRequired(trx, business.id);
    const row = await selectPayout(trx, business.id, payoutId, { lock: true });
    return toPayoutDetail(trx, await reject(trx, business, user, row, reason, refuseSelf));
  });
}

export async function rejectBatch(
  ctx: PayoutContext,
  { business, user, batchId, reason }: { business: Business; user: ActingUser; batchId: string; reason: string },
): Promise<Payout[]> {
  return ctx.db.transaction().execute(async (trx) => {
    const refuseSelf = await approvalRequired(trx, business.id);
    const rows = await batchPayouts(trx, business.id, batchId);
    const locked = await trx
      .selectFrom('payouts')
      .selectAll()
      .where('business_id', '=', business.id)
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .orderBy('id')
      .forUpdate()
      .execute();
    const done: Payout[] = [];
    for (const row of locked) done.push(toPayout(await reject(trx, business, user, row, reason, refuseSelf)));
    return done;
  });
}

export async function cancelOne(
  ctx: PayoutContext,
  { business, user, payoutId }: { business: Business; user: ActingUser; payoutId: string },
): Promise<PayoutDetail> {
  return ctx.db.transaction().execute(async (trx) => {
    const row = await selectPayout(trx, business.id, payoutId, { lock: true });
    if (row.state !== 'Draft' && row.state !== 'Submitted') {
      throw new AppError(ErrorCode.Conflict, `${ref(row)} is ${row.state}; only a Draft or Submitted payout can be cancelled.`);
    }
    const updated = await movePayout(trx, row, 'Cancelled', { finished_at: new Date() }, { event: 'cancel', detail: null, actor: user.email });
    await recordEvent(trx, { businessId: business.id, actor: auditActor(user), action: 'payout.cancelled', details: { payoutId } });
    return toPayoutDetail(trx, updated);
  });
}

export async function getPayout(ctx: PayoutContext, { business, payoutId }: { business: Business; payoutId: string }): Promise<PayoutDetail> {
  return toPayoutDetail(ctx.db, await selectPayout(ctx.db, business.id, payoutId));
}

/* ------------------------------------------------------------------ lists */

const SORT = { createdAt: sql`created_at`, amount: sql`amount_cents`, receiver: sql`lower(receiver_name)` } as const;

function filtered(db: Kysely<DB>, business: Business, query: ListQuery) {
  let q = db.selectFrom('payouts').where('business_id', '=', business.id);
  if (query.state) q = q.where('state', '=', query.state);
  if (query.receiverId) q = q.where('receiver_id', '=', query.receiverId);
  if (query.batchId) q = q.where('batch_id', '=', query.batchId);
  if (query.from) q = q.where(sql<boolean>`(created_at AT TIME ZONE ${business.timeZone})::date >= ${query.from}::date`);
  if (query.to) q = q.where(sql<boolean>`(created_at AT TIME ZONE ${business.timeZone})::date <= ${query.to}::date`);
  if (query.search) {
    const text = query.search.trim();
    const number = /^(pay-?)?(\d{1,15})$/i.exec(text)?.[2];
    q = q.where((eb) =>
      eb.or([
        eb(sql<number>`strpos(lower(receiver_name), lower(${text}))`, '>', 0),
        eb(sql<number>`strpos(lower(receiver_email), lower(${text}))`, '>', 0),
        ...(number ? [eb('number', '=', Number(number))] : []),
      ]),
    );
  }
  return q;
}

export async function listPayouts(ctx: PayoutContext, { business, query }: { business: Business; query: ListQuery }): Promise<PayoutList> {
  if (query.from && query.to && query.from > query.to)
    throw AppError.validation('The From date is after the To date.', { to: 'Choose a day on or after the From date.' });
  const base = filtered(ctx.db, business, query);
  const direction = query.sortDirection === 'asc' ? sql`ASC` : sql`DESC`;
  const [rows, totals] = await Promise.all([
    base
      .selectAll()
      .select(receiverReviewedColumn)
      .orderBy(sql`${SORT[query.sortBy]} ${direction}`)
      .orderBy(sql`id ${direction}`)
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute(),
    base
      .select((eb) => [
        eb.fn.countAll<string>().as('n'),
        sql<string>`coalesce(sum(amount_cents), 0)::bigint`.as('amount'),
        sql<string>`coalesce(sum(fee_cents), 0)::bigint`.as('fee'),
      ])
      .executeTakeFirstOrThrow(),
  ]);
  return {
    items: rows.map(toPayout),
    page: query.page,
    pageSize: query.pageSize,
    total: Number(totals.n),
    totals: { count: Number(totals.n), amountCents: Number(totals.amount), feeCents: Number(totals.fee) },
  };
}

export async function* exportPayouts(ctx: PayoutContext, { business, query }: { business: Business; query: ListQuery }): AsyncGenerator<string> {
  const rows = await filtered(ctx.db, business, query)
    .selectAll()
    .orderBy(sql`${SORT[query.sortBy]} ${query.sortDirection === 'asc' ? sql`ASC` : sql`DESC`}`)
    .orderBy('id', query.sortDirection)
    .execute();
  yield (
    '\ufeff' +
    csvRow([
      'Reference',
      'Receiver',
      'E-mail',
      'Amount',
      'Fee',
      'Memo',
      'Pay on',
      'Status',
      'Batch',
      'Created',
      'Submitted by',
      'Approved by',
      'Paid',
      'Reason',
    ]) +
    '\r\n'
  );
  for (const row of rows) {
    yield (
      csvRow([
        ref(row),
        row.receiver_name,
        row.receiver_email,
        formatMoney(Number(row.amount_cents)),
        formatMoney(Number(row.fee_cents)),
        row.memo,
        row.pay_on ? formatDay(row.pay_on) : '',
        PAYOUT_STATE_LABELS[row.state],
        row.batch_id ?? '',
        formatDateTime(row.created_at, business.timeZone),
        row.submitted_by ?? '',
        row.approved_by ?? '',
        row.processed_at ? formatDateTime(row.processed_at, business.timeZone) : '',
        row.reject_reason ?? row.failure_reason ?? '',
      ]) + '\r\n'
    );
  }
}

export async function payoutSummary(ctx: PayoutContext, { business }: { business: Business }): Promise<PayoutSummary> {
  const [balances, month, waiting, recent, required] = await Promise.all([
    getBalances(ctx.db, business.id),
    ctx.db
      .selectFrom('payouts')
      .select((eb) => [eb.fn.countAll<string>().as('n'), sql<string>`coalesce(sum(amount_cents), 0)::bigint`.as('amount')])
      .where('business_id', '=', business.id)
      .where('state', '=', 'Processed')
      .where(sql<boolean>`date_trunc('month', processed_at AT TIME ZONE ${business.timeZone}) = date_trunc('month', now() AT TIME ZONE ${business.timeZone})`)
      .executeTakeFirstOrThrow(),
    ctx.db
      .selectFrom('payouts')
      .select((eb) => [eb.fn.countAll<string>().as('n'), sql<string>`coalesce(sum(amount_cents), 0)::bigint`.as('amount')])
      .where('business_id', '=', business.id)
      .where('state', '=', 'Submitted')
      .executeTakeFirstOrThrow(),
    ctx.db
      .selectFrom('payouts')
      .selectAll()
      .select(receiverReviewedColumn)
      .where('business_id', '=', business.id)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(10)
      .execute(),
    approvalRequired(ctx.db, business.id),
  ]);
  return {
    availableCents: balances.availableCents,
    inFlightCents: balances.payoutsInFlightCents,
    paidThisMonthCents: Number(month.amount),
    paidThisMonthCount: Number(month.n),
    waitingCount: Number(waiting.n),
    waitingCents: Number(waiting.amount),
    approvalRequired: required,
    feeCents: ctx.payoutFeeCents,
    recent: recent.map(toPayout),
  };
}

export async function getPayoutSettings(ctx: PayoutContext, { business }: { business: Business }): Promise<PayoutSettings> {
  return { approvalRequired: await approvalRequired(ctx.db, business.id), feeCents: ctx.payoutFeeCents };
}

export async function updatePayoutSettings(
  ctx: PayoutContext,
  { business, user, approvalRequired: required }: { business: Business; user: ActingUser; approvalRequired: boolean },
): Promise<PayoutSettings> {
  await ctx.db.transaction().execute(async (trx) => {
    await trx.updateTable('businesses').set({ payout_approval_required: required }).where('id', '=', business.id).execute();
    await recordEvent(trx, { businessId: business.id, actor: auditActor(user), action: 'payout_settings.updated', details: { approvalRequired: required } });
  });
  return { approvalRequired: required, feeCents: ctx.payoutFeeCents };
}
