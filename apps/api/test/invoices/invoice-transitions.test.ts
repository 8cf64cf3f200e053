import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Invoice, InvoiceState, RequestState } from '@tay/contract';
import { expireRequests, sendReminders, sendScheduledRequests } from '../../src/domain/payment-requests/background';
import { addDays } from '../../src/domain/payment-requests/request-record';
import { approvedBusiness, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { errorOf } from '../support/identity';
import { requestRow } from '../support/payments';
import { configureBusiness, dayIn, forceStateForTest, middayOf, requestContext, requestsApi, setPayerActive } from '../support/requests';
import { createTestApp, type TestApp } from '../support/test-app';
import { declineOnPayPage, invoiceBody, invoiceEmail, invoiceEmails, invoiceRow, invoiceSnapshot, invoicesApi, payPage, pdfText } from './invoice-api';

/**
 * The invoice's state machine (ADR 033) through the API, the payer's page and the jobs: every
 * move it allows, every one it refuses (409, the invoice's number and state in the sentence, and
 * nothing changed), and how the invoice follows the payment request that collects it.
 */

let t: TestApp;
let biz: ApprovedBusiness;
let api: ReturnType<typeof invoicesApi>;
const db = () => t.runtime.database.db;
const ctx = () => requestContext(t.runtime);
const OWNER = 'owner@invoice-transitions.example';
/** The business's name as `approvedBusiness` sets it: the pay page and the e-mails use it. */
const BUSINESS_NAME = `Biz ${OWNER}`;

beforeAll(async () => {
  t = await createTestApp();
  biz = await approvedBusiness(t.app, db(), OWNER);
  api = invoicesApi(t.app, biz);
});
afterAll(async () => t?.close());

let serial = 0;

/** A payer of its own (its own e-mail address, so its mail can be counted). */
async function newPayer(of: ApprovedBusiness = biz): Promise<{ id: string; email: string }> {
  serial += 1;
  const email = `payer${serial}@invoice-transitions.example`;
  return { id: await insertPayer(db(), of.businessId, { email, displayName: `Payer ${serial}` }), email };
}

/** A send time a day ahead: the real-time cron (every minute) never finds it due during the run. */
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString();

async function ok(res: { statusCode: number; body: string; json(): { data: Invoice } }): Promise<Invoice> {
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

/** The link token of the newest e-mail about the request, or null when it was never e-mailed. */
async function latestToken(requestId: string | null): Promise<string | null> {
  if (!requestId || (await invoiceEmails(db(), requestId)).length === 0) return null;
  return (await invoiceEmail(db(), requestId)).token;
}

interface Subject {
  id: string;
  number: string;
  state: InvoiceState;
  payerId: string;
  email: string;
  requestId: string | null;
  /** The payer's link, when the invoice was ever e-mailed. */
  token: string | null;
}

/**
 * An invoice in `state`, reached through the API, the payer's page and the jobs where that is
 * practical; Paid and PartiallyPaid (which take a processor and its webhooks) are set on its
 * request, and the invoice must follow by itself.
 */
async function driveTo(state: InvoiceState): Promise<Subject> {
  const payer = await newPayer();
  // The one the expiry job is to reach is due the day it is issued (so it expires 30 days on);
  // the rest are due in 30 days and expire 60 days on, beyond that job's reach.
  const draft = await api.create(payer.id, state === 'Expired' ? { terms: 'due_on_receipt' } : {});
  const id = draft.invoiceId;
  switch (state) {
    case 'Draft':
      break;
    case 'Scheduled':
    case 'Cancelled':
      await ok(await api.send(id, { sendAt: tomorrow() }));
      if (state === 'Cancelled') await ok(await api.command(id, 'cancel'));
      break;
    default: {
      const requestId = (await ok(await api.send(id))).transactionId!;
      if (state === 'Resent') await ok(await api.command(id, 'resend'));
      if (state === 'Withdrawn') await ok(await api.command(id, 'withdraw'));
      if (state === 'Rejected') expect((await declineOnPayPage(t.app, (await latestToken(requestId))!)).statusCode).toBe(200);
      if (state === 'Expired') await expireRequests(ctx(), middayOf(addDays((await requestRow(db(), requestId)).expires_on, 1)));
      if (state === 'Paid' || state === 'PartiallyPaid') await forceStateForTest(db(), requestId, state);
    }
  }
  const detail = await api.detail(id);
  expect(detail.invoiceState, `driving to ${state}`).toBe(state);
  return {
    id,
    number: draft.number,
    state,
    payerId: payer.id,
    email: payer.email,
    requestId: detail.transactionId,
    token: await latestToken(detail.transactionId),
  };
}

const STATES: InvoiceState[] = ['Draft', 'Scheduled', 'Sent', 'Resent', 'PartiallyPaid', 'Paid', 'Rejected', 'Expired', 'Withdrawn', 'Cancelled'];
type Action = 'send' | 'schedule' | 'resend' | 'withdraw' | 'cancel' | 'edit' | 'delete' | 'decline';
const ACTIONS: Action[] = ['send', 'schedule', 'resend', 'withdraw', 'cancel', 'edit', 'delete', 'decline'];

/**
 * docs/product.md §4 ("Invoice") and ADR 033, written out here rather than read from the contract:
 * where each merchant command and the payer's decline is allowed, and what it leads to. The send
 * endpoint also sends a scheduled invoice at once, or gives it a new time (its description).
 */
const ALLOWED: Record<Action, Partial<Record<InvoiceState, InvoiceState | 'deleted'>>> = {
  send: { Draft: 'Sent', Scheduled: 'Sent' },
  schedule: { Draft: 'Scheduled', Scheduled: 'Scheduled' },
  resend: { Sent: 'Resent', Resent: 'Resent', Expired: 'Resent', Rejected: 'Resent' },
  withdraw: { Sent: 'Withdrawn', Resent: 'Withdrawn' },
  cancel: { Scheduled: 'Cancelled' },
  edit: { Draft: 'Draft', Scheduled: 'Scheduled' },
  delete: { Draft: 'deleted' },
  decline: { Sent: 'Rejected', Resent: 'Rejected' },
};

const PAST: Record<'send' | 'schedule' | 'resend' | 'withdraw' | 'cancel', string> = {
  send: 'sent',
  schedule: 'scheduled',
  resend: 'resent',
  withdraw: 'withdrawn',
  cancel: 'cancelled',
};

/** What the API must say when `action` is refused on an invoice in `state`; null: the payer's page answers (tested with requests). */
function refusal(action: Action, { number, state }: Pick<Subject, 'number' | 'state'>): string | null {
  switch (action) {
    case 'edit':
      return `Invoice ${number} is ${state} and cannot be edited: what the payer was sent stays as it was. Copy it to make a new one.`;
    case 'delete': {
      const instead = state === 'Scheduled' ? 'Cancel it instead.' : state === 'Sent' || state === 'Resent' ? 'Withdraw it instead.' : 'It stays on record.';
      return `Only drafts can be deleted; invoice ${number} is ${state}. ${instead}`;
    }
    case 'decline':
      return null;
    default:
      return `Invoice ${number} is ${state}, so it cannot be ${PAST[action]}.`;
  }
}

/** A new content: one line of $99.00. */
const REVISED = { items: [{ description: 'Revised work', quantity: 2, unitPriceCents: 4950, taxRate: 0 }] };

function perform(action: Action, subject: Subject) {
  switch (action) {
    case 'send':
      return api.send(subject.id);
    case 'schedule':
      return api.send(subject.id, { sendAt: new Date(Date.now() + 2 * 86_400_000).toISOString() });
    case 'edit':
      return api.patch(subject.id, invoiceBody(subject.payerId, REVISED));
    case 'delete':
      return api.remove(subject.id);
    case 'decline':
      if (!subject.token) throw new Error('never e-mailed: there is no link to decline with');
      return declineOnPayPage(t.app, subject.token);
    default:
      return api.command(subject.id, action);
  }
}

/** The request's state for the invoice's: a scheduled invoice's request is Pending. */
const requestStateOf = (state: InvoiceState): RequestState => (state === 'Scheduled' ? 'Pending' : (state as RequestState));

describe('every merchant command and the payer’s decline, in every invoice state', () => {
  it.each(STATES)('%s: each refused move is 409 naming the invoice and its state, and changes nothing', async (state) => {
    const subject = await driveTo(state);
    const refused = ACTIONS.filter((action) => !ALLOWED[action][state]);
    expect(refused.length).toBeGreaterThan(0);
    for (const action of refused) {
      const before = await invoiceSnapshot(db(), subject.id);
      if (action === 'decline' && !subject.token) {
        // Never e-mailed (a draft, a scheduled invoice, or one cancelled before it went): the payer has no link.
        expect(before.mail, `${state}: no e-mail`).toBe(0);
        continue;
      }
      const res = await perform(action, subject);
      expect(res.statusCode, `${action} on ${state}: ${res.body}`).toBe(409);
      const expected = refusal(action, subject);
      if (expected === null) expect(errorOf(res).code).toBe('CONFLICT');
      else expect(errorOf(res)).toEqual({ code: 'CONFLICT', message: expected });
      expect(await invoiceSnapshot(db(), subject.id), `${action} on ${state} changed the invoice or its request`).toEqual(before);
    }
  });

  const allowed = ACTIONS.flatMap((action) => Object.entries(ALLOWED[action]).map(([from, to]) => [action, from as InvoiceState, to] as const));

  it.each(allowed)('%s is allowed on %s → %s; the request follows', async (action, from, to) => {
    const subject = await driveTo(from);
    const before = await invoiceSnapshot(db(), subject.id);
    const res = await perform(action, subject);
    expect(res.statusCode, res.body).toBeLessThan(300);
    if (to === 'deleted') {
      expect(res.statusCode).toBe(204);
      expect((await api.get(`/${subject.id}`)).statusCode).toBe(404);
      expect((await invoiceSnapshot(db(), subject.id)).row).toBeUndefined();
      return;
    }
    const detail = await api.detail(subject.id);
    expect(detail.invoiceState).toBe(to);
    const after = await invoiceSnapshot(db(), subject.id);
    if (to === 'Draft') {
      expect(after.requests).toEqual([]);
    } else {
      // One request collects the invoice, whatever is done to it, and it is in step with it.
      expect(after.requests).toHaveLength(1);
      expect(after.request!.row!.state).toBe(requestStateOf(to));
      expect(after.row!.request_id).toBe(after.requests[0]);
    }
    // Sending (at once) and resending e-mail the payer the invoice; nothing else here does.
    const mailed = action === 'send' || action === 'resend' ? 1 : 0;
    expect(after.mail - before.mail).toBe(mailed);
    if (mailed) {
      const { message, attachments } = await invoiceEmail(db(), detail.transactionId!);
      expect(message.to_address).toBe(subject.email);
      expect(message.subject).toContain(`Invoice ${subject.number} from ${BUSINESS_NAME}`);
      expect(attachments).toHaveLength(1);
      expect(attachments[0]).toMatchObject({ filename: `${subject.number}.pdf`, contentType: 'application/pdf' });
      expect(Buffer.from(attachments[0]!.content, 'base64').subarray(0, 5).toString('latin1')).toBe('%PDF-');
    }
    if (action === 'edit') {
      expect(detail.totalCents).toBe(9_900);
      if (from === 'Scheduled') expect(after.request!.row!.amount_cents).toBe(9_900);
    }
    if (action === 'decline') expect(detail.timeline.find((e) => e.event === 'payerDeclines')).toMatchObject({ detail: 'I did not order this.' });
  });
});

describe('the moves, one by one', () => {
  it('Draft → send → Sent: a request for the total, the e-mail with the pay link and the PDF', async () => {
    const payer = await newPayer();
    const draft = await api.create(payer.id);
    expect(draft).toMatchObject({ invoiceState: 'Draft', transactionId: null, sentAt: null });
    const sent = await ok(await api.send(draft.invoiceId));
    expect(sent).toMatchObject({ invoiceState: 'Sent', totalCents: 7276, actions: ['Resend', 'Withdraw', 'Copy', 'View/Download'] });
    expect(sent.sentAt).not.toBeNull();
    const request = await requestRow(db(), sent.transactionId!);
    expect(request).toMatchObject({ state: 'Sent', amount_cents: 7276, invoice_id: draft.invoiceId, due_date: draft.dueDate });
    const emails = await invoiceEmails(db(), sent.transactionId!);
    expect(emails).toHaveLength(1);
    expect(emails[0]!.subject).toMatch(new RegExp(`^Invoice ${draft.number} from `));
    const text = pdfText(Buffer.from(emails[0]!.attachments[0]!.content, 'base64'));
    for (const expected of [draft.number, 'Consulting, hours', '$72.76']) expect(text).toContain(expected);
    expect((await api.detail(draft.invoiceId)).timeline.map((e) => e.event)).toEqual(['create', 'send']);
  });

  it('Draft → schedule → Scheduled: nothing goes until the scheduled-send job runs after its time; then Sent, with the PDF', async () => {
    const payer = await newPayer();
    const draft = await api.create(payer.id);
    // An hour ahead: beyond the real-time cron, within reach of the job run below.
    const sendAt = new Date(Date.now() + 3_600_000);
    const scheduled = await ok(await api.send(draft.invoiceId, { sendAt: sendAt.toISOString() }));
    expect(scheduled).toMatchObject({
      invoiceState: 'Scheduled',
      sendAt: sendAt.toISOString(),
      sentAt: null,
      actions: ['Edit', 'Cancel', 'Copy', 'View/Download'],
    });
    const requestId = scheduled.transactionId!;
    expect(await requestRow(db(), requestId)).toMatchObject({ state: 'Pending', send_at: sendAt, amount_cents: 7276 });
    expect(await invoiceEmails(db(), requestId)).toEqual([]);

    // A minute before its time: still held.
    await sendScheduledRequests(ctx(), new Date(sendAt.getTime() - 60_000));
    expect((await api.detail(draft.invoiceId)).invoiceState).toBe('Scheduled');
    expect(await invoiceEmails(db(), requestId)).toEqual([]);

    // A minute after: sent, and the invoice with it.
    expect(await sendScheduledRequests(ctx(), new Date(sendAt.getTime() + 60_000))).toBeGreaterThanOrEqual(1);
    const detail = await api.detail(draft.invoiceId);
    expect(detail).toMatchObject({ invoiceState: 'Sent', sendAt: null });
    expect(detail.sentAt).not.toBeNull();
    expect(detail.timeline.map((e) => e.event)).toEqual(['create', 'schedule', 'scheduledSend']);
    expect((await requestRow(db(), requestId)).state).toBe('Sent');
    const emails = await invoiceEmails(db(), requestId);
    expect(emails).toHaveLength(1);
    expect(emails[0]!.to).toBe(payer.email);
    expect(emails[0]!.subject).toMatch(new RegExp(`^Invoice ${draft.number} from `));
    expect(emails[0]!.attachments).toHaveLength(1);
    expect(emails[0]!.attachments[0]).toMatchObject({ filename: `${draft.number}.pdf`, contentType: 'application/pdf' });
    expect(pdfText(Buffer.from(emails[0]!.attachments[0]!.content, 'base64'))).toContain(draft.number);
    // The link in it opens the invoice on the payer's page.
    const page = await payPage(t.app, (await invoiceEmail(db(), requestId)).token);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().data).toMatchObject({ status: 'payable', invoice: { number: draft.number, totalCents: 7276 } });
  });

  it('a scheduled invoice is edited before it goes: its request’s amount, due date and payer follow; then it is cancelled, unsent', async () => {
    const payer = await newPayer();
    const other = await newPayer();
    const draft = await api.create(payer.id);
    const scheduled = await ok(await api.send(draft.invoiceId, { sendAt: tomorrow() }));
    const requestId = scheduled.transactionId!;

    const edited = await ok(await api.patch(draft.invoiceId, invoiceBody(other.id, { ...REVISED, terms: 'net15', allowPartial: false })));
    expect(edited).toMatchObject({ invoiceState: 'Scheduled', totalCents: 9_900, payerId: other.id, dueDate: dayIn(15), transactionId: requestId });
    expect(await requestRow(db(), requestId)).toMatchObject({
      state: 'Pending',
      amount_cents: 9_900,
      due_date: dayIn(15),
      payer_id: other.id,
      payer_email: other.email,
      allow_partial: false,
    });
    expect((await api.detail(draft.invoiceId)).timeline.map((e) => e.event)).toEqual(['create', 'schedule', 'edit']);

    const cancelled = await ok(await api.command(draft.invoiceId, 'cancel'));
    expect(cancelled).toMatchObject({ invoiceState: 'Cancelled', sendAt: null, sentAt: null, actions: ['Copy', 'View/Download'] });
    expect(await requestRow(db(), requestId)).toMatchObject({ state: 'Cancelled', send_at: null });
    // Its time passes: nothing goes.
    await sendScheduledRequests(ctx(), new Date(Date.now() + 2 * 86_400_000));
    expect((await api.detail(draft.invoiceId)).invoiceState).toBe('Cancelled');
    expect(await invoiceEmails(db(), requestId)).toEqual([]);
  });

  it('Sent → resend → Resent: a new link; the old one is 404, the new one opens the invoice', async () => {
    const s = await driveTo('Sent');
    const oldToken = s.token!;
    expect((await payPage(t.app, oldToken)).statusCode).toBe(200);
    const resent = await ok(await api.command(s.id, 'resend'));
    expect(resent.invoiceState).toBe('Resent');
    const emails = await invoiceEmails(db(), s.requestId!);
    expect(emails).toHaveLength(2);
    expect(emails[1]!.attachments[0]).toMatchObject({ filename: `${s.number}.pdf` });
    const newToken = (await invoiceEmail(db(), s.requestId!)).token;
    expect(newToken).not.toBe(oldToken);
    const old = await payPage(t.app, oldToken);
    expect(old.statusCode).toBe(404);
    expect(errorOf(old).code).toBe('NOT_FOUND');
    const page = await payPage(t.app, newToken);
    expect(page.statusCode).toBe(200);
    expect(page.json().data).toMatchObject({ status: 'payable', transactionState: 'Resent', invoice: { number: s.number } });
    // Resent again: still Resent, another e-mail.
    expect((await ok(await api.command(s.id, 'resend'))).invoiceState).toBe('Resent');
    expect(await invoiceEmails(db(), s.requestId!)).toHaveLength(3);
  });

  it('Sent → withdraw → Withdrawn: the payer’s page says it was withdrawn and takes nothing', async () => {
    const s = await driveTo('Sent');
    const withdrawn = await ok(await api.command(s.id, 'withdraw'));
    expect(withdrawn).toMatchObject({ invoiceState: 'Withdrawn', actions: ['Copy', 'View/Download'] });
    expect((await requestRow(db(), s.requestId!)).state).toBe('Withdrawn');
    const page = await payPage(t.app, s.token!);
    expect(page.statusCode).toBe(200);
    expect(page.json().data).toMatchObject({
      status: 'withdrawn',
      statusMessage: `${BUSINESS_NAME} withdrew this request; there is nothing to pay.`,
      declinable: false,
    });
    expect(await invoiceEmails(db(), s.requestId!)).toHaveLength(1);
  });

  it.each(['Sent', 'Resent'] as const)('%s → the payer declines → Rejected; it can then be resent', async (from) => {
    const s = await driveTo(from);
    const declined = await declineOnPayPage(t.app, s.token!, 'Wrong amount');
    expect(declined.statusCode, declined.body).toBe(200);
    expect(declined.json().data).toMatchObject({ status: 'declined', declinable: false });
    const detail = await api.detail(s.id);
    expect(detail).toMatchObject({ invoiceState: 'Rejected', actions: ['Resend', 'Copy', 'View/Download'] });
    expect(detail.timeline.find((e) => e.event === 'payerDeclines')).toMatchObject({ detail: 'Wrong amount' });
    expect((await requestRow(db(), s.requestId!)).state).toBe('Rejected');

    const mailBefore = (await invoiceEmails(db(), s.requestId!)).length;
    expect((await ok(await api.command(s.id, 'resend'))).invoiceState).toBe('Resent');
    expect(await invoiceEmails(db(), s.requestId!)).toHaveLength(mailBefore + 1);
    const page = await payPage(t.app, (await invoiceEmail(db(), s.requestId!)).token);
    expect(page.json().data).toMatchObject({ status: 'payable', declinable: true });
  });

  it('the expiry job makes a sent invoice Expired (not before its request’s expiry); it can then be resent', async () => {
    const payer = await newPayer();
    const sent = await api.sent(payer.id, { terms: 'due_on_receipt' });
    const { expires_on: expiresOn } = await requestRow(db(), sent.transactionId!);
    // On its last day it is still open.
    await expireRequests(ctx(), middayOf(expiresOn));
    expect((await api.detail(sent.invoiceId)).invoiceState).toBe('Sent');
    await expireRequests(ctx(), middayOf(addDays(expiresOn, 1)));
    const expired = await api.detail(sent.invoiceId);
    expect(expired).toMatchObject({ invoiceState: 'Expired', actions: ['Resend', 'Copy', 'View/Download'] });
    expect(expired.timeline.at(-1)).toMatchObject({ event: 'expire', actor: 'System' });

    const resent = await ok(await api.command(sent.invoiceId, 'resend'));
    expect(resent.invoiceState).toBe('Resent');
    expect((await requestRow(db(), sent.transactionId!)).state).toBe('Resent');
    expect(await invoiceEmails(db(), sent.transactionId!)).toHaveLength(2);
  });

  it.each(['Paid', 'PartiallyPaid'] as const)('%s on its request: the invoice follows (the trigger), and cannot be sent again', async (state) => {
    const s = await driveTo('Sent');
    await forceStateForTest(db(), s.requestId!, state);
    const detail = await api.detail(s.id);
    const request = await requestRow(db(), s.requestId!);
    expect(detail).toMatchObject({
      invoiceState: state,
      amountPaidCents: request.amount_paid_cents,
      balanceCents: 7276 - request.amount_paid_cents,
      actions: ['Copy', 'View/Download'],
    });
    expect(request.amount_paid_cents).toBe(state === 'Paid' ? 7276 : 3638);
    expect(detail.paidAt === null).toBe(state !== 'Paid');

    for (const call of [() => api.send(s.id), () => api.send(s.id, { sendAt: tomorrow() })]) {
      const before = await invoiceSnapshot(db(), s.id);
      const res = await call();
      expect(res.statusCode, res.body).toBe(409);
      expect(errorOf(res).message).toMatch(new RegExp(`^Invoice ${s.number} is ${state}, so it cannot be (sent|scheduled)\\.$`));
      expect(await invoiceSnapshot(db(), s.id)).toEqual(before);
    }
  });

  it('a command on its request from the payment history moves the invoice too', async () => {
    const history = requestsApi(t.app, biz);
    const sent = await driveTo('Sent');
    expect((await history.command(sent.requestId!, 'resend')).statusCode).toBe(200);
    expect((await api.detail(sent.id)).invoiceState).toBe('Resent');
    expect((await history.command(sent.requestId!, 'withdraw')).statusCode).toBe(200);
    expect((await api.detail(sent.id)).invoiceState).toBe('Withdrawn');

    const scheduled = await driveTo('Scheduled');
    expect((await history.command(scheduled.requestId!, 'cancel')).statusCode).toBe(200);
    expect(await api.detail(scheduled.id)).toMatchObject({ invoiceState: 'Cancelled', sendAt: null });
  });
});

describe('what a send checks', () => {
  it('an invoice that totals $0.00 (a 100 % discount) is not sent or scheduled: there is nothing to collect', async () => {
    const payer = await newPayer();
    const free = await api.create(payer.id, { discount: { type: 'percent', percent: 100 } });
    expect(free).toMatchObject({ subtotalCents: 6784, discountCents: 6784, taxCents: 0, totalCents: 0 });
    for (const body of [{}, { sendAt: tomorrow() }]) {
      const before = await invoiceSnapshot(db(), free.invoiceId);
      const res = await api.send(free.invoiceId, body);
      expect(res.statusCode, res.body).toBe(409);
      expect(errorOf(res)).toEqual({
        code: 'CONFLICT',
        message: `Invoice ${free.number} totals $0.00: there is nothing to collect. Add an item or lower the discount.`,
      });
      expect(await invoiceSnapshot(db(), free.invoiceId)).toEqual(before);
    }
    expect((await invoiceRow(db(), free.invoiceId)).state).toBe('Draft');
  });

  it('an invoice whose due date has passed is refused (400, dueDate); once its terms are changed it goes', async () => {
    const payer = await newPayer();
    const late = await api.create(payer.id, { issueDate: dayIn(-10), terms: 'net7' });
    expect(late.dueDate).toBe(dayIn(-3));
    for (const body of [{}, { sendAt: tomorrow() }]) {
      const before = await invoiceSnapshot(db(), late.invoiceId);
      const res = await api.send(late.invoiceId, body);
      expect(res.statusCode, res.body).toBe(400);
      expect(errorOf(res).code).toBe('VALIDATION_FAILED');
      expect(Object.keys(errorOf(res).fields ?? {})).toEqual(['dueDate']);
      expect(await invoiceSnapshot(db(), late.invoiceId)).toEqual(before);
    }
    await ok(await api.patch(late.invoiceId, invoiceBody(payer.id, { issueDate: dayIn(-10), terms: 'net30' })));
    expect((await ok(await api.send(late.invoiceId))).invoiceState).toBe('Sent');
  });

  it('a deactivated payer is sent nothing: a draft is not sent, a sent invoice is not resent', async () => {
    const payer = await newPayer();
    const draft = await api.create(payer.id);
    const sent = await api.sent(payer.id);
    await setPayerActive(t.app, biz, payer.id, false);

    const before = await invoiceSnapshot(db(), draft.invoiceId);
    const res = await api.send(draft.invoiceId);
    expect(res.statusCode, res.body).toBe(400);
    expect(errorOf(res)).toMatchObject({ code: 'VALIDATION_FAILED', fields: { payerId: 'This payer is deactivated; activate them first.' } });
    expect(await invoiceSnapshot(db(), draft.invoiceId)).toEqual(before);

    const sentBefore = await invoiceSnapshot(db(), sent.invoiceId);
    const again = await api.command(sent.invoiceId, 'resend');
    expect(again.statusCode, again.body).toBe(409);
    expect(errorOf(again).message).toContain('is deactivated');
    expect(await invoiceSnapshot(db(), sent.invoiceId)).toEqual(sentBefore);

    await setPayerActive(t.app, biz, payer.id, true);
    expect((await ok(await api.send(draft.invoiceId))).invoiceState).toBe('Sent');
  });

  it('a send time must be in the future and no later than the due date (400, sendAt); nothing changes', async () => {
    const payer = await newPayer();
    const draft = await api.create(payer.id);
    for (const sendAt of [new Date(Date.now() - 60_000), middayOf(addDays(draft.dueDate, 1))]) {
      const before = await invoiceSnapshot(db(), draft.invoiceId);
      const res = await api.send(draft.invoiceId, { sendAt: sendAt.toISOString() });
      expect(res.statusCode, res.body).toBe(400);
      expect(errorOf(res).code).toBe('VALIDATION_FAILED');
      expect(Object.keys(errorOf(res).fields ?? {})).toEqual(['sendAt']);
      expect(await invoiceSnapshot(db(), draft.invoiceId)).toEqual(before);
    }
    // On its due date is still in time.
    const onDue = await ok(await api.send(draft.invoiceId, { sendAt: middayOf(draft.dueDate).toISOString() }));
    expect(onDue.invoiceState).toBe('Scheduled');
  });

  it('a scheduled invoice given a new send time after its due date is refused as scheduling it was (400, sendAt); nothing changes', async () => {
    const payer = await newPayer();
    const draft = await api.create(payer.id);
    const scheduled = await ok(await api.send(draft.invoiceId, { sendAt: tomorrow() }));
    // A new time within the due date is taken.
    const moved = middayOf(addDays(draft.dueDate, -1)).toISOString();
    expect((await ok(await api.send(draft.invoiceId, { sendAt: moved }))).sendAt).toBe(moved);
    const before = await invoiceSnapshot(db(), scheduled.invoiceId);
    const res = await api.send(scheduled.invoiceId, { sendAt: middayOf(addDays(draft.dueDate, 1)).toISOString() });
    expect(res.statusCode, `a new time after the due date: ${res.body}`).toBe(400);
    expect(Object.keys(errorOf(res).fields ?? {})).toEqual(['sendAt']);
    expect(await invoiceSnapshot(db(), scheduled.invoiceId)).toEqual(before);
  });

  it('a scheduled invoice cannot be edited so that it would go out after its new due date (400); nothing changes', async () => {
    const payer = await newPayer();
    const draft = await api.create(payer.id);
    // To go out in 10 days; due in 30.
    await ok(await api.send(draft.invoiceId, { sendAt: middayOf(dayIn(10)).toISOString() }));
    const before = await invoiceSnapshot(db(), draft.invoiceId);
    // Net 7 from today: due in 7 days, before the send time.
    const res = await api.patch(draft.invoiceId, invoiceBody(payer.id, { terms: 'net7' }));
    expect(res.statusCode, `due before it goes: ${res.body}`).toBe(400);
    expect(errorOf(res).code).toBe('VALIDATION_FAILED');
    expect(await invoiceSnapshot(db(), draft.invoiceId)).toEqual(before);
  });

  it('editing an invoice’s request in the payment history is refused, naming the invoice; nothing changes', async () => {
    const history = requestsApi(t.app, biz);
    for (const state of ['Scheduled', 'Sent'] as const) {
      const s = await driveTo(state);
      const before = await invoiceSnapshot(db(), s.id);
      const res = await history.patch(s.requestId!, history.body(s.payerId, { amountCents: 1, mode: 'schedule', sendAt: tomorrow() }));
      expect(res.statusCode, `${state}: ${res.body}`).toBe(409);
      expect(errorOf(res)).toEqual({
        code: 'CONFLICT',
        message: `This request collects invoice ${s.number}: edit the invoice instead, so the invoice and its request stay the same.`,
      });
      expect(await invoiceSnapshot(db(), s.id)).toEqual(before);
    }
  });
});

describe('reminders', () => {
  it('an open invoice due soon is reminded with its PDF; a paid or withdrawn one is not', async () => {
    const rem = await approvedBusiness(t.app, db(), 'owner@invoice-reminders.example');
    await configureBusiness(t.app, rem, { autoReminders: true, reminderSchedule: [-3, 0, 3] });
    const remApi = invoicesApi(t.app, rem);
    // Due in 7 days: the "3 days before" step comes on day 4.
    const sentTo = async () => {
      const payer = await newPayer(rem);
      return remApi.sent(payer.id, { terms: 'net7' });
    };
    const open = await sentTo();
    const paid = await sentTo();
    const withdrawn = await sentTo();
    await forceStateForTest(db(), paid.transactionId!, 'Paid');
    await ok(await remApi.command(withdrawn.invoiceId, 'withdraw'));
    expect((await remApi.detail(paid.invoiceId)).invoiceState).toBe('Paid');

    // Day 3: no step is due yet.
    await sendReminders(ctx(), middayOf(dayIn(3)));
    expect(await invoiceEmails(db(), open.transactionId!)).toHaveLength(1);

    await sendReminders(ctx(), middayOf(dayIn(4)));
    const emails = await invoiceEmails(db(), open.transactionId!);
    expect(emails).toHaveLength(2);
    const reminder = emails[1]!;
    expect(reminder.subject.startsWith(`Reminder: invoice ${open.number} from Biz owner@invoice-reminders.example`), reminder.subject).toBe(true);
    expect(reminder.attachments).toHaveLength(1);
    expect(reminder.attachments[0]).toMatchObject({ filename: `${open.number}.pdf`, contentType: 'application/pdf' });
    expect(pdfText(Buffer.from(reminder.attachments[0]!.content, 'base64'))).toContain(open.number);
    // The reminder carries the link already sent.
    expect(/\/pay\/([\w-]+)/.exec(reminder.text)?.[1]).toBe(/\/pay\/([\w-]+)/.exec(emails[0]!.text)?.[1]);
    expect((await remApi.detail(open.invoiceId)).timeline.at(-1)).toMatchObject({ event: 'reminder', actor: 'System' });

    for (const quiet of [paid, withdrawn]) {
      const mails = await invoiceEmails(db(), quiet.transactionId!);
      expect(
        mails.map((m) => m.subject.startsWith('Reminder')),
        quiet.invoiceState,
      ).toEqual([false]);
    }
    // Once a step is sent it is not sent again.
    await sendReminders(ctx(), middayOf(dayIn(5)));
    expect(await invoiceEmails(db(), open.transactionId!)).toHaveLength(2);
  });
});
