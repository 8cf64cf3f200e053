import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestState } from '@tay/contract';
import { expireRequests } from '../../src/domain/payment-requests/background';
import { approvedBusiness, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { errorOf, get } from '../support/identity';
import { dayIn, forceStateForTest, middayOf, outbox, requestContext, requestsApi, snapshot } from '../support/requests';
import { createTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
let biz: ApprovedBusiness;
const db = () => t.runtime.database.db;
let api: ReturnType<typeof requestsApi>;

beforeAll(async () => {
  t = await createTestApp();
  biz = await approvedBusiness(t.app, db(), 'owner@transitions.example');
  api = requestsApi(t.app, biz);
});
afterAll(async () => t?.close());

const STATES: RequestState[] = [
  'Draft',
  'Pending',
  'Sent',
  'Resent',
  'Accepted',
  'Paid',
  'PartiallyPaid',
  'Error',
  'Rejected',
  'Expired',
  'Withdrawn',
  'Cancelled',
];
type Action = 'send' | 'resend' | 'withdraw' | 'cancel' | 'edit' | 'delete' | 'decline';
const ACTIONS: Action[] = ['send', 'resend', 'withdraw', 'cancel', 'edit', 'delete', 'decline'];

/**
 * docs/product.md §4, written out here rather than read from the contract: where each business command and
 * the payer's decline is allowed, and what it leads to.
 */
const ALLOWED: Record<Action, Partial<Record<RequestState, RequestState | 'deleted'>>> = {
  send: { Draft: 'Sent' },
  resend: { Sent: 'Resent', Resent: 'Resent', Expired: 'Resent', Rejected: 'Resent' },
  withdraw: { Sent: 'Withdrawn', Resent: 'Withdrawn' },
  cancel: { Pending: 'Cancelled' },
  edit: { Draft: 'Draft', Pending: 'Pending' },
  delete: { Draft: 'deleted' },
  decline: { Sent: 'Rejected', Resent: 'Rejected' },
};

const PAST: Record<string, string> = { send: 'sent', resend: 'resent', withdraw: 'withdrawn', cancel: 'cancelled' };

interface Subject {
  id: string;
  state: RequestState;
  payerId: string;
  email: string;
  /** The payer's link, when the request was ever e-mailed. */
  link: string | null;
}

let serial = 0;

async function latestLink(email: string): Promise<string | null> {
  const mail = await outbox(t.app, email);
  return mail[0]?.text.match(/\/pay\/([\w-]+)/)?.[1] ?? null;
}

/** A request in `state`, reached through the API and the jobs where that is practical. */
async function driveTo(state: RequestState): Promise<Subject> {
  serial += 1;
  const email = `payer${serial}@transitions.example`;
  const payerId = await insertPayer(db(), biz.businessId, { email, displayName: `Payer ${serial}` });
  const schedule = { mode: 'schedule', sendAt: new Date(Date.now() + 86_400_000).toISOString() };
  let id: string;
  switch (state) {
    case 'Draft':
      id = (await api.create(payerId)).transactionId;
      break;
    case 'Pending':
    case 'Cancelled':
      id = (await api.create(payerId, schedule)).transactionId;
      if (state === 'Cancelled') expect((await api.command(id, 'cancel')).statusCode).toBe(200);
      break;
    case 'Expired':
      // Due and expiring tomorrow; the expiry job run the day after.
      id = (await api.create(payerId, { mode: 'send', dueDate: dayIn(1), expiresOn: dayIn(1) })).transactionId;
      await expireRequests(requestContext(t.runtime), middayOf(dayIn(2)));
      break;
    default: {
      id = (await api.create(payerId, { mode: 'send' })).transactionId;
      if (state === 'Resent') expect((await api.command(id, 'resend')).statusCode).toBe(200);
      if (state === 'Withdrawn') expect((await api.command(id, 'withdraw')).statusCode).toBe(200);
      if (state === 'Rejected') expect((await decline(await latestLink(email))).statusCode).toBe(200);
      // Reached through the processor and its webhooks elsewhere; set directly here.
      if (state === 'Accepted' || state === 'Paid' || state === 'PartiallyPaid' || state === 'Error') await forceStateForTest(db(), id, state);
    }
  }
  expect((await api.detail(id)).transactionState, `driving to ${state}`).toBe(state);
  return { id, state, payerId, email, link: await latestLink(email) };
}

function decline(link: string | null) {
  if (!link) throw new Error('never e-mailed: there is no link to decline with');
  return t.app.inject({
    method: 'POST',
    url: `/api/public/pay/${link}/decline`,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ reason: 'Not mine' }),
  });
}

