// PostgreSQL pass: money reserved at approval and returned by the send job, in the ledger.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PayoutDetail } from '@tay/contract';
import { bankAccountNumberBox } from '../../src/domain/businesses/add-bank-account';
import { getBalances } from '../../src/domain/ledger/get-balances';
import { sendApprovedPayout } from '../../src/domain/payouts/send-payout';
import { newId } from '../../src/lib/ids';
import { authSecretsOf } from '../../src/lib/secret-box';
import { approvedBusiness, type ApprovedBusiness } from '../support/approved-business';
import { assertLedgerInvariants } from '../support/ledger';
import { addMember, enablePayouts, fund, insertPayoutBatch, insertReceiver } from '../support/payouts';
import { call } from '../support/requests';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * Payouts' approval rules (ADR 035): a receiver disabled after submission is neither approved nor
 * sent; a payout waiting for a second approver is never approved by whoever created or submitted
 * it, whatever the setting says later; batches of another business are not found; and PAY-
 * numbers count each business's payouts only.
 */

let t: TestApp;
const db = () => t.runtime.database.db;
const FEE = 25;

beforeAll(async () => {
  // Many people sign up here: the per-address sign-up limit is raised so none is refused.
  t = await createTestApp({ SANDBOX_AUTO_APPROVE: 'false', AUTH_IP_RATE_LIMIT_SCALE: '100' });
});
afterAll(async () => t?.close());
afterEach(async () => {
  const balances = await assertLedgerInvariants(db());
  for (const [, b] of balances) expect(b.available).toBeGreaterThanOrEqual(0);
});

const base = (b: ApprovedBusiness) => `/api/businesses/${b.businessId}/payouts`;
const available = async (b: ApprovedBusiness) => (await getBalances(db(), b.businessId)).availableCents;

interface Team {
  b: ApprovedBusiness;
  admin: string;
  member: string;
}

/** A business with payouts on, an admin and a member besides the owner, and money to pay with. */
async function team(name: string, approvalRequired: boolean): Promise<Team> {
  const b = await approvedBusiness(t.app, db(), `owner@${name}.example`);
  await enablePayouts(db(), b.businessId);
  const admin = await addMember(t.app, db(), b.businessId, `admin@${name}.example`, 'admin');
  const member = await addMember(t.app, db(), b.businessId, `member@${name}.example`, 'member');
  await setApproval(b, approvalRequired);
  await fund(db(), b.businessId, 10_000);
  return { b, admin, member };
}

async function setApproval(b: ApprovedBusiness, required: boolean, token = b.token) {
  const res = await call(t.app, 'PATCH', `/api/businesses/${b.businessId}/payout-settings`, token, { approvalRequired: required });
  expect(res.statusCode, res.body).toBe(200);
}

