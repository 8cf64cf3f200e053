// PostgreSQL pass: the change stream over LISTEN/NOTIFY.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ChangeFeed } from '../../src/domain/changes/change-feed';
import { purgeChanges } from '../../src/domain/changes/purge-changes';
import { setBusinessState } from '../../src/domain/businesses/set-business-state';
import { OPERATIONS_ACTOR } from '../../src/domain/businesses/audit';
import { MAX_STREAMS_PER_USER } from '../../src/routes/live-updates';
import { sql } from 'kysely';
import { approvedBusiness, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { completeSetup, createBusiness, request } from '../support/businesses';
import { EventStreamClient, type StreamEvent } from '../support/event-stream';
import { registeredUser } from '../support/identity';
import { CARDS, insertRequest, pay, tokenize } from '../support/payments';
import { insertPayoutRow, insertReceiver } from '../support/payouts';
import { createTestApp, eventually, type TestApp } from '../support/test-app';

let t: TestApp;
let biz: ApprovedBusiness;
const db = () => t.runtime.database.db;
const opened: EventStreamClient[] = [];

beforeAll(async () => {
  // A real HTTP server: the stream outlives any handler, and the sandbox's webhooks come over HTTP.
  t = await createTestApp({ SANDBOX_AUTO_APPROVE: 'true', SANDBOX_SETTLEMENT_SECONDS: '1' }, { listen: true });
  biz = await approvedBusiness(t.app, db(), 'owner@live.example');
});
afterAll(async () => t?.close());
afterEach(() => {
  for (const stream of opened.splice(0)) stream.close();
});

const eventsUrl = (businessId: string) => `${t.runtime.config.publicUrl}/api/businesses/${businessId}/changes`;

/** A live stream of the business, once the server says it is live. */
async function live(businessId: string, token: string): Promise<EventStreamClient> {
  const { status, headers, json, stream } = await EventStreamClient.open(eventsUrl(businessId), token);
  expect(status, stream ? '' : JSON.stringify(await json())).toBe(200);
  opened.push(stream!);
  expect(headers['content-type']).toBe('text/event-stream; charset=utf-8');
  expect(headers['cache-control']).toBe('no-store');
  expect(headers['x-request-id']).toBeTruthy();
  expect(await stream!.next()).toEqual({ event: 'ready', data: {} });
  return stream!;
}

const change = (kind: string, id: string | null) => (e: StreamEvent) => e.event === 'change' && JSON.stringify(e.data) === JSON.stringify({ kind, id });

/**
 * Takes notices that match until, after one of them, `check` holds: the change it waits for was
 * pushed (a change may come with other notices of its own, e.g. the receipt e-mail's).
 */
async function noticeUntil(stream: EventStreamClient, matches: (e: StreamEvent) => boolean, check: () => Promise<boolean>, timeoutMs = 25_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await stream.next(matches, Math.max(1, deadline - Date.now()));
    if (await check()) return;
  }
}

