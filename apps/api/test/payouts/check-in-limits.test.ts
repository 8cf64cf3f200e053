// PostgreSQL pass: an event's cap held under concurrent check-ins.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventCheckInList, PayoutEvent } from '@tay/contract';
import { approvedBusiness, type ApprovedBusiness } from '../support/approved-business';
import { errorOf } from '../support/identity';
import { call, dayIn, outbox } from '../support/requests';
import { createTestApp, type TestApp } from '../support/test-app';
import { enablePayouts, linkTokenOf, checkInAt } from '../support/payouts';
import { batchesApi } from '../batches/batch-api';

/**
 * A remote check-in (issue 35): anyone holding an event's check-in link can check in any e-mail from
 * anywhere. A new e-mail becomes a receiver flagged as not reviewed, and "Pay checked-in receivers"
 * leaves it out until an owner or admin reviews it; an event may cap its check-ins and close them
 * at a time; new receivers by check-in are limited per event and per source address.
 */

let t: TestApp;
let biz: ApprovedBusiness;
const db = () => t.runtime.database.db;

beforeAll(async () => {
  t = await createTestApp();
  biz = await approvedBusiness(t.app, db(), 'owner@check-in-limits.example');
  await enablePayouts(db(), biz.businessId);
});
afterAll(async () => t?.close());

const base = `/api/businesses/${'{id}'}/events`;
const events = () => base.replace('{id}', biz.businessId);
const tokenOf = (ev: PayoutEvent) => ev.checkInUrl.split('/checkin/')[1]!;
let ip = 0;

async function create(over: Record<string, unknown> = {}): Promise<PayoutEvent> {
  const res = await call(t.app, 'POST', events(), biz.token, { name: 'Fair', eventDate: dayIn(3), amountCents: 2500, ...over });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as PayoutEvent;
}

function checkIn(token: string, body: Record<string, unknown>, from = `10.9.${Math.floor(++ip / 250)}.${ip % 250}`) {
  return checkInAt(t.app, token, body, from);
}

describe('a check-in by someone new', () => {
  it('is a receiver not reviewed, left out of "Pay checked-in receivers" until an owner or admin includes them', async () => {
    const ev = await create({ name: 'Open day' });
    const res = await checkIn(tokenOf(ev), { email: 'stranger@far-away.example', firstName: 'Stan', lastName: 'Ger' });
    expect(res.statusCode, res.body).toBe(200);
    // The stranger enters a bank account through the e-mailed link: the receiver is verified, and still not reviewed.
    const link = linkTokenOf(await outbox(t.app, 'stranger@far-away.example'));
    const set = await t.app.inject({
      method: 'POST',
      url: `/api/public/receivers/bank-account/${link}`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({
        accountHolderName: 'Stan Ger',
        routingNumber: '222096656',
        accountNumber: '000555444333',
        accountNumberConfirm: '000555444333',
        accountType: 'checking',
      }),
    });
    expect(set.statusCode, set.body).toBe(200);

    const list = (await call(t.app, 'GET', `${events()}/${ev.eventId}/check-ins`, biz.token)).json().data as EventCheckInList;
    expect(list.event.unreviewedCheckInsCount).toBe(1);
    expect(list.items[0]).toMatchObject({ email: 'stranger@far-away.example', verification: 'verified', addedVia: 'check_in', receiverReviewed: false });
    const csv = await call(t.app, 'GET', `${events()}/${ev.eventId}/check-ins/export`, biz.token);
    expect(csv.body).toContain('New from a check-in, not reviewed');

    const pay = await t.app.inject({ method: 'POST', url: `${events()}/${ev.eventId}/pay`, headers: { authorization: `Bearer ${biz.token}` } });
    expect(pay.statusCode, pay.body).toBe(202);
    const api = batchesApi(t.app, biz);
    const checked = await api.until(pay.json().data.batchId, (b) => b.phase === 'validated');
    expect(checked.counts).toMatchObject({ valid: 0, invalid: 1 });
    const row = await api.row(checked.batchId, 2);
    expect(row.errors.receiverReview).toMatch(/^Stan Ger checked in as a new receiver and no owner or admin has reviewed them yet/);

    // Chosen: the owner reviews them and the row, checked again, is valid.
    expect((await call(t.app, 'POST', `/api/businesses/${biz.businessId}/receivers/${list.items[0]!.receiverId}/review`, biz.token)).statusCode).toBe(200);
    const included = await api.fix(checked.batchId, 2, row.fields);
    expect(included.json().data.row).toMatchObject({ status: 'valid', errors: {} });
    const after = (await call(t.app, 'GET', `${events()}/${ev.eventId}/check-ins`, biz.token)).json().data as EventCheckInList;
    expect(after.event.unreviewedCheckInsCount).toBe(0);
  });
});

