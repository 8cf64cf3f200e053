import type { Transaction } from 'kysely';
import type { DB } from '../../db/schema';
import type { LedgerAccountKind } from '../../db/schema/payments';
import { newId } from '../../lib/ids';

type BusinessKind = Extract<LedgerAccountKind, 'business_pending' | 'business_available' | 'business_payouts_in_flight'>;
type PlatformKind = Extract<LedgerAccountKind, 'platform_fees' | 'processor_clearing'>;
export type Accounts = Record<BusinessKind | PlatformKind, string>;

/**
 * The accounts one business's payments move between: its pending and available balances, the
 * payouts it approved that have not been paid yet (ADR 035), and the platform's fee income and
 * processor clearing account. Created on first use; a concurrent twin
 * creating the same account is absorbed by the unique indexes.
 */
export async function ensureAccounts(trx: Transaction<DB>, businessId: string): Promise<Accounts> {
  const wanted: { business_id: string | null; kind: LedgerAccountKind }[] = [
    { business_id: businessId, kind: 'business_pending' },
    { business_id: businessId, kind: 'business_available' },
    { business_id: businessId, kind: 'business_payouts_in_flight' },
    { business_id: null, kind: 'platform_fees' },
    { business_id: null, kind: 'processor_clearing' },
  ];
  const find = () =>
    trx
      .selectFrom('ledger_accounts')
      .select(['id', 'business_id', 'kind'])
      .where((eb) =>
        eb.or([
          eb.and([eb('business_id', '=', businessId), eb('kind', 'in', ['business_pending', 'business_available', 'business_payouts_in_flight'])]),
          eb.and([eb('business_id', 'is', null), eb('kind', 'in', ['platform_fees', 'processor_clearing'])]),
        ]),
      )
      .execute();
  let rows = await find();
  if (rows.length < wanted.length) {
    await trx
      .insertInto('ledger_accounts')
      .values(wanted.filter((w) => !rows.some((r) => r.kind === w.kind)).map((w) => ({ id: newId('acct'), ...w })))
      .onConflict((oc) => oc.doNothing())
      .execute();
    rows = await find();
  }
  const byKind = Object.fromEntries(rows.map((r) => [r.kind, r.id])) as Partial<Accounts>;
  return {
    business_pending: byKind.business_pending!,
    business_available: byKind.business_available!,
    business_payouts_in_flight: byKind.business_payouts_in_flight!,
    platform_fees: byKind.platform_fees!,
    processor_clearing: byKind.processor_clearing!,
  };
}

export interface PostingInput {
  businessId: string;
  paymentId: string;
  amountCents: number;
  feeCents: number;
  description: string;
}

type Kind = DB['journal_transactions']['kind'];

/**
 * One journal transaction per (payment, kind): the unique constraint makes a replayed event post
 * nothing. Debits are positive, credits negative; zero lines are left out (a payment with no fee).
 * Returns false when this movement was already posted.
 */
async function post(trx: Transaction<DB>, input: PostingInput, kind: Kind, lines: [keyof Accounts, number][]): Promise<boolean> {
  const accounts = await ensureAccounts(trx, input.businessId);
  const journal = await trx
    .insertInto('journal_transactions')
    .values({ id: newId('jtx'), business_id: input.businessId, kind, payment_id: input.paymentId, description: input.description })
    .onConflict((oc) => oc.columns(['payment_id', 'kind']).where('refund_id', 'is', null).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!journal) return false;
  await insertLines(trx, journal.id, accounts, lines);
  return true;
}

/** A journal transaction's entries, its zero lines left out. */
async function insertLines(trx: Transaction<DB>, transactionId: string, accounts: Accounts, lines: [keyof Accounts, number][]): Promise<void> {
  await trx
    .insertInto('journal_entries')
    .values(
      lines
        .filter(([, amount]) => amount !== 0)
        .map(([account, amount]) => ({ transaction_id: transactionId, account_id: accounts[account], amount_cents: amount })),
    )
    .execute();
}

/** The processor captured the payment: the business is owed the amount less the fee, pending settlement. */
export function postCapture(trx: Transaction<DB>, input: PostingInput): Promise<boolean> {
  const net = input.amountCents - input.feeCents;
  return post(trx, input, 'payment_captured', [
    ['processor_clearing', input.amountCents],
    ['business_pending', -net],
    ['platform_fees', -input.feeCents],
  ]);
}

/** The money arrived: pending becomes available. */
export function postSettlement(trx: Transaction<DB>, input: PostingInput): Promise<boolean> {
  const net = input.amountCents - input.feeCents;
  return post(trx, input, 'payment_settled', [
    ['business_pending', net],
    ['business_available', -net],
  ]);
}

/**
 * The payment came back (e.g. an ACH return): the capture is reversed in full, fee included, from
 * the available balance once settled (which may go below zero), from pending before that.
 */
export function postReturn(trx: Transaction<DB>, input: PostingInput & { settled: boolean }): Promise<boolean> {
  const net = input.amountCents - input.feeCents;
  return post(trx, input, 'payment_returned', [
    [input.settled ? 'business_available' : 'business_pending', net],
    ['platform_fees', input.feeCents],
    ['processor_clearing', -input.amountCents],
  ]);
}

/* ------------------------------------------------------------- payouts (ADR 035) */

/** A payout's movements: `paymentId` holds the payout id; `feeCents` the payout fee fixed at approval. */
export type PayoutPostingInput = PostingInput;