async function create(b: ApprovedBusiness, token: string, body: Record<string, unknown>): Promise<PayoutDetail> {
  const res = await call(t.app, 'POST', base(b), token, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as PayoutDetail;
}

const approve = (b: ApprovedBusiness, token: string, payoutId: string, key = newId('key')) =>
  call(t.app, 'POST', `${base(b)}/${payoutId}/approve`, token, undefined, { 'idempotency-key': key });

const approveBatch = (b: ApprovedBusiness, token: string, batchId: string) =>
  call(t.app, 'POST', `${base(b)}/approve-batch`, token, { batchId }, { 'idempotency-key': newId('key') });

async function row(payoutId: string) {
  return db().selectFrom('payouts').select(['state', 'failure_reason', 'number']).where('id', '=', payoutId).executeTakeFirstOrThrow();
}

/** A Draft made by `creator`, put in `batchId`, then submitted by `submitter`. */
async function batchPayout(b: ApprovedBusiness, batchId: string, receiverId: string, creator: string, submitter: string): Promise<string> {
  const made = await create(b, creator, { receiverId, amountCents: 500 });
  await db().updateTable('payouts').set({ batch_id: batchId }).where('id', '=', made.payoutId).execute();
  const submitted = await call(t.app, 'POST', `${base(b)}/${made.payoutId}/submit`, submitter);
  expect(submitted.statusCode, submitted.body).toBe(200);
  return made.payoutId;
}

describe('a receiver disabled after the payout was submitted', () => {
  it('is refused at approval (409, naming them), nothing reserved; enabled again, the payout is approved', async () => {
    const { b, admin, member } = await team('payout-disabled-approve', true);
    const receiverId = await insertReceiver(t.runtime, b.businessId, { firstName: 'Rita', lastName: 'Gone' });
    const made = await create(b, member, { receiverId, amountCents: 1_000, submit: true });
    expect(made.state).toBe('Submitted');

    const disabled = await call(t.app, 'POST', `/api/businesses/${b.businessId}/receivers/${receiverId}/disable`, b.token);
    expect(disabled.statusCode, disabled.body).toBe(200);
    const refused = await approve(b, admin, made.payoutId);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().errorDetails.message).toBe('Rita Gone is disabled; enable them first, or reject this payout.');
    expect((await row(made.payoutId)).state).toBe('Submitted');
    expect(await available(b)).toBe(10_000);

    await call(t.app, 'POST', `/api/businesses/${b.businessId}/receivers/${receiverId}/enable`, b.token);
    const approved = await approve(b, admin, made.payoutId);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(await available(b)).toBe(10_000 - 1_000 - FEE);
  });

  it('refuses a whole batch (409) when one of its receivers was disabled, reserving nothing', async () => {
    const { b, admin, member } = await team('payout-disabled-batch', true);
    const kept = await insertReceiver(t.runtime, b.businessId, { firstName: 'Kai', lastName: 'Kept' });
    const gone = await insertReceiver(t.runtime, b.businessId, { firstName: 'Dee', lastName: 'Parted' });
    const batchId = await insertPayoutBatch(db(), b.businessId);
    const ids = [await batchPayout(b, batchId, kept, member, member), await batchPayout(b, batchId, gone, member, member)];
    await db().updateTable('receivers').set({ status: 'Disabled' }).where('id', '=', gone).execute();

    const refused = await approveBatch(b, admin, batchId);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().errorDetails.message).toBe('Dee Parted is disabled; enable them first, or reject this batch.');
    for (const id of ids) expect((await row(id)).state).toBe('Submitted');
    expect(await available(b)).toBe(10_000);
  });

  it('disabled after approval: the send job fails the payout with that reason and the money goes back', async () => {
    const { b } = await team('payout-disabled-send', false);
    const receiverId = await insertReceiver(t.runtime, b.businessId, { firstName: 'Lou', lastName: 'Late' });
    // Paid tomorrow, so its job waits and the send runs here.
    const tomorrow = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const made = await create(b, b.token, { receiverId, amountCents: 2_000, payOn: tomorrow, submit: true });
    expect(made.state).toBe('Approved');
    expect(await available(b)).toBe(10_000 - 2_000 - FEE);
    await call(t.app, 'POST', `/api/businesses/${b.businessId}/receivers/${receiverId}/disable`, b.token);

    const deps = { db: db(), processor: t.runtime.processor, accountBox: bankAccountNumberBox(authSecretsOf(t.runtime.config)) };
    expect(await sendApprovedPayout(deps, { businessId: b.businessId, payoutId: made.payoutId })).toBe('failed');
    const after = await row(made.payoutId);
    expect(after.state).toBe('Error');
    expect(after.failure_reason).toMatch(/^Lou Late was disabled after this payout was approved, so it was not sent/);
    expect(await getBalances(db(), b.businessId)).toMatchObject({ availableCents: 10_000, payoutsInFlightCents: 0 });
    expect(await db().selectFrom('sandbox_processor_payouts').select('id').where('idempotency_key', '=', made.payoutId).execute()).toHaveLength(0);
    expect(await sendApprovedPayout(deps, { businessId: b.businessId, payoutId: made.payoutId })).toBe('already-done');
  });
});

describe('the second approver', () => {
  it('refuses the creator (403) when someone else submitted their Draft; another admin approves', async () => {
    const { b, admin, member } = await team('payout-creator', true);
    const receiverId = await insertReceiver(t.runtime, b.businessId);
    const made = await create(b, b.token, { receiverId, amountCents: 1_000 });
    expect((await call(t.app, 'POST', `${base(b)}/${made.payoutId}/submit`, member)).json().data.state).toBe('Submitted');

    const own = await approve(b, b.token, made.payoutId);
    expect(own.statusCode, own.body).toBe(403);
    expect(own.json().errorDetails.message).toBe('You created this payout; another person must approve it.');
    expect(await available(b)).toBe(10_000);
    expect((await approve(b, admin, made.payoutId)).statusCode).toBe(200);
  });

  it('keeps the rule for a payout submitted under it: turning it off lets neither its submitter nor its creator approve', async () => {
    const { b, admin, member } = await team('payout-rule-kept', true);
    const receiverId = await insertReceiver(t.runtime, b.businessId);
    const submittedByAdmin = await create(b, admin, { receiverId, amountCents: 1_000, submit: true });
    const createdByAdmin = await create(b, admin, { receiverId, amountCents: 700 });
    await call(t.app, 'POST', `${base(b)}/${createdByAdmin.payoutId}/submit`, member);
    await setApproval(b, false, admin);

    const self = await approve(b, admin, submittedByAdmin.payoutId);
    expect(self.statusCode, self.body).toBe(403);
    expect(self.json().errorDetails.message).toMatch(/^You submitted PAY-\d+, so another owner or admin must approve it/);
    const creator = await approve(b, admin, createdByAdmin.payoutId);
    expect(creator.statusCode, creator.body).toBe(403);
    expect(creator.json().errorDetails.message).toBe('You created this payout; another person must approve it.');
    expect(await available(b)).toBe(10_000);
    // Nor may its submitter reject it: another person reviews it.
    const rejected = await call(t.app, 'POST', `${base(b)}/${submittedByAdmin.payoutId}/reject`, admin, { reason: 'Changed my mind' });
    expect(rejected.statusCode, rejected.body).toBe(403);

    expect((await approve(b, b.token, submittedByAdmin.payoutId)).statusCode).toBe(200);
    expect((await approve(b, b.token, createdByAdmin.payoutId)).statusCode).toBe(200);
    // Submitted with the rule off, a payout is approved at once by whoever submits it, as before.
    expect((await create(b, admin, { receiverId, amountCents: 100, submit: true })).state).toBe('Approved');
  });

  it('refuses a batch to whoever created or submitted one of its payouts, even after the rule is turned off', async () => {
    const { b, admin, member } = await team('payout-batch-rule', true);
    const receiverId = await insertReceiver(t.runtime, b.businessId);
    const created = await insertPayoutBatch(db(), b.businessId);
    await batchPayout(b, created, receiverId, admin, member);
    const submitted = await insertPayoutBatch(db(), b.businessId);
    await batchPayout(b, submitted, receiverId, member, admin);
    await setApproval(b, false);

    const a = await approveBatch(b, admin, created);
    expect(a.statusCode, a.body).toBe(403);
    expect(a.json().errorDetails.message).toMatch(/^You created PAY-\d+ in this batch; another person must approve it\.$/);
    const s = await approveBatch(b, admin, submitted);
    expect(s.statusCode, s.body).toBe(403);
    expect(await available(b)).toBe(10_000);
    expect((await approveBatch(b, b.token, created)).statusCode).toBe(200);
    expect((await approveBatch(b, b.token, submitted)).statusCode).toBe(200);
  });
});

