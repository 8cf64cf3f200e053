import type { z } from 'zod';
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import {
  csvRow,
  daysLeftLabel,
  DISPUTE_CLOSED,
  DISPUTE_EVIDENCE_FIELDS,
  DISPUTE_REASON_LABELS,
  DISPUTE_REASONS,
  DISPUTE_STATE_LABELS,
  formatDateTime,
  formatMoney,
  type DisputeListQuery,
  type SubmitEvidenceBody,
  type Dispute,
  type DisputeEvidenceField,
  type DisputeReason,
  type DisputeSummary,
} from '@tay/contract';
import { jobDb, type Executor } from '../../db/executor';
import { firstDelivery } from '../../db/processor-events';
import type { DB } from '../../db/schema';
import type { DisputesTable } from '../../db/schema/payments';
import type { Jobs } from '../../jobs/queue';
import { AppError } from '../../lib/app-error';
import { newId } from '../../lib/ids';
import type { Mailer, MailMessage } from '../../mail/mailer';
import type { DisputeProcessorEvent, PaymentProcessor } from '../../processor/port';
import { recordEvent, type Actor } from '../businesses/audit';
import { requireMoneyRule } from '../businesses/money-rules';
import { ensureAccounts, postDisputeOpened, postDisputeWon } from '../ledger/post';
import { lockRequestAndPayment, PROCESSOR_ACTOR } from '../payments/payment-record';
import { parseReferenceNumber, referenceNumber } from '../payment-requests/request-record';
import { userActor, type ActingUser } from '../payment-requests/request-context';
import { recordRequestEvent } from '../payment-requests/transition';
import { parseEvidenceFile } from './evidence-files';

type DisputeRow = Selectable<DisputesTable>;

/** FEE_DISPUTE_CENTS and FEE_DISPUTE_WON_RETURNS_FEE (ADR 051). */
export interface DisputeFees {
  disputeCents: number;
  wonReturnsFee: boolean;
}

/** What a dispute's processor events need: the e-mails to owners and admins and the fee rules. */
export interface DisputeEventDeps {
  db: Kysely<DB>;
  mailer: Pick<Mailer, 'send'>;
  fees: DisputeFees;
  publicUrl: string;
}

/** What answering a dispute needs besides the database: the processor and the job queue. */
export interface DisputeDeps {
  db: Kysely<DB>;
  processor: Pick<PaymentProcessor, 'submitDisputeEvidence' | 'acceptDispute'>;
  jobs: Pick<Jobs, 'send'>;
}

const PROCESSOR_AUDIT_ACTOR: Actor = { userId: null, label: 'payment processor' };

/** How long `disputes.send` waits before telling the processor itself: the request tells it at once, the job only after a crash. */
const RESUME_AFTER_SECONDS = 30;

/** A week before the evidence is due, owners and admins are reminded. */
export const REMIND_DAYS_BEFORE = 7;

const isReason = (value: string): value is DisputeReason => (DISPUTE_REASONS as readonly string[]).includes(value);

// ─── The processor's events ───────────────────────────────────────────────────────────────────

/**
 * A verified `dispute.*` webhook (ADR 051), applied once (`firstDelivery`). `dispute.created`
 * records the dispute and takes the disputed amount and the dispute fee from the available
 * balance, under its lock (the order refunds and payouts take); `dispute.updated` marks it under
 * review when the answer reached the bank another way; `dispute.closed` records the bank's
 * decision, and a won dispute gives the amount back (and the fee, where the setting says so).
 */
export async function applyDisputeEvent(
  deps: DisputeEventDeps,
  event: DisputeProcessorEvent,
): Promise<'applied' | 'duplicate' | 'unchanged' | 'unknown-payment' | 'unknown-dispute'> {
  return deps.db.transaction().execute(async (trx) => {
    if (!(await firstDelivery(trx, event))) return 'duplicate';
    const { businessId, paymentId } = event.data.metadata;
    if (event.type === 'dispute.created') return openDispute(trx, deps, event);
    const dispute = await trx
      .selectFrom('disputes')
      .selectAll()
      .where('business_id', '=', businessId)
      .where('processor_dispute_id', '=', event.data.processorDisputeId)
      .where('payment_id', '=', paymentId)
      .forUpdate()
      .executeTakeFirst();
    if (!dispute) return 'unknown-dispute';
    if (event.type === 'dispute.updated') {
      if (event.data.status !== 'under_review' || dispute.state !== 'NeedsResponse') return 'unchanged';
      await setState(trx, dispute, { state: 'UnderReview' });
      return 'applied';
    }
    if (event.data.status !== 'won' && event.data.status !== 'lost') return 'unchanged';
    return closeDispute(trx, deps, dispute, event.data.status);
  });
}

