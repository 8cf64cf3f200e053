import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { expect } from 'vitest';
import type { RequestState } from '@tay/contract';
import type { DB } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import type { RequestContext } from '../../src/domain/payment-requests/request-context';
import { addDays, todayIn } from '../../src/domain/payment-requests/request-record';
import type { Runtime } from '../../src/runtime';
import type { ApprovedBusiness } from './approved-business';
import { get } from './identity';

export type Command = 'send' | 'resend' | 'withdraw' | 'cancel';

export interface RequestView {
  transactionId: string;
  transactionState: RequestState;
  referenceNumber: string;
  payerId: string;
  expiresOn: string;
  dueDate: string;
  actions: string[];
}

/** What the background jobs need, from the running app. */
export function requestContext(runtime: Runtime): RequestContext {
  return { db: runtime.database.db, mailer: runtime.mailer, authSecret: runtime.config.authSecret, publicUrl: runtime.config.publicUrl };
}

/** Today in the business's time zone, plus `days` ('YYYY-MM-DD'). */
export function dayIn(days: number, timeZone = 'America/New_York'): string {
  return addDays(todayIn(timeZone), days);
}

/** Midday of a calendar date in New York (17:00 UTC is noon or 1 pm there): a job's "now" that no DST shift moves to another day. */
export function middayOf(date: string): Date {
  return new Date(`${date}T17:00:00Z`);
}

