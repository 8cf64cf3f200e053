import { execFileSync } from 'node:child_process';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckInOutcome, EventCheckIn, EventInput, PayoutEvent } from '@tay/contract';
import { approvedBusiness, type ApprovedBusiness } from '../support/approved-business';
import { errorOf } from '../support/identity';
import { call, dayIn, outbox } from '../support/requests';
import { createTestApp, type TestApp } from '../support/test-app';
import { enablePayouts, linkTokenOf, payoutBusinesses, checkInAt } from '../support/payouts';

/**
 * Events (issue 20, ADR 035): a QR code receivers scan to check in by e-mail. A known receiver
 * checks in once; a new e-mail with a name becomes an unverified receiver, e-mailed the link.
 */

let t: TestApp;
let biz: ApprovedBusiness;
let other: ApprovedBusiness;
let off: ApprovedBusiness;
const db = () => t.runtime.database.db;

beforeAll(async () => {
  t = await createTestApp();
  ({ biz, other, off } = await payoutBusinesses(t.app, db(), 'events'));
});
afterAll(async () => t?.close());

const base = (b = biz) => `/api/businesses/${b.businessId}/events`;
const tokenOf = (ev: PayoutEvent) => ev.checkInUrl.split('/checkin/')[1]!;
let ip = 0;

async function create(over: Partial<EventInput> = {}, b = biz): Promise<PayoutEvent> {
  const res = await call(t.app, 'POST', base(b), b.token, { name: 'Summer fair', eventDate: dayIn(3), place: 'Town hall', amountCents: 2500, ...over });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as PayoutEvent;
}

function checkIn(token: string, body: Record<string, unknown>, from = `10.1.0.${++ip % 250}`) {
  return checkInAt(t.app, token, body, from);
}

async function addReceiver(email: string, b = biz) {
  const res = await call(t.app, 'POST', `/api/businesses/${b.businessId}/receivers`, b.token, { firstName: 'Known', lastName: 'Person', email });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { receiverId: string };
}

describe('access', () => {
  it('refuses every event endpoint with 403 PAYOUTS_NOT_ENABLED while payouts are off', async () => {
    const e = `${base(off)}/evn_x`;
    const body = { name: 'X', eventDate: dayIn(1), amountCents: 100 };
    const calls: [method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown][] = [
      ['GET', base(off)],
      ['POST', base(off), body],
      ['GET', `${base(off)}/export`],
      ['GET', e],
      ['PATCH', e, body],
      ['DELETE', e],
      ['POST', `${e}/enable`],
      ['POST', `${e}/disable`],
      ['GET', `${e}/image`],
      ['GET', `${e}/check-ins`],
      ['GET', `${e}/check-ins/export`],
    ];
    for (const [method, url, b] of calls) {
      const res = await call(t.app, method, url, off.token, b);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(errorOf(res).code).toBe('PAYOUTS_NOT_ENABLED');
    }
  });

  it("answers another business's event as 404", async () => {
    const ev = await create();
    for (const suffix of ['', '/image', '/check-ins']) {
      expect((await call(t.app, 'GET', `${base(other)}/${ev.eventId}${suffix}`, other.token)).statusCode, suffix).toBe(404);
    }
    expect((await call(t.app, 'DELETE', `${base(other)}/${ev.eventId}`, other.token)).statusCode).toBe(404);
  });
});