describe('GET /api/businesses/:id/changes', () => {
  it('tells a business when a payer pays a request, and again when the payment settles', async () => {
    const payerId = await insertPayer(db(), biz.businessId);
    const { requestId, payToken } = await insertRequest(db(), biz.businessId, payerId, { amountCents: 5_000 });
    const stream = await live(biz.businessId, biz.token);

    const processorToken = await tokenize(t.app, t.runtime, { card: CARDS.visa });
    const paid = await pay(t.app, payToken, { method: 'card', processorToken, amountCents: 5_000 }, 'live-pay-1');
    expect(paid.statusCode, paid.body).toBe(201);
    expect(paid.json().data.transactionState).toBe('Accepted');
    await stream.next(change('request', requestId));
    await stream.next(change('balances', biz.businessId));

    // SANDBOX_SETTLEMENT_SECONDS later the processor's webhook settles it: the request turns Paid.
    const state = async () =>
      (await request(t.app, 'GET', `/api/businesses/${biz.businessId}/payment-requests/${requestId}`, biz.token)).json().data.transactionState;
    await noticeUntil(stream, change('request', requestId), async () => (await state()) === 'Paid');
  });

  it('tells a submitted business when the sandbox auto-approval approves it', async () => {
    const token = await registeredUser(t.app, 'pending@live.example');
    const { businessId } = await createBusiness(t.app, token);
    await completeSetup(t.app, token, businessId);
    const stream = await live(businessId, token);
    const submitted = await request(t.app, 'PATCH', `/api/businesses/${businessId}/update/submit`, token, {});
    expect(submitted.json().data.businessState).toBe('Pending');
    const state = async () => (await request(t.app, 'GET', `/api/businesses/${businessId}`, token)).json().data.businessState;
    await stream.next(change('business', businessId));
    expect(await state()).toBe('Pending');

    // About 5 s later the job approves it, in a transaction of its own: another notice.
    await noticeUntil(stream, change('business', businessId), async () => (await state()) === 'Approved');
  });

  it('covers changes made outside any request: operations, and writes straight to the database', async () => {
    const stream = await live(biz.businessId, biz.token);
    await setBusinessState({ db: db(), businessId: biz.businessId, to: 'Disabled', actor: OPERATIONS_ACTOR, reason: 'Checking' });
    await stream.next(change('business', biz.businessId));
    await setBusinessState({ db: db(), businessId: biz.businessId, to: 'Approved', actor: OPERATIONS_ACTOR });
    await stream.next(change('business', biz.businessId));
    const payerId = await insertPayer(db(), biz.businessId);
    await stream.next(change('payer', payerId));
  });

  it('tells a business when its payments out change: a receiver (no id), then a payout (its id)', async () => {
    const stream = await live(biz.businessId, biz.token);
    const receiverId = await insertReceiver(t.runtime, biz.businessId, { email: 'live-receiver@example.com' });
    await stream.next(change('payout', null));
    const payoutId = await insertPayoutRow(
      db(),
      biz.businessId,
      { receiverId, name: 'Live Receiver', email: 'live-receiver@example.com' },
      { id: 'pout_live_1', amountCents: 500 },
    );
    await stream.next(change('payout', payoutId));
  });

  it('writes one notice for a bulk change, with no id', async () => {
    const stream = await live(biz.businessId, biz.token);
    const a = await insertPayer(db(), biz.businessId);
    const b = await insertPayer(db(), biz.businessId);
    await stream.next(change('payer', b));
    await db().updateTable('payers').set({ company_name: 'Bulk Co' }).where('id', 'in', [a, b]).execute();
    await stream.next(change('payer', null));
  });

  it('a business sees only its own notices', async () => {
    const other = await approvedBusiness(t.app, db(), 'other@live.example');
    const mine = await live(biz.businessId, biz.token);
    const theirs = await live(other.businessId, other.token);
    const theirPayer = await insertPayer(db(), other.businessId);
    await theirs.next(change('payer', theirPayer));
    const myPayer = await insertPayer(db(), biz.businessId);
    // The first payer notice on my stream is my payer's: theirs never came.
    expect(await mine.next((e) => e.event === 'change' && (e.data as { kind: string }).kind === 'payer')).toEqual({
      event: 'change',
      data: { kind: 'payer', id: myPayer },
    });
  });

  it('is for members only: another business’s id or an unknown id is 404, no session is 401', async () => {
    const other = await approvedBusiness(t.app, db(), 'outsider@live.example');
    for (const [businessId, token, status, code] of [
      [biz.businessId, other.token, 404, 'NOT_FOUND'],
      ['biz_nonexistent', biz.token, 404, 'NOT_FOUND'],
      [biz.businessId, undefined, 401, 'UNAUTHORIZED'],
      [biz.businessId, 'not-a-token', 401, 'UNAUTHORIZED'],
    ] as const) {
      const answer = await EventStreamClient.open(eventsUrl(businessId), token);
      expect(answer.stream).toBeUndefined();
      expect(answer.status).toBe(status);
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
      expect(((await answer.json()) as { errorDetails: { code: string } }).errorDetails.code).toBe(code);
    }
  });

  it(`allows ${MAX_STREAMS_PER_USER} streams per person at once; one more is 429 until one closes`, async () => {
    const person = await approvedBusiness(t.app, db(), 'tabs@live.example');
    const streams: EventStreamClient[] = [];
    for (let i = 0; i < MAX_STREAMS_PER_USER; i++) streams.push(await live(person.businessId, person.token));
    const refused = await EventStreamClient.open(eventsUrl(person.businessId), person.token);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('30');
    const body = (await refused.json()) as { status: string; errorDetails: { code: string; message: string } };
    expect(body.status).toBe('Error');
    expect(body.errorDetails.code).toBe('RATE_LIMITED');
    expect(body.errorDetails.message).toMatch(/live connections/);

    streams[0]!.close();
    await eventually(async () => {
      const { status, stream } = await EventStreamClient.open(eventsUrl(person.businessId), person.token);
      if (stream) opened.push(stream);
      return status === 200;
    });
  });

  it('ends its streams when the server closes, so shutting down never waits on one', async () => {
    const own = await createTestApp({ SANDBOX_AUTO_APPROVE: 'false' }, { listen: true });
    const owner = await approvedBusiness(own.app, own.runtime.database.db, 'shutdown@live.example');
    const { stream } = await EventStreamClient.open(`${own.runtime.config.publicUrl}/api/businesses/${owner.businessId}/changes`, owner.token);
    expect(await stream!.next()).toEqual({ event: 'ready', data: {} });
    await own.close();
    await stream!.ended;
    expect(stream!.endedByServer).toBe(true);
  });
});

describe('the change feed', () => {
  it('reads only while someone listens, and leaves no timer behind', async () => {
    const feed = new ChangeFeed({ db: db(), intervalMs: 50 });
    const seen: unknown[] = [];
    const subscription = feed.subscribe(biz.businessId, (c) => seen.push(c));
    await subscription.ready;
    expect(feed.active).toBe(true);
    expect(feed.businessCount).toBe(1);
    const payerId = await insertPayer(db(), biz.businessId);
    await eventually(async () => seen.some((c) => JSON.stringify(c) === JSON.stringify({ kind: 'payer', id: payerId })));
    subscription.unsubscribe();
    expect(feed.businessCount).toBe(0);
    await eventually(async () => !feed.active);
    await feed.close();
  });

  it('a subscription that leaves before the feed is ready is told so, and nothing waits for it', async () => {
    const feed = new ChangeFeed({ db: db(), intervalMs: 50 });
    const subscription = feed.subscribe(biz.businessId, () => {});
    subscription.unsubscribe();
    await expect(subscription.ready).rejects.toThrow(/Unsubscribed/);
    await eventually(async () => !feed.active);
    await feed.close();
  });

  it('keeps notices an hour', async () => {
    await sql`UPDATE business_changes SET created_at = now() - interval '61 minutes' WHERE business_id = ${biz.businessId}`.execute(db());
    await insertPayer(db(), biz.businessId);
    expect(await purgeChanges({ db: db() })).toBeGreaterThan(0);
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM business_changes WHERE business_id = ${biz.businessId}`.execute(db());
    expect(rows[0]!.n).toBe(1);
  });
});