/** One API call as a signed-in person (a JSON body when given). */
export function call(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  token: string,
  payload?: unknown,
  headers: Record<string, string> = {},
) {
  return app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}`, ...(payload === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });
}

/** The request API as one business's owner uses it. */
export function requestsApi(app: FastifyInstance, biz: Pick<ApprovedBusiness, 'businessId' | 'token'>) {
  const base = `/api/businesses/${biz.businessId}/payment-requests`;
  const body = (payerId: string, over: Record<string, unknown> = {}) => ({
    payerId,
    amountCents: 12_500,
    memo: 'Spring term',
    reference: 'INV-7',
    dueDate: dayIn(10),
    allowPartial: false,
    mode: 'draft',
    ...over,
  });
  return {
    base,
    body,
    post: (payload: unknown, headers?: Record<string, string>) => call(app, 'POST', base, biz.token, payload, headers),
    async create(payerId: string, over: Record<string, unknown> = {}): Promise<RequestView> {
      const res = await call(app, 'POST', base, biz.token, body(payerId, over));
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data as RequestView;
    },
    command: (id: string, name: Command, headers?: Record<string, string>) => call(app, 'POST', `${base}/${id}/${name}`, biz.token, undefined, headers),
    patch: (id: string, payload: unknown) => call(app, 'PATCH', `${base}/${id}`, biz.token, payload),
    remove: (id: string) => call(app, 'DELETE', `${base}/${id}`, biz.token),
    async detail(id: string) {
      const res = await call(app, 'GET', `${base}/${id}`, biz.token);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data as RequestView & {
        timeline: { event: string; actor: string; detail: string | null; fromState: string | null; toState: string | null }[];
      };
    },
  };
}

/** The e-mails stored for `to`, newest first. */
export async function outbox(app: FastifyInstance, to: string): Promise<{ subject: string; text: string }[]> {
  return (await get(app, `/api/dev/outbox?to=${encodeURIComponent(to)}`)).json() as { subject: string; text: string }[];
}

/** Sets the business's configuration and automations through the setup API, as its owner would. */
export async function configureBusiness(
  app: FastifyInstance,
  biz: Pick<ApprovedBusiness, 'businessId' | 'token'>,
  {
    defaultExpiryDays = 30,
    reminderSchedule = [-3, 0, 3],
    autoReminders = true,
    autoExpire = true,
  }: { defaultExpiryDays?: number; reminderSchedule?: number[]; autoReminders?: boolean; autoExpire?: boolean },
): Promise<void> {
  const res = await call(app, 'PATCH', `/api/businesses/${biz.businessId}/update`, biz.token, {
    config: { timeZone: 'America/New_York', defaultExpiryDays, reminderSchedule, invoiceTerms: null },
    automations: { autoReminders, autoExpire },
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** Deactivates or activates a payer through the payer API. */
export async function setPayerActive(
  app: FastifyInstance,
  biz: Pick<ApprovedBusiness, 'businessId' | 'token'>,
  payerId: string,
  active: boolean,
): Promise<void> {
  const res = await call(app, 'POST', `/api/businesses/${biz.businessId}/payers/${payerId}/${active ? 'activate' : 'deactivate'}`, biz.token);
  expect(res.statusCode, res.body).toBe(200);
}

/**
 * Test set-up only: moves a sent request straight into a state that otherwise takes a processor
 * and webhooks to reach (Accepted, Paid, PartiallyPaid, Error), with amounts that fit the state.
 * The timeline is not written: nothing here is asserted about how it got there.
 */
export async function forceStateForTest(db: Kysely<DB>, requestId: string, state: 'Accepted' | 'Paid' | 'PartiallyPaid' | 'Error'): Promise<void> {
  const paid = state === 'Paid' ? sql`amount_cents` : state === 'PartiallyPaid' ? sql`amount_cents / 2` : sql`0`;
  await sql`UPDATE payment_requests SET state = ${state}, amount_paid_cents = ${paid}, allow_partial = ${state === 'PartiallyPaid'},
      paid_at = ${state === 'Paid' ? sql`now()` : sql`NULL`}, updated_at = now()
    WHERE id = ${requestId}`.execute(db);
}

/** Everything about a request that a refused command must leave as it was. */
export async function snapshot(db: Kysely<DB>, requestId: string) {
  const row = await db.selectFrom('payment_requests').selectAll().where('id', '=', requestId).executeTakeFirst();
  const events = await db
    .selectFrom('payment_request_events')
    .select(({ fn }) => fn.countAll<number>().as('n'))
    .where('request_id', '=', requestId)
    .executeTakeFirstOrThrow();
  return { row, events: Number(events.n), mail: row ? await mailCountTo(db, row.payer_email) : 0 };
}

/** How many e-mails the outbox holds for an address. */
export async function mailCountTo(db: Kysely<DB>, address: string): Promise<number> {
  const mail = await db
    .selectFrom('mail_outbox')
    .select(({ fn }) => fn.countAll<number>().as('n'))
    .where('to_address', '=', address)
    .executeTakeFirstOrThrow();
  return Number(mail.n);
}

/**
 * A Draft payment request made for a source's record (a student, a patient), written directly:
 * what keeps the record on file in the tests that need one without going through its use case.
 */
export async function insertSourceRequest(
  db: Kysely<DB>,
  businessId: string,
  request: { payerId: string; payerName: string; payerEmail: string; amountCents: number; memo: string; kind: string; sourceId: string; source: object },
): Promise<string> {
  const id = newId('req');
  const last = await db
    .selectFrom('payment_requests')
    .select((eb) => eb.fn.max('number').as('n'))
    .where('business_id', '=', businessId)
    .executeTakeFirst();
  await db
    .insertInto('payment_requests')
    .values({
      business_id: businessId,
      id,
      number: Number(last?.n ?? 10000) + 1,
      payer_id: request.payerId,
      payer_display_name: request.payerName,
      payer_email: request.payerEmail,
      amount_cents: request.amountCents,
      memo: request.memo,
      reference: '',
      due_date: '2099-12-31',
      expires_on: '2099-12-31',
      allow_partial: false,
      channel: 'email',
      state: 'Draft',
      send_at: null,
      sent_at: null,
      paid_at: null,
      pay_token_hash: null,
      last_reminder_offset: null,
      created_by: null,
      source_kind: request.kind,
      source_id: request.sourceId,
      source: JSON.stringify(request.source),
    })
    .execute();
  return id;
}

/** A call over real HTTP to the listening test server (concurrent calls arrive over sockets, as a client's would): its status, text and JSON. */
export async function overHttp<T>(
  baseUrl: string,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  { token, key, body }: { token: string; key?: string | undefined; body?: unknown },
): Promise<{ status: number; text: string; json: T }> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(key ? { 'idempotency-key': key } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, text, json: JSON.parse(text) as T };
}

/** The first column of a CSV export's rows (its header and byte-order mark left out): the references it holds. */
export function firstColumnOf(csv: string): string[] {
  return csv
    .replace(/^\ufeff/, '')
    .trim()
    .split('\r\n')
    .slice(1)
    .map((line) => line.split(',')[0]!);
}