describe('an event’s cap and closing time', () => {
  it('takes at most its cap: then the page says full, a new check-in is refused and one checked in already is answered', async () => {
    const ev = await create({ name: 'Small room', maxCheckIns: 2 });
    expect(ev.maxCheckIns).toBe(2);
    expect((await checkIn(tokenOf(ev), { email: 'one@cap.example', firstName: 'One', lastName: 'A' })).statusCode).toBe(200);
    expect((await checkIn(tokenOf(ev), { email: 'two@cap.example', firstName: 'Two', lastName: 'B' })).statusCode).toBe(200);
    const third = await checkIn(tokenOf(ev), { email: 'three@cap.example', firstName: 'Three', lastName: 'C' });
    expect(third.statusCode).toBe(409);
    expect(errorOf(third).message).toBe('Small room is full: its 2 check-ins are taken. Ask the organiser.');
    expect(await db().selectFrom('receivers').select('id').where('email', '=', 'three@cap.example').execute()).toHaveLength(0);
    const page = await t.app.inject({ method: 'GET', url: `/api/public/checkin/${tokenOf(ev)}` });
    expect(page.json().data).toMatchObject({ status: 'full' });
    const again = await checkIn(tokenOf(ev), { email: 'one@cap.example' });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data.result).toBe('already');
  });

  it('holds its cap under concurrent check-ins', async () => {
    const ev = await create({ name: 'Rush', maxCheckIns: 3 });
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => checkIn(tokenOf(ev), { email: `rush${i}@cap.example`, firstName: 'R', lastName: String(i) })),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(3);
    const row = await db().selectFrom('events').select('check_ins_count').where('id', '=', ev.eventId).executeTakeFirstOrThrow();
    expect(row.check_ins_count).toBe(3);
    const checkIns = await db().selectFrom('event_check_ins').select('receiver_id').where('event_id', '=', ev.eventId).execute();
    expect(checkIns).toHaveLength(3);
  });

  it('closes at its time: the page says when, and a check-in is refused', async () => {
    const ev = await create({ name: 'Morning', checkInsCloseAt: new Date(Date.now() - 60_000).toISOString() });
    const page = await t.app.inject({ method: 'GET', url: `/api/public/checkin/${tokenOf(ev)}` });
    expect(page.json().data).toMatchObject({ status: 'closed', statusMessage: expect.stringMatching(/^Check-ins for Morning closed at /) });
    const refused = await checkIn(tokenOf(ev), { email: 'late@close.example', firstName: 'Late', lastName: 'Comer' });
    expect(refused.statusCode).toBe(409);
    // Moved later, it opens again.
    const moved = await call(t.app, 'PATCH', `${events()}/${ev.eventId}`, biz.token, {
      name: 'Morning',
      eventDate: ev.eventDate,
      amountCents: 2500,
      checkInsCloseAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await checkIn(tokenOf(ev), { email: 'late@close.example', firstName: 'Late', lastName: 'Comer' })).statusCode).toBe(200);
  });

  it('refuses a cap below 1 or a closing time that is not a time, naming the field', async () => {
    const zero = await call(t.app, 'POST', events(), biz.token, { name: 'X', eventDate: dayIn(3), amountCents: 100, maxCheckIns: 0 });
    expect(zero.statusCode).toBe(400);
    expect(errorOf(zero).fields).toEqual({ maxCheckIns: 'Allow at least 1 check-in, or leave it empty for no cap.' });
    const bad = await call(t.app, 'POST', events(), biz.token, { name: 'X', eventDate: dayIn(3), amountCents: 100, checkInsCloseAt: 'tomorrow' });
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad).fields).toHaveProperty('checkInsCloseAt');
  });
});

describe('new receivers by check-in are limited', () => {
  it('per source address across events: the 61st new person from one address in ten minutes is refused (429), a known one still checks in', async () => {
    const evs = await Promise.all([1, 2, 3, 4].map((n) => create({ name: `Series ${n}` })));
    const from = '10.77.0.1';
    let made = 0;
    for (const ev of evs) {
      for (let i = 0; i < 15 && made < 60; i++, made++) {
        const res = await checkIn(tokenOf(ev), { email: `crowd${made}@venue.example`, firstName: 'C', lastName: String(made) }, from);
        expect(res.statusCode, res.body).toBe(200);
      }
    }
    const refused = await checkIn(tokenOf(evs[3]!), { email: 'crowd60@venue.example', firstName: 'C', lastName: '60' }, from);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(errorOf(refused).message).toMatch(/^Too many new people are checking in right now\. Try again in \d+ minutes?, or ask the organiser\.$/);
    expect(await db().selectFrom('receivers').select('id').where('email', '=', 'crowd60@venue.example').execute()).toHaveLength(0);
    // Someone the business knows already is no new receiver: checked in.
    const known = await checkIn(tokenOf(evs[3]!), { email: 'crowd0@venue.example' }, from);
    expect(known.statusCode, known.body).toBe(200);
  });
});