async function openDispute(trx: Transaction<DB>, deps: DisputeEventDeps, event: DisputeProcessorEvent) {
  const { businessId, paymentId } = event.data.metadata;
  const accounts = await ensureAccounts(trx, businessId);
  await trx.selectFrom('ledger_accounts').select('id').where('id', '=', accounts.business_available).forUpdate().execute();
  const locked = await lockRequestAndPayment(trx, businessId, paymentId);
  if (!locked || locked.payment.processor_charge_id !== event.data.chargeId) return 'unknown-payment' as const;
  const { request, payment } = locked;
  const known = await trx.selectFrom('disputes').select('id').where('business_id', '=', businessId).where('payment_id', '=', paymentId).executeTakeFirst();
  if (known) return 'unchanged' as const;
  const disputeId = newId('dsp');
  const amount = event.data.amountCents;
  const fee = deps.fees.disputeCents;
  const dueAt = new Date(event.data.evidenceDueBy * 1000);
  await trx
    .insertInto('disputes')
    .values({
      business_id: businessId,
      id: disputeId,
      request_id: request.id,
      payment_id: paymentId,
      processor_dispute_id: event.data.processorDisputeId,
      amount_cents: amount,
      fee_cents: fee,
      reason: isReason(event.data.reason) ? event.data.reason : 'general',
      state: 'NeedsResponse',
      evidence_due_at: dueAt,
      evidence: null,
      submitted_at: null,
      submitted_by: null,
      send_pending: null,
      reminder_sent_at: null,
      closed_at: null,
    })
    .execute();
  await postDisputeOpened(trx, {
    businessId,
    paymentId,
    amountCents: amount,
    feeCents: fee,
    description: `Dispute of ${formatMoney(amount)} on ${payment.instrument}, and its ${formatMoney(fee)} fee`,
  });
  await recordRequestEvent({
    db: trx,
    businessId,
    requestId: request.id,
    actor: PROCESSOR_ACTOR,
    event: 'disputeOpened',
    from: null,
    to: null,
    detail: `The payer’s bank disputed ${formatMoney(amount)} of ${payment.instrument}. Evidence is due by ${dueAt.toISOString().slice(0, 10)}.`,
  });
  await recordEvent(trx, {
    businessId,
    actor: PROCESSOR_AUDIT_ACTOR,
    action: 'dispute.opened',
    details: { disputeId, requestId: request.id, paymentId, amountCents: amount, feeCents: fee, reason: event.data.reason },
  });
  const dispute = await trx.selectFrom('disputes').selectAll().where('business_id', '=', businessId).where('id', '=', disputeId).executeTakeFirstOrThrow();
  await tellOwnersAndAdmins(trx, deps, dispute, 'opened');
  return 'applied' as const;
}

