import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { expect } from 'vitest';
import type { RequestState } from '@tay/contract';
import type { DB } from '../../src/db/schema';
import { payTokenHash } from '../../src/domain/payment-requests/request-record';
import { newId } from '../../src/lib/ids';
import type { Runtime } from '../../src/runtime';
import { inDays } from './approved-business';
import { withSource } from './request-rows';

export const CARDS = {
  visa: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  mastercard: '5555555555554444',
  disputed: '4000000000000259',
};
export const BANK = {
  routingNumber: '222096656',
  settles: '000123456789',
  returned: '000111111113',
  insufficientFunds: '000222222227',
  unauthorized: '000444444441',
};

export interface TestRequest {
  requestId: string;
  /** The payer's link token (only its hash is stored). */
  payToken: string;
}

/**
 * A request to pay written directly with a known link token (the request API has its own tests):
 * Sent by default, due in a week.
 */
export async function insertRequest(
  db: Kysely<DB>,
  businessId: string,
  payerId: string,
  over: Partial<{ amountCents: number; amountPaidCents: number; allowPartial: boolean; state: RequestState; expiresOn: string; payerEmail: string }> = {},
): Promise<TestRequest> {
  const payToken = randomBytes(24).toString('base64url');
  const requestId = newId('req');
  const { rows } = await sql<{ n: number }>`SELECT coalesce(max(number), 10000)::int + 1 AS n FROM payment_requests WHERE business_id = ${businessId}`.execute(
    db,
  );
  const state = over.state ?? 'Sent';
  const expiresOn = over.expiresOn ?? inDays(30);
  await db
    .insertInto('payment_requests')
    .values({
      business_id: businessId,
      id: requestId,
      number: rows[0]!.n,
      payer_id: payerId,
      payer_display_name: 'Pat Payer',
      payer_email: over.payerEmail ?? 'pat@payers.example',
      amount_cents: over.amountCents ?? 12_500,
      amount_paid_cents: over.amountPaidCents ?? 0,
      memo: 'Spring term',
      reference: 'INV-7',
      due_date: expiresOn < inDays(7) ? expiresOn : inDays(7),
      expires_on: expiresOn,
      allow_partial: over.allowPartial ?? false,
      state,
      send_at: state === 'Pending' ? new Date(Date.now() + 86_400_000) : null,
      sent_at: state === 'Draft' || state === 'Pending' ? null : new Date(),
      paid_at: null,
      pay_token_hash: payTokenHash(payToken),
      last_reminder_offset: null,
      created_by: null,
    })
    .execute();
  return { requestId, payToken };
}

/** A processor token made through the sandbox's endpoint, as the hosted card field does. */
export async function tokenize(app: FastifyInstance, runtime: Runtime, instrument: { card: string } | { bankAccount: string }): Promise<string> {
  const payload =
    'card' in instrument
      ? { card: { number: instrument.card, expMonth: 12, expYear: new Date().getUTCFullYear() + 3, cvc: '123' } }
      : { bankAccount: { routingNumber: BANK.routingNumber, accountNumber: instrument.bankAccount, accountHolderName: 'Pat Payer' } };
  const res = await app.inject({
    method: 'POST',
    url: '/sandbox-processor/v1/tokens',
    headers: { authorization: `Bearer ${runtime.config.processor.publishableKey}`, 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id as string;
}

/** `from`: the payer's device address (each link takes ten attempts per device in ten minutes). */
export function pay(app: FastifyInstance, payToken: string, body: Record<string, unknown>, idempotencyKey?: string, from?: string) {
  return app.inject({
    method: 'POST',
    url: `/api/public/pay/${payToken}/payments`,
    ...(from ? { remoteAddress: from } : {}),
    headers: { 'content-type': 'application/json', ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
    payload: JSON.stringify(body),
  });
}

/** A request's row, with what its source holds read out (`withSource`). */
export async function requestRow(db: Kysely<DB>, requestId: string) {
  return withSource(await db.selectFrom('payment_requests').selectAll().where('id', '=', requestId).executeTakeFirstOrThrow());
}

export async function paymentRow(db: Kysely<DB>, paymentId: string) {
  return db.selectFrom('payments').selectAll().where('id', '=', paymentId).executeTakeFirstOrThrow();
}

export async function journalKinds(db: Kysely<DB>, paymentId: string): Promise<string[]> {
  const rows = await db.selectFrom('journal_transactions').select('kind').where('payment_id', '=', paymentId).orderBy('created_at').execute();
  return rows.map((r) => r.kind);
}

export async function timeline(db: Kysely<DB>, requestId: string) {
  return db
    .selectFrom('payment_request_events')
    .select(['actor_type', 'actor_label', 'event', 'from_state', 'to_state', 'detail'])
    .where('request_id', '=', requestId)
    .orderBy('id')
    .execute();
}

/** The sandbox processor's charges of a request's payments (each payment's id is its charge's idempotency key). */
export async function chargesOf(db: Kysely<DB>, requestId: string) {
  const payments = await db.selectFrom('payments').select('id').where('request_id', '=', requestId).execute();
  if (payments.length === 0) return [];
  return db
    .selectFrom('sandbox_processor_charges')
    .selectAll()
    .where(
      'idempotency_key',
      'in',
      payments.map((p) => p.id),
    )
    .execute();
}