describe("a batch's approval", () => {
  it("answers 404 for another business's batch or an unknown one, 409 for one of its own with nothing waiting", async () => {
    const { b, admin } = await team('payout-batch-own', true);
    const other = await team('payout-batch-other', true);
    const receiverId = await insertReceiver(t.runtime, other.b.businessId);
    const theirs = await insertPayoutBatch(db(), other.b.businessId);
    await batchPayout(other.b, theirs, receiverId, other.member, other.member);

    for (const batchId of [theirs, 'bat_unknown']) {
      const approved = await approveBatch(b, admin, batchId);
      expect(approved.statusCode, approved.body).toBe(404);
      const rejected = await call(t.app, 'POST', `${base(b)}/reject-batch`, admin, { batchId, reason: 'No' });
      expect(rejected.statusCode, rejected.body).toBe(404);
    }
    const stillWaiting = await db().selectFrom('payouts').select('state').where('batch_id', '=', theirs).execute();
    expect(stillWaiting.map((p) => p.state)).toEqual(['Submitted']);

    const empty = await insertPayoutBatch(db(), b.businessId);
    const nothing = await approveBatch(b, admin, empty);
    expect(nothing.statusCode).toBe(409);
    expect(nothing.json().errorDetails.message).toBe('This batch has no payouts waiting for approval.');
    expect((await call(t.app, 'POST', `${base(b)}/reject-batch`, admin, { batchId: empty, reason: 'No' })).statusCode).toBe(409);
  });
});

describe('payout numbers', () => {
  it("count each business's payouts only: two businesses each start at PAY-1000", async () => {
    const one = await team('payout-numbers-one', false);
    const two = await team('payout-numbers-two', false);
    const r1 = await insertReceiver(t.runtime, one.b.businessId);
    const r2 = await insertReceiver(t.runtime, two.b.businessId);
    const a = await create(one.b, one.b.token, { receiverId: r1, amountCents: 100 });
    const b = await create(one.b, one.b.token, { receiverId: r1, amountCents: 100 });
    const c = await create(two.b, two.b.token, { receiverId: r2, amountCents: 100 });
    expect([a.reference, b.reference, c.reference]).toEqual(['PAY-1000', 'PAY-1001', 'PAY-1000']);
    const found = await call(t.app, 'GET', `${base(two.b)}?search=PAY-1000`, two.b.token);
    expect(found.json().data.items.map((p: { payoutId: string }) => p.payoutId)).toEqual([c.payoutId]);

    // A refused submit keeps nothing, not even its number.
    const short = await call(t.app, 'POST', base(two.b), two.b.token, { receiverId: r2, amountCents: 1_000_000, submit: true });
    expect(short.statusCode).toBe(409);
    expect((await create(two.b, two.b.token, { receiverId: r2, amountCents: 100 })).reference).toBe('PAY-1001');
  });

  it('gives concurrent payouts of one business distinct numbers, with no gap', async () => {
    const { b } = await team('payout-numbers-race', false);
    const receiverId = await insertReceiver(t.runtime, b.businessId);
    const answers = await Promise.all(Array.from({ length: 20 }, () => call(t.app, 'POST', base(b), b.token, { receiverId, amountCents: 100, submit: true })));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(201));
    const numbers = answers.map((a) => (a.json().data as PayoutDetail).number).sort((x, y) => x - y);
    expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => 1000 + i));
  });
});