async function closeDispute(trx: Transaction<DB>, deps: DisputeEventDeps, dispute: DisputeRow, outcome: 'won' | 'lost') {
  if (dispute.closed_at) return 'unchanged' as const;
  const amount = Number(dispute.amount_cents);
  // An accepted dispute stays Accepted: the business gave it up; the bank's "lost" only confirms it.
  if (dispute.state === 'Accepted') {
    await setState(trx, dispute, { closed_at: new Date() });
    return 'applied' as const;
  }
  const feeReturned = outcome === 'won' && deps.fees.wonReturnsFee ? Number(dispute.fee_cents) : 0;
  await setState(trx, dispute, { state: outcome === 'won' ? 'Won' : 'Lost', closed_at: new Date(), fee_returned_cents: feeReturned });
  if (outcome === 'won') {
    const accounts = await ensureAccounts(trx, dispute.business_id);
    await trx.selectFrom('ledger_accounts').select('id').where('id', '=', accounts.business_available).forUpdate().execute();
    await postDisputeWon(trx, {
      businessId: dispute.business_id,
      paymentId: dispute.payment_id,
      amountCents: amount,
      feeCents: feeReturned,
      description: `Dispute won: ${formatMoney(amount)}${feeReturned > 0 ? ` and the ${formatMoney(feeReturned)} fee` : ''} back`,
    });
  }
  await recordRequestEvent({
    db: trx,
    businessId: dispute.business_id,
    requestId: dispute.request_id,
    actor: PROCESSOR_ACTOR,
    event: 'disputeClosed',
    from: null,
    to: null,
    detail:
      outcome === 'won'
        ? `The dispute was decided for the business: ${formatMoney(amount)} is back in the balance.`
        : `The dispute was decided for the payer: ${formatMoney(amount)} stays with them.`,
  });
  await recordEvent(trx, {
    businessId: dispute.business_id,
    actor: PROCESSOR_AUDIT_ACTOR,
    action: outcome === 'won' ? 'dispute.won' : 'dispute.lost',
    details: { disputeId: dispute.id, requestId: dispute.request_id, amountCents: amount, feeReturnedCents: feeReturned },
  });
  await tellOwnersAndAdmins(trx, deps, { ...dispute, state: outcome === 'won' ? 'Won' : 'Lost' }, outcome);
  return 'applied' as const;
}

function setState(
  trx: Transaction<DB>,
  dispute: Pick<DisputeRow, 'business_id' | 'id'>,
  set: Partial<Pick<DisputeRow, 'state' | 'closed_at' | 'fee_returned_cents'>>,
) {
  return trx
    .updateTable('disputes')
    .set({ ...set, updated_at: new Date() })
    .where('business_id', '=', dispute.business_id)
    .where('id', '=', dispute.id)
    .execute();
}

// ─── E-mails to owners and admins ─────────────────────────────────────────────────────────────

type Notice = 'opened' | 'reminder' | 'won' | 'lost';