function perform(action: Action, subject: Subject) {
  switch (action) {
    case 'edit':
      // A scheduled request keeps a schedule; anything else is saved as a draft.
      return api.patch(
        subject.id,
        api.body(
          subject.payerId,
          subject.state === 'Pending'
            ? { amountCents: 9_900, mode: 'schedule', sendAt: new Date(Date.now() + 7_200_000).toISOString() }
            : { amountCents: 9_900 },
        ),
      );
    case 'delete':
      return api.remove(subject.id);
    case 'decline':
      return decline(subject.link);
    default:
      return api.command(subject.id, action);
  }
}

/** What the API must say when `action` is refused on a request in `state`. */
function refusal(action: Action, state: RequestState): string {
  switch (action) {
    case 'edit':
      return `A request that is ${state} cannot be edited. Copy it to make a new one.`;
    case 'delete':
      return `Only drafts can be deleted; this request is ${state}. ${state === 'Pending' ? 'Cancel it instead.' : state === 'Sent' || state === 'Resent' ? 'Withdraw it instead.' : 'It stays on record.'}`;
    case 'decline':
      return (
        {
          Accepted: 'A payment for this request is being processed. You will receive a receipt by e-mail.',
          Paid: 'This request is paid in full. Thank you!',
          Expired: `This request expired. Ask Biz ${biz.email} to send it again.`,
          Withdrawn: `Biz ${biz.email} withdrew this request; there is nothing to pay.`,
          Rejected: 'You declined this request.',
          PartiallyPaid: `You have already paid part of this request, so it can no longer be declined. Pay the rest, or contact Biz ${biz.email}.`,
          Error: `A payment was already tried for this request, so it can no longer be declined. You can pay again, or contact Biz ${biz.email}.`,
        }[state as string] ?? 'This request can no longer be declined.'
      );
    default:
      return `A request that is ${state} cannot be ${PAST[action]}.`;
  }
}

describe('every business command and the payer’s decline, in every state', () => {
  it.each(STATES)('%s: each refused move is 409 with a sentence and changes nothing', async (state) => {
    const subject = await driveTo(state);
    const refused = ACTIONS.filter((action) => !ALLOWED[action][state]);
    for (const action of refused) {
      const before = await snapshot(db(), subject.id);
      if (action === 'decline' && !subject.link) {
        // Never e-mailed (Draft, Pending, or cancelled before it went out): the payer has no link at all.
        expect(before.mail, `${state}: no e-mail`).toBe(0);
        continue;
      }
      const res = await perform(action, subject);
      expect(res.statusCode, `${action} on ${state}: ${res.body}`).toBe(409);
      expect(errorOf(res)).toEqual({ code: 'CONFLICT', message: refusal(action, state) });
      expect(await snapshot(db(), subject.id), `${action} on ${state} changed the request`).toEqual(before);
    }
  });

  const allowed = ACTIONS.flatMap((action) => Object.entries(ALLOWED[action]).map(([from, to]) => [action, from as RequestState, to] as const));

  it.each(allowed)('%s is allowed on %s → %s', async (action, from, to) => {
    const subject = await driveTo(from);
    const before = await snapshot(db(), subject.id);
    const res = await perform(action, subject);
    expect(res.statusCode, res.body).toBeLessThan(300);
    if (to === 'deleted') {
      expect((await get(t.app, `${api.base}/${subject.id}`, biz.token)).statusCode).toBe(404);
      return;
    }
    const detail = await api.detail(subject.id);
    expect(detail.transactionState).toBe(to);
    const after = await snapshot(db(), subject.id);
    // Send and resend e-mail the payer; nothing else does.
    expect(after.mail - before.mail).toBe(action === 'send' || action === 'resend' ? 1 : 0);
    if (action === 'edit') expect(after.row!.amount_cents).toBe(9_900);
    if (action === 'decline')
      expect(detail.timeline.at(-1)).toMatchObject({ event: 'payerDeclines', fromState: from, toState: 'Rejected', detail: 'Not mine' });
  });
});
