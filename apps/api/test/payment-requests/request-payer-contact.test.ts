import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendReminders, sendScheduledRequests } from '../../src/domain/payment-requests/background';
import { approvedBusiness, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { get } from '../support/identity';
import { configureBusiness, dayIn, forceStateForTest, middayOf, outbox, requestContext, requestsApi } from '../support/requests';
import { createTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
let biz: ApprovedBusiness;
let api: ReturnType<typeof requestsApi>;
const db = () => t.runtime.database.db;
let serial = 0;

beforeAll(async () => {
  t = await createTestApp();
  biz = await approvedBusiness(t.app, db(), 'owner@payer-contact.example');
  api = requestsApi(t.app, biz);
});
afterAll(async () => t?.close());

/** A payer with an address of their own, so each address's mail can be counted. */
async function newPayer(name = 'Pat Payer') {
  serial += 1;
  const email = `old${serial}@payer-contact.example`;
  return { id: await insertPayer(db(), biz.businessId, { email, displayName: name }), email, newEmail: `new${serial}@payer-contact.example` };
}

/** The e-mails asking `to` for money (requests, resends, reminders), not verification links. */
async function requestMail(to: string) {
  return (await outbox(t.app, to)).filter((m) => / requests \$|^Reminder: /.test(m.subject));
}

/** The business corrects the payer through the payer API, as its owner would. */
async function editPayer(payerId: string, body: Record<string, unknown>) {
  const res = await t.app.inject({
    method: 'PATCH',
    url: `/api/businesses/${biz.businessId}/payers/${payerId}`,
    headers: { authorization: `Bearer ${biz.token}`, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
  expect(res.statusCode, res.body).toBe(200);
}

async function copyOf(requestId: string) {
  return db().selectFrom('payment_requests').select(['payer_display_name', 'payer_email']).where('id', '=', requestId).executeTakeFirstOrThrow();
}

async function search(text: string): Promise<string[]> {
  const res = await get(t.app, `${api.base}?search=${encodeURIComponent(text)}`, biz.token);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data.items as { transactionId: string }[]).map((r) => r.transactionId);
}

const sentTo = (timeline: { event: string; detail: string | null }[]) =>
  timeline.filter((e) => e.event === 'send' || e.event === 'resend').map((e) => e.detail);

describe("a request goes to the payer's current e-mail address", () => {
  it('after the business corrects the address, Resend e-mails the new one and not the old; the timeline keeps both', async () => {
    const payer = await newPayer();
    const { transactionId } = await api.create(payer.id, { mode: 'send' });
    expect(await requestMail(payer.email)).toHaveLength(1);

    await editPayer(payer.id, { email: payer.newEmail });
    expect((await api.command(transactionId, 'resend')).statusCode).toBe(200);

    expect(await requestMail(payer.newEmail)).toHaveLength(1);
    expect(await requestMail(payer.email)).toHaveLength(1);
    const detail = await api.detail(transactionId);
    expect(detail).toMatchObject({ payerEmail: payer.newEmail });
    expect(sentTo(detail.timeline)).toEqual([`E-mailed to ${payer.email}`, `E-mailed to ${payer.newEmail}`]);
    // The list finds it by the address it now goes to.
    expect(await search(payer.newEmail)).toEqual([transactionId]);
    expect(await search(payer.email)).toEqual([]);
  });

  it('open requests follow the corrected name and address; paid, withdrawn and cancelled ones keep whom they were for', async () => {
    const payer = await newPayer('Pat Oldname');
    const make = async (mode: string) =>
      (await api.create(payer.id, { mode, ...(mode === 'schedule' ? { sendAt: new Date(Date.now() + 86_400_000).toISOString() } : {}) })).transactionId;
    const draft = await make('draft');
    const pending = await make('schedule');
    const sent = await make('send');
    const expired = await make('send');
    await db().updateTable('payment_requests').set({ state: 'Expired' }).where('id', '=', expired).execute();
    const paid = await make('send');
    await forceStateForTest(db(), paid, 'Paid');
    const withdrawn = await make('send');
    expect((await api.command(withdrawn, 'withdraw')).statusCode).toBe(200);
    const cancelled = await make('schedule');
    expect((await api.command(cancelled, 'cancel')).statusCode).toBe(200);
    const paidTimeline = (await api.detail(paid)).timeline;

    await editPayer(payer.id, { firstName: 'Pat', lastName: 'Newname', email: payer.newEmail });

    for (const id of [draft, pending, sent, expired]) expect(await copyOf(id), id).toEqual({ payer_display_name: 'Pat Newname', payer_email: payer.newEmail });
    for (const id of [paid, withdrawn, cancelled]) expect(await copyOf(id), id).toEqual({ payer_display_name: 'Pat Oldname', payer_email: payer.email });
    expect((await api.detail(paid)).timeline).toEqual(paidTimeline);
  });

  it('a scheduled send and a reminder go to the corrected address, and their timeline entries name it', async () => {
    const payer = await newPayer();
    const other = await newPayer();
    await configureBusiness(t.app, biz, {});
    const sendAt = new Date(Date.now() + 3_600_000).toISOString();
    const scheduled = await api.create(payer.id, { mode: 'schedule', sendAt });
    const reminded = await api.create(other.id, { mode: 'send', dueDate: dayIn(10) });

    await editPayer(payer.id, { email: payer.newEmail });
    await editPayer(other.id, { email: other.newEmail });

    expect(await sendScheduledRequests(requestContext(t.runtime), new Date(Date.now() + 2 * 3_600_000))).toBeGreaterThanOrEqual(1);
    expect(await requestMail(payer.newEmail)).toHaveLength(1);
    expect(await requestMail(payer.email)).toEqual([]);
    expect((await api.detail(scheduled.transactionId)).timeline.at(-1)!.detail).toBe(`Scheduled send; e-mailed to ${payer.newEmail}`);

    await sendReminders(requestContext(t.runtime), middayOf(dayIn(10)));
    expect((await requestMail(other.newEmail)).map((m) => m.subject)).toEqual([expect.stringMatching(/^Reminder: /)]);
    expect(await requestMail(other.email)).toHaveLength(1);
    expect((await api.detail(reminded.transactionId)).timeline.at(-1)!.detail).toBe(`Reminder e-mailed to ${other.newEmail} on the due date`);
  });

  it("a send reads the payer's address when it goes out, even if the request's copy is out of date", async () => {
    const payer = await newPayer();
    const { transactionId } = await api.create(payer.id, { mode: 'draft' });
    // As if the payer changed between the copy and the send (no edit refreshed the request).
    await db().updateTable('payers').set({ email: payer.newEmail, display_name: 'Pat Moved' }).where('id', '=', payer.id).execute();
    expect((await api.command(transactionId, 'send')).statusCode).toBe(200);
    expect(await requestMail(payer.newEmail)).toHaveLength(1);
    expect(await requestMail(payer.email)).toEqual([]);
    expect(await copyOf(transactionId)).toEqual({ payer_display_name: 'Pat Moved', payer_email: payer.newEmail });
    expect(sentTo((await api.detail(transactionId)).timeline)).toEqual([`E-mailed to ${payer.newEmail}`]);
  });
});