/** Approved: amount and fee leave the available balance and wait in flight until the processor pays. */
export function postPayoutReserved(trx: Transaction<DB>, input: PayoutPostingInput): Promise<boolean> {
  const total = input.amountCents + input.feeCents;
  return post(trx, input, 'payout_reserved', [
    ['business_available', total],
    ['business_payouts_in_flight', -total],
  ]);
}

/** Paid by the processor: the amount goes out through the processor, the fee to the platform. */
export function postPayoutProcessed(trx: Transaction<DB>, input: PayoutPostingInput): Promise<boolean> {
  return post(trx, input, 'payout_processed', [
    ['business_payouts_in_flight', input.amountCents + input.feeCents],
    ['processor_clearing', -input.amountCents],
    ['platform_fees', -input.feeCents],
  ]);
}

/** Never sent (the processor refused it at once): the reservation goes back to available. */
export function postPayoutReleased(trx: Transaction<DB>, input: PayoutPostingInput): Promise<boolean> {
  const total = input.amountCents + input.feeCents;
  return post(trx, input, 'payout_released', [
    ['business_payouts_in_flight', total],
    ['business_available', -total],
  ]);
}

/**
 * The receiver's bank returned it: amount and fee back to available — from in flight when it had
 * not been marked paid yet, otherwise reversing the payment out (processor and fee) in full.
 */
export function postPayoutReturned(trx: Transaction<DB>, input: PayoutPostingInput & { processed: boolean }): Promise<boolean> {
  const total = input.amountCents + input.feeCents;
  return post(
    trx,
    input,
    'payout_returned',
    input.processed
      ? [
          ['processor_clearing', input.amountCents],
          ['platform_fees', input.feeCents],
          ['business_available', -total],
        ]
      : [
          ['business_payouts_in_flight', total],
          ['business_available', -total],
        ],
  );
}

/** A refund's journal transaction of `kind`, or undefined when the refund has one already. */
function refundJournal(
  trx: Transaction<DB>,
  input: { businessId: string; paymentId: string; refundId: string; description: string; kind: 'refund_reserved' | 'refund_failed' },
) {
  return trx
    .insertInto('journal_transactions')
    .values({
      id: newId('jtx'),
      business_id: input.businessId,
      kind: input.kind,
      payment_id: input.paymentId,
      refund_id: input.refundId,
      description: input.description,
    })
    .onConflict((oc) => oc.columns(['refund_id', 'kind']).where('refund_id', 'is not', null).doNothing())
    .returning('id')
    .executeTakeFirst();
}

/** What a refund takes from the business's balances (ADR 051): available first, then pending. */
export interface RefundTaken {
  fromAvailable: number;
  fromPending: number;
}

/**
 * A refund leaves: the business's balances give back what the payer gets less the fee returned
 * with it (available first, then pending, as decided under the available account's lock), the
 * platform gives back that fee, and the amount leaves through the processor. One per refund.
 */
export async function postRefundReserved(
  trx: Transaction<DB>,
  input: { businessId: string; paymentId: string; refundId: string; amountCents: number; feeReturnedCents: number; taken: RefundTaken; description: string },
): Promise<boolean> {
  const accounts = await ensureAccounts(trx, input.businessId);
  const journal = await refundJournal(trx, { ...input, kind: 'refund_reserved' });
  if (!journal) return false;
  const lines: [keyof Accounts, number][] = [
    ['business_available', input.taken.fromAvailable],
    ['business_pending', input.taken.fromPending],
    ['platform_fees', input.feeReturnedCents],
    ['processor_clearing', -input.amountCents],
  ];
  await insertLines(trx, journal.id, accounts, lines);
  return true;
}

/** The processor could not refund: exactly what the refund took goes back where it came from. One per refund. */
export async function postRefundFailed(trx: Transaction<DB>, input: { businessId: string; refundId: string; description: string }): Promise<boolean> {
  const reserved = await trx
    .selectFrom('journal_transactions')
    .select(['id', 'payment_id'])
    .where('refund_id', '=', input.refundId)
    .where('kind', '=', 'refund_reserved')
    .executeTakeFirst();
  if (!reserved) return false;
  const journal = await refundJournal(trx, { ...input, paymentId: reserved.payment_id, kind: 'refund_failed' });
  if (!journal) return false;
  const entries = await trx.selectFrom('journal_entries').select(['account_id', 'amount_cents']).where('transaction_id', '=', reserved.id).execute();
  await trx
    .insertInto('journal_entries')
    .values(entries.map((e) => ({ transaction_id: journal.id, account_id: e.account_id, amount_cents: -e.amount_cents })))
    .execute();
  return true;
}

/**
 * A dispute opened (ADR 051): the payer's bank already took the disputed amount back through the
 * processor, and the dispute fee is the platform's; both leave the available balance, which may go
 * below zero (payouts then wait). One per payment: a charge is disputed at most once.
 */
export function postDisputeOpened(trx: Transaction<DB>, input: PostingInput): Promise<boolean> {
  return post(trx, input, 'dispute_opened', [
    ['business_available', input.amountCents + input.feeCents],
    ['processor_clearing', -input.amountCents],
    ['platform_fees', -input.feeCents],
  ]);
}

/** The dispute was won: the amount comes back to the available balance, with the fee returned (`feeCents`, 0 unless the setting says so). */
export function postDisputeWon(trx: Transaction<DB>, input: PostingInput): Promise<boolean> {
  return post(trx, input, 'dispute_won', [
    ['processor_clearing', input.amountCents],
    ['platform_fees', input.feeCents],
    ['business_available', -(input.amountCents + input.feeCents)],
  ]);
}
