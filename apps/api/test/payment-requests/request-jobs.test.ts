// PostgreSQL pass: the job queue's claims, leases and schedules.
import { Kysely, PostgresDialect, sql, type CompiledQuery } from 'kysely';
import { formatDay } from '@tay/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireRequests, SEND_HELD_EVENT, sendReminders, sendScheduledRequests } from '../../src/domain/payment-requests/background';
import { OPERATIONS_ACTOR } from '../../src/domain/businesses/audit';
import { setBusinessState } from '../../src/domain/businesses/set-business-state';
import type { DB } from '../../src/db/schema';
import type { RequestContext } from '../../src/domain/payment-requests/request-context';
import { addDays, todayIn } from '../../src/domain/payment-requests/request-record';
import { approvedBusiness, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { configureBusiness, dayIn, middayOf, outbox, requestContext, requestsApi, setPayerActive } from '../support/requests';
import { createTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
const db = () => t.runtime.database.db;
const ctx = () => requestContext(t.runtime);

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

/** An approved business with `n` payers (own e-mail addresses, so each one's mail can be counted). */
async function businessWithPayers(name: string, n: number) {
  const biz = await approvedBusiness(t.app, db(), `owner@${name}.example`);
  const payers: { id: string; email: string }[] = [];
  for (let i = 0; i < n; i++) {
    const email = `payer${i}@${name}.example`;
    payers.push({ id: await insertPayer(db(), biz.businessId, { email, displayName: `Payer ${i} of ${name}` }), email });
  }
  return { ...biz, payers, api: requestsApi(t.app, biz) };
}

/** Scheduled `minutes` past the hour from now: the real-time cron never sees it due. */
function inAnHour(minutes = 0): string {
  return new Date(Date.now() + 3_600_000 + minutes * 60_000).toISOString();
}

async function stateOf(id: string): Promise<string> {
  const row = await db().selectFrom('payment_requests').select('state').where('id', '=', id).executeTakeFirstOrThrow();
  return row.state;
}

async function eventsOf(id: string, event: string) {
  return db()
    .selectFrom('payment_request_events')
    .select(['detail', 'actor_label'])
    .where('request_id', '=', id)
    .where('event', '=', event)
    .orderBy('id')
    .execute();
}

function disable(biz: ApprovedBusiness) {
  return setBusinessState({ db: db(), businessId: biz.businessId, to: 'Disabled', reason: 'Review', actor: OPERATIONS_ACTOR });
}

describe('scheduled sends', () => {
  it("a pile of held requests of a disabled business does not starve anyone else's; held ones stay Pending with one note why", async () => {
    const held = await businessWithPayers('held-sends', 1);
    const heldIds: string[] = [];
    // Due first, and more of them than the run may look at if it selected held rows too.
    for (let i = 0; i < 6; i++) heldIds.push((await held.api.create(held.payers[0]!.id, { mode: 'schedule', sendAt: inAnHour(i) })).transactionId);
    await disable(held);
    const good = await businessWithPayers('good-sends', 3);
    const goodIds: string[] = [];
    for (const [i, payer] of good.payers.entries())
      goodIds.push((await good.api.create(payer.id, { mode: 'schedule', sendAt: inAnHour(10 + i) })).transactionId);

    const later = new Date(Date.now() + 2 * 3_600_000);
    expect(await sendScheduledRequests(ctx(), later, { batchSize: 2, maxBatches: 3 })).toBe(3);
    for (const id of goodIds) expect(await stateOf(id)).toBe('Sent');
    for (const payer of good.payers) expect(await outbox(t.app, payer.email)).toHaveLength(1);

    for (const id of heldIds) {
      expect(await stateOf(id)).toBe('Pending');
      expect(await eventsOf(id, SEND_HELD_EVENT)).toEqual([
        {
          actor_label: 'System',
          detail: 'Not sent: this business is Disabled, so its scheduled requests are held. They go out once it is approved again, unless they have expired.',
        },
      ]);
    }
    expect(await outbox(t.app, held.payers[0]!.email)).toEqual([]);
    // The note is written once, not on every run.
    expect(await sendScheduledRequests(ctx(), new Date(later.getTime() + 60_000), { batchSize: 2, maxBatches: 3 })).toBe(0);
    expect(await eventsOf(heldIds[0]!, SEND_HELD_EVENT)).toHaveLength(1);

    // Enabled again: they go out on the next run, still before their expiry.
    await setBusinessState({ db: db(), businessId: held.businessId, to: 'Approved', actor: OPERATIONS_ACTOR });
    expect(await sendScheduledRequests(ctx(), later)).toBe(6);
    expect(await outbox(t.app, held.payers[0]!.email)).toHaveLength(6);
  });

  it('walks the due requests oldest first, in batches, and stops at its bound; the next run does the rest', async () => {
    const biz = await businessWithPayers('bounded-sends', 5);
    const ids: string[] = [];
    // Created newest-due first, so the order sent is the schedule's, not the insertion's.
    for (const [i, payer] of [...biz.payers].reverse().entries())
      ids.unshift((await biz.api.create(payer.id, { mode: 'schedule', sendAt: inAnHour(20 - i) })).transactionId);
    const later = new Date(Date.now() + 2 * 3_600_000);
    expect(await sendScheduledRequests(ctx(), later, { batchSize: 2, maxBatches: 2 })).toBe(4);
    expect(await Promise.all(ids.map(stateOf))).toEqual(['Sent', 'Sent', 'Sent', 'Sent', 'Pending']);
    expect(await sendScheduledRequests(ctx(), later, { batchSize: 2, maxBatches: 2 })).toBe(1);
    expect(await stateOf(ids[4]!)).toBe('Sent');
  });

  it('one request that fails does not stop the others; it stays Pending, the run reports the failure, and the next run sends it', async () => {
    const biz = await businessWithPayers('failing-send', 3);
    const ids: string[] = [];
    for (const [i, payer] of biz.payers.entries()) ids.push((await biz.api.create(payer.id, { mode: 'schedule', sendAt: inAnHour(30 + i) })).transactionId);
    const broken = biz.payers[0]!.email;
    const mailer = t.runtime.mailer;
    const flaky: RequestContext = {
      ...ctx(),
      mailer: {
        async send(message, executor) {
          if (message.to === broken) throw new Error('mail server said no');
          return mailer.send(message, executor);
        },
        sendText: (message, executor) => mailer.sendText(message, executor),
        sendMany: (emails, texts, executor) => mailer.sendMany(emails, texts, executor),
      },
    };
    const later = new Date(Date.now() + 2 * 3_600_000);
    await expect(sendScheduledRequests(flaky, later, { batchSize: 1, maxBatches: 10 })).rejects.toThrow(
      'Scheduled sends: 1 request(s) failed and will be tried again on the next run; 2 done.',
    );
    expect(await Promise.all(ids.map(stateOf))).toEqual(['Pending', 'Sent', 'Sent']);
    expect(await outbox(t.app, broken)).toEqual([]);
    expect(await sendScheduledRequests(ctx(), later)).toBe(1);
    expect(await stateOf(ids[0]!)).toBe('Sent');
  });

  it('two workers at once send each request exactly once', async () => {
    const biz = await businessWithPayers('twin-workers', 12);
    const ids: string[] = [];
    for (const [i, payer] of biz.payers.entries()) ids.push((await biz.api.create(payer.id, { mode: 'schedule', sendAt: inAnHour(i % 3) })).transactionId);
    const later = new Date(Date.now() + 2 * 3_600_000);
    const [a, b] = await Promise.all([
      sendScheduledRequests(ctx(), later, { batchSize: 3, maxBatches: 10 }),
      sendScheduledRequests(ctx(), later, { batchSize: 3, maxBatches: 10 }),
    ]);
    expect(a + b).toBe(12);
    for (const id of ids) expect(await eventsOf(id, 'scheduledSend'), id).toHaveLength(1);
    for (const payer of biz.payers) expect(await outbox(t.app, payer.email), payer.email).toHaveLength(1);
  });

  it('a deactivated payer is not e-mailed: the request stays Pending with a note, and goes out once the payer is active again', async () => {
    const biz = await businessWithPayers('payer-held', 1);
    const payer = biz.payers[0]!;
    const { transactionId } = await biz.api.create(payer.id, { mode: 'schedule', sendAt: inAnHour() });
    await setPayerActive(t.app, biz, payer.id, false);
    const later = new Date(Date.now() + 2 * 3_600_000);
    await sendScheduledRequests(ctx(), later);
    await sendScheduledRequests(ctx(), new Date(later.getTime() + 60_000));
    expect(await stateOf(transactionId)).toBe('Pending');
    expect(await outbox(t.app, payer.email)).toEqual([]);
    const notes = await eventsOf(transactionId, SEND_HELD_EVENT);
    expect(notes).toHaveLength(1);
    expect(notes[0]!.detail).toBe(
      `Not sent: Payer 0 of payer-held (${payer.email}) is deactivated. It goes out once you activate the payer again, unless it has expired by then (it expires on ${formatDay(dayIn(40))}); or cancel it.`,
    );
    // The owner sees it in the request's timeline.
    expect((await biz.api.detail(transactionId)).timeline.at(-1)).toMatchObject({
      event: SEND_HELD_EVENT,
      actor: 'System',
      fromState: 'Pending',
      toState: 'Pending',
    });

    await setPayerActive(t.app, biz, payer.id, true);
    await sendScheduledRequests(ctx(), later);
    expect(await stateOf(transactionId)).toBe('Sent');
    expect(await outbox(t.app, payer.email)).toHaveLength(1);
  });

  it('a request held past its expiry is not sent when it is released: it stays Pending, and says so', async () => {
    const biz = await businessWithPayers('held-expired', 1);
    const payer = biz.payers[0]!;
    const { transactionId } = await biz.api.create(payer.id, { mode: 'schedule', sendAt: inAnHour(), dueDate: dayIn(2), expiresOn: dayIn(3) });
    await setPayerActive(t.app, biz, payer.id, false);
    await sendScheduledRequests(ctx(), new Date(Date.now() + 2 * 3_600_000));
    await setPayerActive(t.app, biz, payer.id, true);
    await sendScheduledRequests(ctx(), middayOf(dayIn(4)));
    expect(await stateOf(transactionId)).toBe('Pending');
    expect(await outbox(t.app, payer.email)).toEqual([]);
    expect((await eventsOf(transactionId, SEND_HELD_EVENT)).at(-1)!.detail).toBe(
      `Not sent: it was held past its expiry date (${formatDay(dayIn(3))}). Edit it with new dates to send it, or cancel it.`,
    );
  });
});

describe('reminders', () => {
  it('requests already reminded at their last step, of a disabled business, or to a deactivated payer do not starve the ones that are due', async () => {
    const stale = await businessWithPayers('stale-reminders', 1);
    const blocked = await businessWithPayers('blocked-reminders', 1);
    const off = await businessWithPayers('off-payer-reminders', 1);
    const due = await businessWithPayers('due-reminders', 2);
    // Day 12: 3 days after a due date of day 9, the default schedule's last step.
    const at = middayOf(dayIn(12));
    const early = async (b: typeof stale, n: number, over: { last_reminder_offset?: number } = {}) => {
      const ids: string[] = [];
      for (let i = 0; i < n; i++) {
        const { transactionId } = await b.api.create(b.payers[0]!.id, { mode: 'send' });
        // Due before the rest (first in the walk), and already reminded at the last step when asked.
        await db()
          .updateTable('payment_requests')
          .set({ due_date: dayIn(8), ...over })
          .where('id', '=', transactionId)
          .execute();
        ids.push(transactionId);
      }
      return ids;
    };
    await early(stale, 4, { last_reminder_offset: 3 });
    await early(blocked, 2);
    await disable(blocked);
    await early(off, 2);
    await setPayerActive(t.app, off, off.payers[0]!.id, false);
    const dueIds: string[] = [];
    for (const payer of due.payers) dueIds.push((await due.api.create(payer.id, { mode: 'send', dueDate: dayIn(9) })).transactionId);

    expect(await sendReminders(ctx(), at, { batchSize: 2, maxBatches: 1 })).toBe(2);
    for (const [i, id] of dueIds.entries())
      expect((await eventsOf(id, 'reminder')).map((e) => e.detail)).toEqual([`Reminder e-mailed to ${due.payers[i]!.email} 3 day(s) after the due date`]);
    for (const payer of due.payers) expect((await outbox(t.app, payer.email))[0]!.subject).toMatch(/^Reminder: /);
    for (const b of [stale, blocked, off]) expect((await outbox(t.app, b.payers[0]!.email)).filter((m) => m.subject.startsWith('Reminder'))).toEqual([]);
  });

  it('follow the business’s own schedule: days before and after the due date, once per step, none on days not in it', async () => {
    const biz = await businessWithPayers('custom-schedule', 2);
    await configureBusiness(t.app, biz, { reminderSchedule: [2, -5] });
    const [early, late] = biz.payers as [{ id: string; email: string }, { id: string; email: string }];
    const a = await biz.api.create(early.id, { mode: 'send', dueDate: dayIn(10) });
    // Sent 3 days before it is due: the "5 days before" step had passed when the request itself was e-mailed.
    const b = await biz.api.create(late.id, { mode: 'send', dueDate: dayIn(3) });
    const reminders = async (email: string) => (await outbox(t.app, email)).filter((m) => m.subject.startsWith('Reminder: ')).length;

    for (const day of [0, 4]) await sendReminders(ctx(), middayOf(dayIn(day)));
    expect([await reminders(early.email), await reminders(late.email)]).toEqual([0, 0]);

    await sendReminders(ctx(), middayOf(dayIn(5)));
    await sendReminders(ctx(), middayOf(dayIn(5)));
    expect([await reminders(early.email), await reminders(late.email)]).toEqual([1, 1]);
    expect((await eventsOf(a.transactionId, 'reminder')).map((e) => e.detail)).toEqual([`Reminder e-mailed to ${early.email} 5 day(s) before the due date`]);
    expect((await eventsOf(b.transactionId, 'reminder')).map((e) => e.detail)).toEqual([`Reminder e-mailed to ${late.email} 2 day(s) after the due date`]);

    // The due date itself is not in this schedule (it is in the default one).
    await sendReminders(ctx(), middayOf(dayIn(10)));
    expect(await reminders(early.email)).toBe(1);
    await sendReminders(ctx(), middayOf(dayIn(12)));
    await sendReminders(ctx(), middayOf(dayIn(13)));
    expect(await reminders(early.email)).toBe(2);
    expect((await eventsOf(a.transactionId, 'reminder')).map((e) => e.detail)).toEqual([
      `Reminder e-mailed to ${early.email} 5 day(s) before the due date`,
      `Reminder e-mailed to ${early.email} 2 day(s) after the due date`,
    ]);
  });

  it('none when automatic reminders are off; they start when it is turned on', async () => {
    const biz = await businessWithPayers('no-reminders', 1);
    await configureBusiness(t.app, biz, { autoReminders: false });
    const payer = biz.payers[0]!;
    const { transactionId } = await biz.api.create(payer.id, { mode: 'send', dueDate: dayIn(10) });
    for (const day of [7, 10, 13, 20]) await sendReminders(ctx(), middayOf(dayIn(day)));
    expect(await eventsOf(transactionId, 'reminder')).toEqual([]);
    expect(await outbox(t.app, payer.email)).toHaveLength(1);

    await configureBusiness(t.app, biz, { autoReminders: true });
    await sendReminders(ctx(), middayOf(dayIn(13)));
    expect((await eventsOf(transactionId, 'reminder')).map((e) => e.detail)).toEqual([`Reminder e-mailed to ${payer.email} 3 day(s) after the due date`]);
  });

  it('a deactivated payer gets none; once active again, the step that is due goes out', async () => {
    const biz = await businessWithPayers('deactivated-reminders', 1);
    const payer = biz.payers[0]!;
    const { transactionId } = await biz.api.create(payer.id, { mode: 'send', dueDate: dayIn(10) });
    await setPayerActive(t.app, biz, payer.id, false);
    await sendReminders(ctx(), middayOf(dayIn(7)));
    await sendReminders(ctx(), middayOf(dayIn(10)));
    expect(await eventsOf(transactionId, 'reminder')).toEqual([]);
    await setPayerActive(t.app, biz, payer.id, true);
    await sendReminders(ctx(), middayOf(dayIn(10)));
    expect((await eventsOf(transactionId, 'reminder')).map((e) => e.detail)).toEqual([`Reminder e-mailed to ${payer.email} on the due date`]);
  });
});

describe('expiry and the default expiry', () => {
  it('default_expiry_days sets the expiry of a request made without one; an explicit expiry wins', async () => {
    const biz = await businessWithPayers('expiry-days', 1);
    await configureBusiness(t.app, biz, { defaultExpiryDays: 7 });
    const payer = biz.payers[0]!.id;
    expect((await biz.api.create(payer, { dueDate: dayIn(10) })).expiresOn).toBe(dayIn(17));
    expect((await biz.api.create(payer, { dueDate: dayIn(10), expiresOn: dayIn(12) })).expiresOn).toBe(dayIn(12));
    await configureBusiness(t.app, biz, { defaultExpiryDays: 45 });
    expect((await biz.api.create(payer, { dueDate: dayIn(10) })).expiresOn).toBe(dayIn(55));
  });

  it('moves requests past their expiry to Expired only when automatic expiry is on; resending then gives default_expiry_days from today', async () => {
    const on = await businessWithPayers('expire-on', 1);
    const off = await businessWithPayers('expire-off', 1);
    await configureBusiness(t.app, on, { defaultExpiryDays: 12 });
    await configureBusiness(t.app, off, { autoExpire: false });
    const mine = await on.api.create(on.payers[0]!.id, { mode: 'send', dueDate: dayIn(2), expiresOn: dayIn(4) });
    const kept = await off.api.create(off.payers[0]!.id, { mode: 'send', dueDate: dayIn(2), expiresOn: dayIn(4) });

    // On its last day it is still open.
    await expireRequests(ctx(), middayOf(dayIn(4)));
    expect([await stateOf(mine.transactionId), await stateOf(kept.transactionId)]).toEqual(['Sent', 'Sent']);
    await expireRequests(ctx(), middayOf(dayIn(5)));
    expect([await stateOf(mine.transactionId), await stateOf(kept.transactionId)]).toEqual(['Expired', 'Sent']);
    expect(await eventsOf(mine.transactionId, 'expire')).toEqual([{ actor_label: 'System', detail: `Not paid by ${formatDay(dayIn(4))}` }]);

    // Resent once it has really expired: payable again for the business's default number of days.
    await sql`UPDATE payment_requests SET due_date = ${dayIn(-3)}, expires_on = ${dayIn(-1)} WHERE id = ${mine.transactionId}`.execute(db());
    const resent = await on.api.command(mine.transactionId, 'resend');
    expect(resent.statusCode, resent.body).toBe(200);
    expect(resent.json().data).toMatchObject({ transactionState: 'Resent', expiresOn: dayIn(12) });
  });

  it('expires in bounded batches, oldest expiry first', async () => {
    const biz = await businessWithPayers('expire-batches', 1);
    const ids: string[] = [];
    for (const d of [3, 1, 2]) ids.push((await biz.api.create(biz.payers[0]!.id, { mode: 'send', dueDate: dayIn(1), expiresOn: dayIn(d) })).transactionId);
    // Nothing else in this file is open with an expiry before day 4.
    const at = middayOf(dayIn(4));
    expect(await expireRequests(ctx(), at, { batchSize: 1, maxBatches: 2 })).toBe(2);
    expect(await Promise.all(ids.map(stateOf))).toEqual(['Sent', 'Expired', 'Expired']);
    expect(await expireRequests(ctx(), at, { batchSize: 1, maxBatches: 2 })).toBe(1);
    expect(await stateOf(ids[0]!)).toBe('Expired');
  });
});

describe('the jobs at the edge of the date line', () => {
  // Kiritimati is UTC+14: at noon UTC its calendar is already on tomorrow.
  async function farEastBusiness(name: string, schedule: number[]) {
    const biz = await businessWithPayers(name, 1);
    await configureBusiness(t.app, biz, { reminderSchedule: schedule });
    await sql`UPDATE businesses SET time_zone = 'Pacific/Kiritimati' WHERE id = ${biz.businessId}`.execute(db());
    return biz;
  }
  const utcToday = () => todayIn('UTC');
  const noonUtc = () => new Date(`${utcToday()}T12:00:00Z`);

  it("a request whose expiry was yesterday on the business's calendar expires, though it is today in UTC", async () => {
    const biz = await farEastBusiness('kiritimati-expiry', [0]);
    const { transactionId } = await biz.api.create(biz.payers[0]!.id, { mode: 'send', dueDate: addDays(utcToday(), 2) });
    await sql`UPDATE payment_requests SET due_date = ${utcToday()}, expires_on = ${utcToday()} WHERE id = ${transactionId}`.execute(db());
    await expireRequests(ctx(), noonUtc());
    expect(await stateOf(transactionId)).toBe('Expired');
  });

  it("the earliest reminder step (30 days before) goes out on the business's calendar day, a day ahead of UTC", async () => {
    const biz = await farEastBusiness('kiritimati-reminder', [-30]);
    const dueDate = addDays(utcToday(), 31);
    const { transactionId } = await biz.api.create(biz.payers[0]!.id, { mode: 'send', dueDate });
    await sendReminders(ctx(), noonUtc());
    expect((await eventsOf(transactionId, 'reminder')).map((e) => e.detail)).toEqual([
      `Reminder e-mailed to ${biz.payers[0]!.email} 30 day(s) before the due date`,
    ]);
  });
});

describe('each job walks its own index', () => {
  /** The batch query a job runs (its first ordered SELECT), as the code builds it. */
  async function batchQuery(job: (ctx: RequestContext, now: Date, limits: { batchSize: number; maxBatches: number }) => Promise<number>) {
    const seen: CompiledQuery[] = [];
    // Not destroyed: it shares the app's pool.
    const logged = new Kysely<DB>({ dialect: new PostgresDialect({ pool: t.runtime.database.pool }), log: (e) => void seen.push(e.query) });
    await job({ ...ctx(), db: logged }, middayOf(dayIn(400)), { batchSize: 1, maxBatches: 1 }).catch(() => 0);
    return seen.find((q) => /^select\b/i.test(q.sql) && /order by/i.test(q.sql) && !/for update/i.test(q.sql))!;
  }

  it.each([
    ['scheduled sends', sendScheduledRequests, 'payment_requests_scheduled_walk_idx'],
    ['reminders', sendReminders, 'payment_requests_reminder_walk_idx'],
    ['expiry', expireRequests, 'payment_requests_expiry_walk_idx'],
  ] as const)('%s: in its order from its partial index, with no sort, even in a plan made for any parameters', async (_, job, index) => {
    const query = await batchQuery(job);
    const client = await t.runtime.database.pool.connect();
    try {
      // The tables here are tiny, so a scan would be cheapest; statements are prepared (ADR 009).
      await client.query('SET enable_seqscan = off');
      await client.query('SET plan_cache_mode = force_generic_plan');
      await client.query(`PREPARE job_batch AS ${query.sql}`);
      const args = query.parameters.map((p) =>
        p instanceof Date ? client.escapeLiteral(p.toISOString()) : typeof p === 'string' ? client.escapeLiteral(p) : String(p),
      );
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE job_batch(${args.join(', ')})`);
      const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(plan).toMatch(new RegExp(`Index (Only )?Scan using ${index} on payment_requests`));
      expect(plan).not.toMatch(/Sort/);
    } finally {
      await client.query('DEALLOCATE ALL');
      await client.query('RESET enable_seqscan');
      await client.query('RESET plan_cache_mode');
      client.release();
    }
  });
});