describe('managing events', () => {
  it('names each invalid field (400)', async () => {
    const res = await call(t.app, 'POST', base(), biz.token, { name: '', eventDate: '2026-13-40', amountCents: -5 });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(errorOf(res).fields!)).toEqual(expect.arrayContaining(['name', 'eventDate', 'amountCents']));
  });

  it('creates, edits, disables, enables, lists, exports and deletes, each change on the audit trail', async () => {
    const ev = await create({ name: 'Harvest day' });
    expect(ev).toMatchObject({ name: 'Harvest day', place: 'Town hall', amountCents: 2500, status: 'active', checkInsCount: 0 });
    expect(ev.checkInUrl).toMatch(/\/checkin\/[A-Za-z0-9_-]{32}$/);
    expect(ev.actions).toEqual(['Edit', 'Disable', 'Event Check-Ins', 'Delete']);

    const edited = await call(t.app, 'PATCH', `${base()}/${ev.eventId}`, biz.token, {
      name: 'Harvest day 2',
      eventDate: dayIn(4),
      place: 'Barn',
      amountCents: 3000,
    });
    expect(edited.json().data).toMatchObject({ name: 'Harvest day 2', place: 'Barn', amountCents: 3000, checkInUrl: ev.checkInUrl });
    expect((await call(t.app, 'POST', `${base()}/${ev.eventId}/disable`, biz.token)).json().data.actions).toContain('Enable');
    expect((await call(t.app, 'POST', `${base()}/${ev.eventId}/disable`, biz.token)).statusCode).toBe(409);
    expect((await call(t.app, 'POST', `${base()}/${ev.eventId}/enable`, biz.token)).json().data.status).toBe('active');

    const list = (await call(t.app, 'GET', `${base()}?search=harvest&sortBy=name&sortDirection=asc`, biz.token)).json().data;
    expect(list.items.map((e: PayoutEvent) => e.eventId)).toEqual([ev.eventId]);
    expect((await call(t.app, 'GET', `${base()}?status=Disabled&search=harvest`, biz.token)).json().data.total).toBe(0);
    const csv = await call(t.app, 'GET', `${base()}/export?search=harvest`, biz.token);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body).toContain('Harvest day 2');

    expect((await call(t.app, 'DELETE', `${base()}/${ev.eventId}`, biz.token)).statusCode).toBe(204);
    const actions = await db()
      .selectFrom('business_events')
      .select('action')
      .where('business_id', '=', biz.businessId)
      .where('action', 'like', 'event.%')
      .orderBy('created_at')
      .execute();
    expect(actions.map((a) => a.action)).toEqual(
      expect.arrayContaining(['event.created', 'event.updated', 'event.disabled', 'event.enabled', 'event.deleted']),
    );
  });

  it('downloads the check-in code as PNG, SVG and a PDF poster', async () => {
    const ev = await create({ name: 'Poster event' });
    const png = await call(t.app, 'GET', `${base()}/${ev.eventId}/image?format=png&size=512`, biz.token);
    expect(png.statusCode).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.rawPayload.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.headers['content-disposition']).toContain('poster-event-check-in.png');
    const svg = await call(t.app, 'GET', `${base()}/${ev.eventId}/image?format=svg`, biz.token);
    expect(svg.headers['content-type']).toContain('image/svg+xml');
    expect(svg.body).toContain('<svg');
    const pdf = await call(t.app, 'GET', `${base()}/${ev.eventId}/image?format=pdf`, biz.token);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const tooBig = await call(t.app, 'GET', `${base()}/${ev.eventId}/image?size=9000`, biz.token);
    expect(tooBig.statusCode).toBe(400);
    expect(errorOf(tooBig).fields).toHaveProperty('size');
    try {
      // Where pdftotext is installed, the poster's words are checked too.
      const text = execFileSync('pdftotext', ['-', '-'], { input: pdf.rawPayload, encoding: 'utf8' });
      expect(text).toContain('Poster event');
      expect(text).toContain('Scan to check in');
      expect(text).toContain('Town hall');
    } catch (error) {
      if ((error as { code?: string }).code !== 'ENOENT') throw error;
    }
  });
});