async function tellOwnersAndAdmins(trx: Executor, deps: Pick<DisputeEventDeps, 'mailer' | 'publicUrl'>, dispute: DisputeRow, notice: Notice) {
  const business = await trx.selectFrom('businesses').select(['business_name', 'time_zone']).where('id', '=', dispute.business_id).executeTakeFirstOrThrow();
  const request = await trx
    .selectFrom('payment_requests')
    .select(['number', 'payer_display_name'])
    .where('business_id', '=', dispute.business_id)
    .where('id', '=', dispute.request_id)
    .executeTakeFirstOrThrow();
  const people = await trx
    .selectFrom('business_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select('u.email')
    .where('m.business_id', '=', dispute.business_id)
    .where('m.role', 'in', ['owner', 'admin'])
    .orderBy('m.created_at')
    .execute();
  for (const { email } of people) {
    await deps.mailer.send(disputeEmail(email, { ...business, publicUrl: deps.publicUrl }, request, dispute, notice), trx);
  }
}

export function disputeEmail(
  to: string,
  business: { business_name: string; time_zone: string; publicUrl: string },
  request: { number: number; payer_display_name: string },
  dispute: DisputeRow,
  notice: Notice,
): MailMessage {
  const amount = formatMoney(Number(dispute.amount_cents));
  const reference = referenceNumber(request.number);
  const due = `${formatDateTime(dispute.evidence_due_at, business.time_zone)} (${business.time_zone})`;
  const link = `${business.publicUrl}/business/payment/disputes?dispute=${encodeURIComponent(dispute.id)}`;
  const subjects: Record<Notice, string> = {
    opened: `Dispute: ${amount} from ${request.payer_display_name} (${reference}) needs a response`,
    reminder: `Reminder: the evidence for the ${amount} dispute (${reference}) is due in ${daysLeftLabel(dispute.evidence_due_at.toISOString()).replace(' left', '')}`,
    won: `Dispute won: ${amount} (${reference}) is back in your balance`,
    lost: `Dispute lost: ${amount} (${reference}) stays with the payer`,
  };
  const lines: Record<Notice, string[]> = {
    opened: [
      `${request.payer_display_name}’s bank disputed ${amount} paid to ${business.business_name} for ${reference}.`,
      `Reason: ${DISPUTE_REASON_LABELS[dispute.reason]}`,
      `The disputed amount and the ${formatMoney(Number(dispute.fee_cents))} dispute fee have left your available balance.`,
      `Answer with evidence by ${due}, or accept the dispute: ${link}`,
    ],
    reminder: [`The evidence for the dispute of ${amount} (${reference}, ${request.payer_display_name}) is due by ${due}.`, `Answer it or accept it: ${link}`],
    won: [`The bank decided the dispute of ${amount} (${reference}) for ${business.business_name}.`, `${amount} is back in your available balance.`, link],
    lost: [`The bank decided the dispute of ${amount} (${reference}) for the payer.`, 'The amount and the dispute fee stay deducted.', link],
  };
  return {
    about: { businessId: dispute.business_id, requestId: dispute.request_id },
    to,
    subject: subjects[notice],
    text: `${lines[notice].join('\n')}\n\nYou receive this as an owner or admin of ${business.business_name} in Tay.\n`,
  };
}

/**
 * The hourly `disputes.remind` job: owners and admins of each dispute still needing a response
 * whose evidence is due within a week, once per dispute (`reminder_sent_at`, set in the same
 * transaction as the e-mails; concurrent runs skip what another holds).
 */
export async function remindDisputes(deps: Pick<DisputeEventDeps, 'db' | 'mailer' | 'publicUrl'>, now: Date = new Date()): Promise<number> {
  return deps.db.transaction().execute(async (trx) => {
    const due = await trx
      .selectFrom('disputes')
      .selectAll()
      .where('state', '=', 'NeedsResponse')
      .where('reminder_sent_at', 'is', null)
      .where('evidence_due_at', '>', now)
      .where('evidence_due_at', '<=', new Date(now.getTime() + REMIND_DAYS_BEFORE * 86_400_000))
      .orderBy('evidence_due_at')
      .limit(500)
      .forUpdate()
      .skipLocked()
      .execute();
    for (const dispute of due) {
      await trx.updateTable('disputes').set({ reminder_sent_at: now }).where('business_id', '=', dispute.business_id).where('id', '=', dispute.id).execute();
      await tellOwnersAndAdmins(trx, deps, dispute, 'reminder');
    }
    return due.length;
  });
}

// ─── Answering: evidence or acceptance ────────────────────────────────────────────────────────

async function lockOpenDispute(trx: Transaction<DB>, businessId: string, disputeId: string, actor: ActingUser): Promise<DisputeRow> {
  await requireMoneyRule(trx, businessId, actor.userId, 'dispute');
  const dispute = await trx.selectFrom('disputes').selectAll().where('business_id', '=', businessId).where('id', '=', disputeId).forUpdate().executeTakeFirst();
  if (!dispute) throw AppError.notFound('Dispute');
  if (dispute.state !== 'NeedsResponse') {
    throw new AppError(DISPUTE_CLOSED, `This dispute is ${DISPUTE_STATE_LABELS[dispute.state].toLowerCase()}: it no longer takes an answer.`, undefined, 409);
  }
  if (dispute.evidence_due_at.getTime() <= Date.now()) {
    throw new AppError(
      DISPUTE_CLOSED,
      `The evidence was due by ${dispute.evidence_due_at.toISOString().slice(0, 10)}; the bank no longer takes it.`,
      undefined,
      409,
    );
  }
  return dispute;
}

/**
 * Answers a dispute with evidence (owners and admins, `MONEY_RULES.dispute`): the text and up to
 * five files are checked (each file's type from its bytes, its size), stored with the dispute, and
 * the dispute goes Under review in one transaction; the processor is then told at once, and a
 * `disputes.send` job tells it again if this process dies first.
 */
export async function submitEvidence(
  deps: DisputeDeps,
  input: { businessId: string; disputeId: string; body: z.output<typeof SubmitEvidenceBody>; actor: ActingUser },
): Promise<Dispute> {
  const { businessId, disputeId, body, actor } = input;
  const files = body.files.map((file, index) => parseEvidenceFile(file, index));
  const text: Record<string, string> = {};
  for (const field of Object.keys(DISPUTE_EVIDENCE_FIELDS) as DisputeEvidenceField[]) {
    const value = body[field];
    if (value) text[field] = value;
  }
  await deps.db.transaction().execute(async (trx) => {
    const dispute = await lockOpenDispute(trx, businessId, disputeId, actor);
    for (const file of files) {
      await trx
        .insertInto('dispute_evidence_files')
        .values({
          business_id: businessId,
          id: newId('dfl'),
          dispute_id: disputeId,
          file_name: file.name,
          content_type: file.contentType,
          size_bytes: file.bytes.length,
          content: file.bytes,
        })
        .execute();
    }
    await trx
      .updateTable('disputes')
      .set({
        state: 'UnderReview',
        evidence: JSON.stringify(text),
        submitted_at: new Date(),
        submitted_by: actor.email,
        send_pending: 'evidence',
        updated_at: new Date(),
      })
      .where('business_id', '=', businessId)
      .where('id', '=', disputeId)
      .execute();
    await answered(
      trx,
      deps,
      dispute,
      actor,
      'evidence',
      `Evidence sent for the dispute of ${formatMoney(Number(dispute.amount_cents))}${files.length ? ` with ${files.length} file${files.length === 1 ? '' : 's'}` : ''}.`,
      {
        fields: Object.keys(text),
        files: files.map((f) => f.name),
      },
    );
  });
  await sendDisputeAnswer(deps, { businessId, disputeId }).catch(() => 'left for disputes.send');
  return getDispute(deps.db, businessId, disputeId);
}

/** Accepts a dispute (owners and admins): it is Accepted at once, the money stays with the payer, and the processor is told. */
export async function acceptDispute(deps: DisputeDeps, input: { businessId: string; disputeId: string; actor: ActingUser }): Promise<Dispute> {
  const { businessId, disputeId, actor } = input;
  await deps.db.transaction().execute(async (trx) => {
    const dispute = await lockOpenDispute(trx, businessId, disputeId, actor);
    await trx
      .updateTable('disputes')
      .set({ state: 'Accepted', submitted_at: new Date(), submitted_by: actor.email, send_pending: 'accept', updated_at: new Date() })
      .where('business_id', '=', businessId)
      .where('id', '=', disputeId)
      .execute();
    await answered(
      trx,
      deps,
      dispute,
      actor,
      'accept',
      `The dispute of ${formatMoney(Number(dispute.amount_cents))} was accepted: the amount stays with the payer.`,
      {},
    );
  });
  await sendDisputeAnswer(deps, { businessId, disputeId }).catch(() => 'left for disputes.send');
  return getDispute(deps.db, businessId, disputeId);
}

async function answered(
  trx: Transaction<DB>,
  deps: DisputeDeps,
  dispute: DisputeRow,
  actor: ActingUser,
  how: 'evidence' | 'accept',
  detail: string,
  details: Record<string, unknown>,
) {
  await recordRequestEvent({
    db: trx,
    businessId: dispute.business_id,
    requestId: dispute.request_id,
    actor: userActor(actor),
    event: 'disputeAnswered',
    from: null,
    to: null,
    detail,
  });
  await recordEvent(trx, {
    businessId: dispute.business_id,
    actor: { userId: actor.userId, label: actor.email, ip: actor.ip ?? null },
    action: how === 'evidence' ? 'dispute.evidence_submitted' : 'dispute.accepted',
    details: { disputeId: dispute.id, requestId: dispute.request_id, amountCents: Number(dispute.amount_cents), ...details },
  });
  await deps.jobs.send(
    'disputes.send',
    { businessId: dispute.business_id, disputeId: dispute.id },
    { db: jobDb(trx), singletonKey: `dispute:${dispute.id}`, startAfter: RESUME_AFTER_SECONDS },
  );
}

/**
 * Tells the processor a dispute's answer that it has not acknowledged yet (`send_pending`); the
 * request calls it at once, the `disputes.send` job again after a crash. Telling twice is harmless:
 * the processor answers with the dispute's status.
 */
export async function sendDisputeAnswer(deps: Pick<DisputeDeps, 'db' | 'processor'>, { businessId, disputeId }: { businessId: string; disputeId: string }) {
  const dispute = await deps.db.selectFrom('disputes').selectAll().where('business_id', '=', businessId).where('id', '=', disputeId).executeTakeFirst();
  if (!dispute?.send_pending) return 'nothing-to-send';
  let result;
  if (dispute.send_pending === 'accept') {
    result = await deps.processor.acceptDispute({ processorDisputeId: dispute.processor_dispute_id });
  } else {
    const files = await deps.db
      .selectFrom('dispute_evidence_files')
      .select('file_name')
      .where('business_id', '=', businessId)
      .where('dispute_id', '=', disputeId)
      .orderBy('created_at')
      .execute();
    result = await deps.processor.submitDisputeEvidence({
      processorDisputeId: dispute.processor_dispute_id,
      text: dispute.evidence ?? {},
      fileNames: files.map((f) => f.file_name),
    });
  }
  if (!result.ok) throw new Error(result.failureMessage);
  await deps.db
    .updateTable('disputes')
    .set({ send_pending: null })
    .where('business_id', '=', businessId)
    .where('id', '=', disputeId)
    .where('send_pending', '=', dispute.send_pending)
    .execute();
  return 'sent';
}

// ─── Reading ──────────────────────────────────────────────────────────────────────────────────

type DisputeListRow = DisputeRow & { instrument: string; payment_amount_cents: number; number: number; payer_display_name: string };

function disputesWithPayment(db: Kysely<DB> | Transaction<DB>, businessId: string) {
  return db
    .selectFrom('disputes as d')
    .innerJoin('payments as p', (join) => join.onRef('p.business_id', '=', 'd.business_id').onRef('p.id', '=', 'd.payment_id'))
    .innerJoin('payment_requests as q', (join) => join.onRef('q.business_id', '=', 'd.business_id').onRef('q.id', '=', 'd.request_id'))
    .selectAll('d')
    .select(['p.instrument', 'p.amount_cents as payment_amount_cents', 'q.number', 'q.payer_display_name'])
    .where('d.business_id', '=', businessId);
}

function toDispute(row: DisputeListRow, files: Dispute['files'] = []): Dispute {
  return {
    disputeId: row.id,
    requestId: row.request_id,
    referenceNumber: referenceNumber(row.number),
    payerName: row.payer_display_name,
    paymentId: row.payment_id,
    instrument: row.instrument,
    paymentAmountCents: Number(row.payment_amount_cents),
    amountCents: Number(row.amount_cents),
    feeCents: Number(row.fee_cents),
    feeReturnedCents: Number(row.fee_returned_cents),
    reason: row.reason,
    state: row.state,
    evidenceDueAt: row.evidence_due_at.toISOString(),
    evidence: row.evidence,
    files,
    submittedAt: row.submitted_at?.toISOString() ?? null,
    submittedBy: row.submitted_by,
    closedAt: row.closed_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
  };
}

export async function getDispute(db: Kysely<DB>, businessId: string, disputeId: string): Promise<Dispute> {
  const row = await disputesWithPayment(db, businessId).where('d.id', '=', disputeId).executeTakeFirst();
  if (!row) throw AppError.notFound('Dispute');
  const files = await db
    .selectFrom('dispute_evidence_files')
    .select(['id', 'file_name', 'content_type', 'size_bytes'])
    .where('business_id', '=', businessId)
    .where('dispute_id', '=', disputeId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return toDispute(
    row,
    files.map((f) => ({ fileId: f.id, name: f.file_name, contentType: f.content_type, sizeBytes: f.size_bytes })),
  );
}

export async function getEvidenceFile(db: Kysely<DB>, businessId: string, disputeId: string, fileId: string) {
  const file = await db
    .selectFrom('dispute_evidence_files')
    .select(['file_name', 'content_type', 'content'])
    .where('business_id', '=', businessId)
    .where('dispute_id', '=', disputeId)
    .where('id', '=', fileId)
    .executeTakeFirst();
  if (!file) throw AppError.notFound('File');
  return file;
}

type DisputeQuery = Pick<z.output<typeof DisputeListQuery>, 'state' | 'reason' | 'requestId' | 'search'>;

function filtered(db: Kysely<DB>, businessId: string, query: DisputeQuery) {
  let base = disputesWithPayment(db, businessId);
  if (query.state) base = base.where('d.state', '=', query.state);
  if (query.reason) base = base.where('d.reason', '=', query.reason);
  if (query.requestId) base = base.where('d.request_id', '=', query.requestId);
  const search = query.search?.trim();
  if (search) {
    const number = parseReferenceNumber(search);
    const prefix = `${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    base = base.where((eb) => eb.or([...(number !== null ? [eb('q.number', '=', number)] : []), eb(sql<string>`lower(q.payer_display_name)`, 'like', prefix)]));
  }
  return base;
}

/** The business's disputes: newest first, or soonest due (`sortBy: evidenceDueAt`); by state, reason and request, searched by TRX number or payer. */
export async function listDisputes(
  db: Kysely<DB>,
  businessId: string,
  query: DisputeQuery & { page: number; pageSize: number; sortBy?: z.output<typeof DisputeListQuery>['sortBy']; sortDirection?: 'asc' | 'desc' | undefined },
): Promise<{ items: Dispute[]; page: number; pageSize: number; total: number }> {
  const base = filtered(db, businessId, query);
  const direction = query.sortDirection ?? 'desc';
  const column = query.sortBy === 'evidenceDueAt' ? 'd.evidence_due_at' : 'd.created_at';
  const [rows, count] = await Promise.all([
    base
      .orderBy(column, direction)
      .orderBy('d.id', direction)
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute(),
    base
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map((row) => toDispute(row)), page: query.page, pageSize: query.pageSize, total: Number(count.n) };
}

/** Home's "Needs response": the count and the soonest due date. */
export async function disputeSummary(db: Kysely<DB>, businessId: string): Promise<DisputeSummary> {
  const row = await db
    .selectFrom('disputes')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('evidence_due_at').as('next')])
    .where('business_id', '=', businessId)
    .where('state', '=', 'NeedsResponse')
    .executeTakeFirstOrThrow();
  const next = row.next as Date | string | null;
  return { needsResponseCount: Number(row.n), nextDueAt: next ? new Date(next).toISOString() : null };
}

const dollars = (cents: number) => (cents / 100).toFixed(2);

/** The CSV of what the list shows, newest first, in batches by keyset: memory stays flat. */
export async function* exportDisputes(db: Kysely<DB>, businessId: string, timeZone: string, query: DisputeQuery): AsyncGenerator<string> {
  const columns: { header: string; value: (d: Dispute) => string }[] = [
    { header: 'Dispute', value: (d) => d.disputeId },
    { header: 'Reference', value: (d) => d.referenceNumber },
    { header: 'Payer', value: (d) => d.payerName },
    { header: 'Card', value: (d) => d.instrument },
    { header: 'Disputed (USD)', value: (d) => dollars(d.amountCents) },
    { header: 'Fee (USD)', value: (d) => dollars(d.feeCents) },
    { header: 'Fee returned (USD)', value: (d) => dollars(d.feeReturnedCents) },
    { header: 'Reason', value: (d) => DISPUTE_REASON_LABELS[d.reason] },
    { header: 'Status', value: (d) => DISPUTE_STATE_LABELS[d.state] },
    { header: `Evidence due (${timeZone})`, value: (d) => formatDateTime(d.evidenceDueAt, timeZone) },
    { header: 'Answered by', value: (d) => d.submittedBy ?? '' },
    { header: `Opened (${timeZone})`, value: (d) => formatDateTime(d.createdAt, timeZone) },
    { header: `Closed (${timeZone})`, value: (d) => (d.closedAt ? formatDateTime(d.closedAt, timeZone) : '') },
  ];
  yield `\ufeff${csvRow(columns.map((c) => c.header))}\r\n`;
  let after: { createdAt: Date; id: string } | null = null;
  for (;;) {
    let q = filtered(db, businessId, query);
    if (after) {
      const anchor = after;
      q = q.where((eb) => eb(eb.refTuple('d.created_at', 'd.id'), '<', eb.tuple(anchor.createdAt, anchor.id)));
    }
    const rows = await q.orderBy('d.created_at', 'desc').orderBy('d.id', 'desc').limit(1000).execute();
    if (rows.length === 0) return;
    yield rows.map((row) => `${csvRow(columns.map((c) => c.value(toDispute(row))))}\r\n`).join('');
    const last = rows[rows.length - 1]!;
    after = { createdAt: last.created_at, id: last.id };
  }
}