describe('checking in', () => {
  it('shows the event on its public page', async () => {
    const ev = await create({ name: 'Open day', place: 'Main street' });
    const page = await t.app.inject({ method: 'GET', url: `/api/public/checkin/${tokenOf(ev)}` });
    expect(page.statusCode).toBe(200);
    expect(page.json().data).toMatchObject({
      businessName: `Biz ${biz.email}`,
      eventName: 'Open day',
      place: 'Main street',
      status: 'open',
      statusMessage: null,
    });
    expect((await t.app.inject({ method: 'GET', url: `/api/public/checkin/${'a'.repeat(32)}` })).statusCode).toBe(404);
  });

  it('checks a known receiver in once; a second time answers with the first check-in', async () => {
    const ev = await create({ name: 'Known in' });
    const known = await addReceiver('known@checkin.example');
    const first = await checkIn(tokenOf(ev), { email: 'KNOWN@checkin.example' });
    expect(first.statusCode, first.body).toBe(200);
    const outcome = first.json().data as CheckInOutcome;
    expect(outcome).toMatchObject({ result: 'checked_in', firstName: 'Known', newReceiver: false, needsBankAccount: true });
    const again = await checkIn(tokenOf(ev), { email: 'known@checkin.example' });
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toMatchObject({ result: 'already', checkedInAt: outcome.checkedInAt, message: expect.stringMatching(/already checked in/) });

    const rows = await db().selectFrom('event_check_ins').selectAll().where('event_id', '=', ev.eventId).execute();
    expect(rows).toHaveLength(1);
    expect((await call(t.app, 'GET', `${base()}/${ev.eventId}`, biz.token)).json().data).toMatchObject({
      checkInsCount: 1,
      actions: ['Edit', 'Disable', 'Event Check-Ins'],
    });

    const list = (await call(t.app, 'GET', `${base()}/${ev.eventId}/check-ins`, biz.token)).json().data;
    expect(list.total).toBe(1);
    expect(list.items[0] as EventCheckIn).toMatchObject({
      receiverId: known.receiverId,
      receiverName: 'Known Person',
      email: 'known@checkin.example',
      verification: 'unverified',
      payoutId: null,
    });
    const csv = await call(t.app, 'GET', `${base()}/${ev.eventId}/check-ins/export`, biz.token);
    expect(csv.body).toContain('known@checkin.example');

    const refused = await call(t.app, 'DELETE', `${base()}/${ev.eventId}`, biz.token);
    expect(refused.statusCode).toBe(409);
  });

  it('asks a new e-mail for a name, then makes an unverified receiver, e-mails the link and checks them in', async () => {
    const ev = await create({ name: 'Newcomers' });
    const nameless = await checkIn(tokenOf(ev), { email: 'new@checkin.example' });
    expect(nameless.statusCode).toBe(422);
    expect(Object.keys(errorOf(nameless).fields!).sort()).toEqual(['firstName', 'lastName']);
    expect(await db().selectFrom('receivers').select('id').where('email', '=', 'new@checkin.example').execute()).toHaveLength(0);

    const res = await checkIn(tokenOf(ev), { email: 'new@checkin.example', firstName: 'Nia', lastName: 'New' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      result: 'checked_in',
      firstName: 'Nia',
      newReceiver: true,
      needsBankAccount: true,
      message: expect.stringMatching(/e-mailed you a link/),
    });
    const receiver = await db()
      .selectFrom('receivers')
      .selectAll()
      .where('business_id', '=', biz.businessId)
      .where('email', '=', 'new@checkin.example')
      .executeTakeFirstOrThrow();
    expect(receiver).toMatchObject({ first_name: 'Nia', last_name: 'New', verification: 'unverified', created_by: null });
    const token = linkTokenOf(await outbox(t.app, 'new@checkin.example'));
    expect((await t.app.inject({ method: 'GET', url: `/api/public/receivers/bank-account/${token}` })).json().data.firstName).toBe('Nia');
    const audit = await db()
      .selectFrom('business_events')
      .select(['action', 'actor'])
      .where('business_id', '=', biz.businessId)
      .where(sql<boolean>`details->>'receiverId' = ${receiver.id}`)
      .execute();
    expect(audit).toEqual(expect.arrayContaining([{ action: 'receiver.created', actor: 'check-in' }]));
  });

  it('refuses check-ins at a disabled event, or while payouts are off', async () => {
    const ev = await create({ name: 'Closed' });
    await call(t.app, 'POST', `${base()}/${ev.eventId}/disable`, biz.token);
    const page = await t.app.inject({ method: 'GET', url: `/api/public/checkin/${tokenOf(ev)}` });
    expect(page.json().data).toMatchObject({ status: 'disabled', statusMessage: expect.stringMatching(/closed check-ins/) });
    const refused = await checkIn(tokenOf(ev), { email: 'x@checkin.example', firstName: 'X', lastName: 'Y' });
    expect(refused.statusCode).toBe(409);
    expect(await db().selectFrom('receivers').select('id').where('email', '=', 'x@checkin.example').execute()).toHaveLength(0);

    const b = await approvedBusiness(t.app, db(), 'owner@paused-events.example');
    await enablePayouts(db(), b.businessId);
    const paused = await create({}, b);
    await enablePayouts(db(), b.businessId, false);
    expect((await t.app.inject({ method: 'GET', url: `/api/public/checkin/${tokenOf(paused)}` })).json().data.status).toBe('unavailable');
    expect((await checkIn(tokenOf(paused), { email: 'y@checkin.example', firstName: 'Y', lastName: 'Z' })).statusCode).toBe(409);
  });

  it('limits check-ins per device and event (429)', async () => {
    const ev = await create({ name: 'Busy' });
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await checkIn(tokenOf(ev), { email: `busy${i}@checkin.example` }, '10.7.7.7')).statusCode);
    expect(statuses.slice(0, 20).every((s) => s === 422)).toBe(true);
    expect(statuses[20]).toBe(429);
    // Another event is not held up.
    const next = await create({ name: 'Next door' });
    expect((await checkIn(tokenOf(next), { email: 'busy@checkin.example' }, '10.7.7.7')).statusCode).toBe(422);
  });
});
