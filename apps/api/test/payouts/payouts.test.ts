// PostgreSQL pass: a payout's balance check and ledger in one transaction.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { payoutEndpoints, type PayoutDetail } from '@tay/contract';
import { bankAccountNumberBox } from '../../src/domain/businesses/add-bank-account';
import { getBalances } from '../../src/domain/ledger/get-balances';
import { applyPayoutEvent, sendApprovedPayout } from '../../src/domain/payouts/send-payout';
import { authSecretsOf } from '../../src/lib/secret-box';
import { approvedBusiness, type ApprovedBusiness } from '../support/approved-business';
import { assertLedgerInvariants } from '../support/ledger';
import { addMember, enablePayouts, fund, insertPayoutBatch, insertReceiver } from '../support/payouts';
import { call } from '../support/requests';
import { createTestApp, eventually, type TestApp } from '../support/test-app';

/** Payouts (issue 20, ADR 035): a business pays its receivers from its available balance. */

let t: TestApp;
let biz: ApprovedBusiness;
let other: ApprovedBusiness;
const db = () => t.runtime.database.db;
const FEE = 25;

beforeAll(async () => {
  t = await createTestApp({ SANDBOX_SETTLEMENT_SECONDS: '1', SANDBOX_AUTO_APPROVE: 'false' }, { listen: true });
  biz = await approvedBusiness(t.app, db(), 'owner@payouts.example');
  other = await approvedBusiness(t.app, db(), 'owner@other-payouts.example');
  await enablePayouts(db(), biz.businessId);
  await enablePayouts(db(), other.businessId);
});
afterAll(async () => t?.close());
afterEach(async () => {
  const balances = await assertLedgerInvariants(db());
  for (const [, b] of balances) expect(b.available).toBeGreaterThanOrEqual(0);
});

const base = (b = biz) => `/api/businesses/${b.businessId}/payouts`;
const available = async (b = biz) => (await getBalances(db(), b.businessId)).availableCents;

async function create(body: Record<string, unknown>, b = biz, headers: Record<string, string> = {}) {
  return call(t.app, 'POST', base(b), b.token, body, headers);
}

async function draft(receiverId: string, amountCents = 1_000, b = biz): Promise<PayoutDetail> {
  const res = await create({ receiverId, amountCents, memo: 'Thanks' }, b);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as PayoutDetail;
}

async function setApproval(required: boolean, b = biz) {
  const res = await call(t.app, 'PATCH', `/api/businesses/${b.businessId}/payout-settings`, b.token, { approvalRequired: required });
  expect(res.statusCode, res.body).toBe(200);
}

async function state(payoutId: string) {
  return (await db().selectFrom('payouts').select(['state', 'failure_reason']).where('id', '=', payoutId).executeTakeFirstOrThrow()).state;
}

describe('drafts', () => {
  it('creates, edits, reads, lists, exports and deletes a Draft; only a Draft changes', async () => {
    const receiverId = await insertReceiver(t.runtime, biz.businessId, { firstName: 'Dana', lastName: 'Draft', email: 'dana@receivers.example' });
    const made = await draft(receiverId, 1_234);
    expect(made).toMatchObject({ state: 'Draft', amountCents: 1_234, feeCents: 0, receiverName: 'Dana Draft', actions: ['Edit', 'Submit', 'Cancel', 'Copy'] });
    expect(made.receiver.accountMasked).toBe('•••• 6789');
    expect(made.reference).toMatch(/^PAY-\d+$/);

    const edited = await call(t.app, 'PATCH', `${base()}/${made.payoutId}`, biz.token, { receiverId, amountCents: 2_000, memo: 'More' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().data).toMatchObject({ amountCents: 2_000, memo: 'More' });

    const got = await call(t.app, 'GET', `${base()}/${made.payoutId}`, biz.token);
    expect(got.json().data.timeline.map((e: { event: string }) => e.event)).toEqual(['create', 'edit']);

    const listed = await call(t.app, 'GET', `${base()}?search=dana&state=Draft`, biz.token);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().data).toMatchObject({ total: 1, totals: { count: 1, amountCents: 2_000 } });
    const byNumber = await call(t.app, 'GET', `${base()}?search=${made.reference}`, biz.token);
    expect(byNumber.json().data.items.map((p: { payoutId: string }) => p.payoutId)).toEqual([made.payoutId]);

    const csv = await call(t.app, 'GET', `${base()}/export?search=dana`, biz.token);
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('Dana Draft');
    expect(csv.body).toContain('$20.00');

    const removed = await call(t.app, 'DELETE', `${base()}/${made.payoutId}`, biz.token);
    expect(removed.statusCode).toBe(204);
    expect((await call(t.app, 'GET', `${base()}/${made.payoutId}`, biz.token)).statusCode).toBe(404);
    const events = await db()
      .selectFrom('business_events')
      .select('action')
      .where('business_id', '=', biz.businessId)
      .where('action', 'like', 'payout.%')
      .execute();
    expect(events.map((e) => e.action)).toEqual(expect.arrayContaining(['payout.created', 'payout.updated', 'payout.deleted']));
  });

  it('refuses an unverified or disabled receiver, naming receiverId, and bad amounts', async () => {
    const unverified = await insertReceiver(t.runtime, biz.businessId, { accountNumber: null, firstName: 'Una' });
    const disabled = await insertReceiver(t.runtime, biz.businessId, { status: 'Disabled', firstName: 'Dis' });
    const a = await create({ receiverId: unverified, amountCents: 100 });
    expect(a.statusCode).toBe(400);
    expect(a.json().errorDetails.fields.receiverId).toMatch(/not entered their bank account/);
    const b = await create({ receiverId: disabled, amountCents: 100 });
    expect(b.json().errorDetails.fields.receiverId).toMatch(/disabled/);
    const ok = await insertReceiver(t.runtime, biz.businessId);
    expect((await create({ receiverId: ok, amountCents: 0 })).statusCode).toBe(400);
    expect((await create({ receiverId: ok, amountCents: 1_000_000_001 })).statusCode).toBe(400);
    expect((await create({ receiverId: ok, amountCents: 1_000_000_000 })).statusCode).toBe(201);
    expect((await create({ receiverId: ok, amountCents: 1 })).statusCode).toBe(201);
  });

  it('cancels a Draft; a cancelled payout neither changes nor submits (409)', async () => {
    const receiverId = await insertReceiver(t.runtime, biz.businessId);
    const made = await draft(receiverId);
    const cancelled = await call(t.app, 'POST', `${base()}/${made.payoutId}/cancel`, biz.token);
    expect(cancelled.json().data.state).toBe('Cancelled');
    expect((await call(t.app, 'POST', `${base()}/${made.payoutId}/submit`, biz.token)).statusCode).toBe(409);
    expect((await call(t.app, 'PATCH', `${base()}/${made.payoutId}`, biz.token, { receiverId, amountCents: 5 })).statusCode).toBe(409);
    expect((await call(t.app, 'DELETE', `${base()}/${made.payoutId}`, biz.token)).statusCode).toBe(409);
    expect((await call(t.app, 'POST', `${base()}/${made.payoutId}/cancel`, biz.token)).statusCode).toBe(409);
  });
});

describe('access', () => {
  it('answers 403 PAYOUTS_NOT_ENABLED on every payouts endpoint while payouts are off', async () => {
    const off = await approvedBusiness(t.app, db(), 'owner@payouts-off.example');
    for (const endpoint of Object.values(payoutEndpoints)) {
      const url = endpoint.path.replace(':id', off.businessId).replace(':payoutId', 'pout_x');
      const body = endpoint.method === 'GET' || endpoint.method === 'DELETE' ? undefined : {};
      const res = await call(t.app, endpoint.method, url, off.token, body);
      expect(res.statusCode, `${endpoint.method} ${endpoint.path}`).toBe(403);
      expect(res.json().errorDetails.code).toBe('PAYOUTS_NOT_ENABLED');
    }
  });

  it("keeps each business's payouts its own (404)", async () => {
    const receiverId = await insertReceiver(t.runtime, biz.businessId);
    const made = await draft(receiverId);
    expect((await call(t.app, 'GET', `${base(other)}/${made.payoutId}`, other.token)).statusCode).toBe(404);
    expect((await call(t.app, 'POST', `${base(other)}/${made.payoutId}/submit`, other.token)).statusCode).toBe(404);
    expect((await call(t.app, 'GET', `${base(biz)}/${made.payoutId}`, other.token)).statusCode).toBe(404);
    // Another business's receiver cannot be paid either.
    expect((await create({ receiverId, amountCents: 100 }, other)).statusCode).toBe(400);
  });

  it('lets a viewer read but not create; a member cannot approve', async () => {
    const viewer = await addMember(t.app, db(), biz.businessId, 'viewer@payouts.example', 'viewer');
    expect((await call(t.app, 'GET', base(), viewer)).statusCode).toBe(200);
    expect((await call(t.app, 'POST', base(), viewer, { receiverId: 'x', amountCents: 1 })).statusCode).toBe(403);
    const member = await addMember(t.app, db(), biz.businessId, 'member@payouts.example', 'member');
    expect((await call(t.app, 'POST', `${base()}/pout_x/approve`, member)).statusCode).toBe(403);
  });
});

describe('approval and the ledger', () => {
  it('submits and approves at once by default, reserving amount + fee; refuses naming the shortfall', async () => {
    const b = await approvedBusiness(t.app, db(), 'owner@payouts-submit.example');
    await enablePayouts(db(), b.businessId);
    const receiverId = await insertReceiver(t.runtime, b.businessId);
    await fund(db(), b.businessId, 10_000);
    const first = await draft(receiverId, 9_000, b);
    const short = await draft(receiverId, 1_000, b);
    const sent = await call(t.app, 'POST', `${base(b)}/${first.payoutId}/submit`, b.token);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().data).toMatchObject({ state: 'Approved', feeCents: FEE, approvedBy: b.email, submittedBy: b.email });
    const balances = await getBalances(db(), b.businessId);
    expect(balances.availableCents).toBe(10_000 - 9_000 - FEE);
    expect(balances.payoutsInFlightCents).toBe(9_000 + FEE);

    const refused = await call(t.app, 'POST', `${base(b)}/${short.payoutId}/submit`, b.token);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().errorDetails).toMatchObject({
      code: 'INSUFFICIENT_BALANCE',
      message: 'Approving needs $0.50 more than the available balance of $9.75.',
    });
    expect(await state(short.payoutId)).toBe('Draft');
  });

  it('with a second approver required: the submitter cannot approve, another admin can; reject needs a reason', async () => {
    const b = await approvedBusiness(t.app, db(), 'owner@payouts-approval.example');
    await enablePayouts(db(), b.businessId);
    const admin = await addMember(t.app, db(), b.businessId, 'admin@payouts-approval.example', 'admin');
    await setApproval(true, b);
    const receiverId = await insertReceiver(t.runtime, b.businessId);
    await fund(db(), b.businessId, 5_000);
    const made = await draft(receiverId, 1_000, b);
    const submitted = await call(t.app, 'POST', `${base(b)}/${made.payoutId}/submit`, b.token);
    expect(submitted.json().data).toMatchObject({ state: 'Submitted', actions: ['Approve', 'Reject', 'Cancel', 'Copy'] });
    expect(await available(b)).toBe(5_000);

    const self = await call(t.app, 'POST', `${base(b)}/${made.payoutId}/approve`, b.token);
    expect(self.statusCode).toBe(403);
    expect(self.json().errorDetails.message).toMatch(/another owner or admin must approve it/);
    const approved = await call(t.app, 'POST', `${base(b)}/${made.payoutId}/approve`, admin, undefined, { 'idempotency-key': 'k-approve-1' });
    expect(approved.statusCode, approved.body).toBe(200);
    const replayed = await call(t.app, 'POST', `${base(b)}/${made.payoutId}/approve`, admin, undefined, { 'idempotency-key': 'k-approve-1' });
    expect(replayed.statusCode).toBe(200);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(approved.json().data).toMatchObject({ state: 'Approved', approvedBy: 'admin@payouts-approval.example' });
    expect(await available(b)).toBe(5_000 - 1_000 - FEE);
    expect((await call(t.app, 'POST', `${base(b)}/${made.payoutId}/approve`, admin)).statusCode).toBe(409);

    const second = await draft(receiverId, 500, b);
    await call(t.app, 'POST', `${base(b)}/${second.payoutId}/submit`, b.token);
    expect((await call(t.app, 'POST', `${base(b)}/${second.payoutId}/reject`, admin, {})).statusCode).toBe(400);
    expect((await call(t.app, 'POST', `${base(b)}/${second.payoutId}/reject`, admin, { reason: 'x'.repeat(501) })).statusCode).toBe(400);
    const rejected = await call(t.app, 'POST', `${base(b)}/${second.payoutId}/reject`, admin, { reason: 'Wrong amount' });
    expect(rejected.json().data).toMatchObject({ state: 'Rejected', rejectReason: 'Wrong amount' });
    expect(rejected.json().data.timeline.at(-1)).toMatchObject({ event: 'reject', detail: 'Wrong amount' });
    expect((await call(t.app, 'POST', `${base(b)}/${second.payoutId}/cancel`, b.token)).statusCode).toBe(409);

    const third = await draft(receiverId, 500, b);
    await call(t.app, 'POST', `${base(b)}/${third.payoutId}/submit`, b.token);
    const cancelled = await call(t.app, 'POST', `${base(b)}/${third.payoutId}/cancel`, b.token);
    expect(cancelled.json().data.state).toBe('Cancelled');

    const settings = await call(t.app, 'GET', `/api/businesses/${b.businessId}/payout-settings`, admin);
    expect(settings.json().data).toEqual({ approvalRequired: true, feeCents: FEE });
    const audit = await db().selectFrom('business_events').select('action').where('business_id', '=', b.businessId).execute();
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining(['payout_settings.updated', 'payout.submitted', 'payout.approved', 'payout.rejected', 'payout.cancelled']),
    );
  });

  it('approves exactly as many of 50 concurrent approvals as the balance covers', async () => {
    const b = await approvedBusiness(t.app, db(), 'owner@payouts-race.example');
    await enablePayouts(db(), b.businessId);
    const admin = await addMember(t.app, db(), b.businessId, 'admin@payouts-race.example', 'admin');
    await setApproval(true, b);
    const receiverId = await insertReceiver(t.runtime, b.businessId);
    await fund(db(), b.businessId, 10 * (1_000 + FEE));
    const ids: string[] = [];
    for (let i = 0; i < 50; i++) {
      const made = await create({ receiverId, amountCents: 1_000, submit: true }, b);
      expect(made.statusCode, made.body).toBe(201);
      ids.push(made.json().data.payoutId);
    }
    const answers = await Promise.all(ids.map((id) => call(t.app, 'POST', `${base(b)}/${id}/approve`, admin)));
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 409)).toHaveLength(40);
    expect(answers.filter((a) => a.statusCode === 409).every((a) => a.json().errorDetails.code === 'INSUFFICIENT_BALANCE')).toBe(true);
    const balances = await getBalances(db(), b.businessId);
    expect(balances.availableCents).toBe(0);
    expect(balances.payoutsInFlightCents).toBe(10 * (1_000 + FEE));
    await assertLedgerInvariants(db());
  });

  it('approves or rejects a batch all or none', async () => {
    const b = await approvedBusiness(t.app, db(), 'owner@payouts-batch.example');
    await enablePayouts(db(), b.businessId);
    const admin = await addMember(t.app, db(), b.businessId, 'admin@payouts-batch.example', 'admin');
    await setApproval(true, b);
    const receiverId = await insertReceiver(t.runtime, b.businessId);
    await fund(db(), b.businessId, 2_000);
    const batchId = await insertPayoutBatch(db(), b.businessId);
    for (const amount of [800, 800]) {
      const made = await draft(receiverId, amount, b);
      await db().updateTable('payouts').set({ batch_id: batchId }).where('id', '=', made.payoutId).execute();
      await call(t.app, 'POST', `${base(b)}/${made.payoutId}/submit`, b.token);
    }
    const third = await draft(receiverId, 800, b);
    await db().updateTable('payouts').set({ batch_id: batchId }).where('id', '=', third.payoutId).execute();
    await call(t.app, 'POST', `${base(b)}/${third.payoutId}/submit`, b.token);

    const refused = await call(t.app, 'POST', `${base(b)}/approve-batch`, admin, { batchId });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().errorDetails.message).toBe('Approving needs $4.75 more than the available balance of $20.00.');
    expect(await available(b)).toBe(2_000);
    await fund(db(), b.businessId, 1_000);
    const ok = await call(t.app, 'POST', `${base(b)}/approve-batch`, admin, { batchId });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.payouts).toHaveLength(3);
    expect(await available(b)).toBe(3_000 - 3 * (800 + FEE));
    expect((await call(t.app, 'POST', `${base(b)}/reject-batch`, admin, { batchId, reason: 'No' })).statusCode).toBe(409);

    const other = await insertPayoutBatch(db(), b.businessId);
    const made = await draft(receiverId, 100, b);
    await db().updateTable('payouts').set({ batch_id: other }).where('id', '=', made.payoutId).execute();
    await call(t.app, 'POST', `${base(b)}/${made.payoutId}/submit`, b.token);
    expect((await call(t.app, 'POST', `${base(b)}/reject-batch`, admin, { batchId: other })).statusCode).toBe(400);
    const rejected = await call(t.app, 'POST', `${base(b)}/reject-batch`, admin, { batchId: other, reason: 'Duplicate file' });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json().data.payouts.map((p: { state: string }) => p.state)).toEqual(['Rejected']);
    const listed = await call(t.app, 'GET', `${base(b)}?batchId=${batchId}&sortBy=amount&sortDirection=asc`, b.token);
    expect(listed.json().data.totals).toEqual({ count: 3, amountCents: 2_400, feeCents: 3 * FEE });
  });

  it('replays create and submit under the same Idempotency-Key; another body under it is 422', async () => {
    const b = await approvedBusiness(t.app, db(), 'owner@payouts-idem.example');
    await enablePayouts(db(), b.businessId);
    const receiverId = await insertReceiver(t.runtime, b.businessId);
    await fund(db(), b.businessId, 5_000);
    const body = { receiverId, amountCents: 700, submit: true };
    const one = await create(body, b, { 'idempotency-key': 'k-create-1' });
    const two = await create(body, b, { 'idempotency-key': 'k-create-1' });
    expect(one.statusCode, one.body).toBe(201);
    expect(two.statusCode).toBe(201);
    expect(two.headers['idempotent-replayed']).toBe('true');
    expect(two.json().data.payoutId).toBe(one.json().data.payoutId);
    expect(await db().selectFrom('payouts').select('id').where('business_id', '=', b.businessId).execute()).toHaveLength(1);
    expect(await available(b)).toBe(5_000 - 700 - FEE);
    const changed = await create({ ...body, amountCents: 701 }, b, { 'idempotency-key': 'k-create-1' });
    expect(changed.statusCode).toBe(422);

    const d = await draft(receiverId, 100, b);
    const s1 = await call(t.app, 'POST', `${base(b)}/${d.payoutId}/submit`, b.token, undefined, { 'idempotency-key': 'k-submit-1' });
    const s2 = await call(t.app, 'POST', `${base(b)}/${d.payoutId}/submit`, b.token, undefined, { 'idempotency-key': 'k-submit-1' });
    expect(s1.statusCode).toBe(200);
    expect(s2.statusCode).toBe(200);
    expect(s2.json().data.payoutId).toBe(d.payoutId);
  });
});

describe('the processor', () => {
  it('pays an approved payout: Processed, the balance down by amount + fee, the receiver credited; a replayed webhook changes nothing', async () => {
    const b = await approvedBusiness(t.app, db(), 'owner@payouts-paid.example');
    await enablePayouts(db(), b.businessId);
    const receiverId = await insertReceiver(t.runtime, b.businessId);
    await fund(db(), b.businessId, 10_000);
    const made = await create({ receiverId, amountCents: 4_000, submit: true }, b);
    const payoutId = made.json().data.payoutId as string;
    await eventually(async () => (await state(payoutId)) === 'Processed', 20_000);
    const balances = await getBalances(db(), b.businessId);
    expect(balances).toMatchObject({ availableCents: 10_000 - 4_000 - FEE, payoutsInFlightCents: 0 });
    const receiver = await db().selectFrom('receivers').select(['paid_count', 'paid_cents']).where('id', '=', receiverId).executeTakeFirstOrThrow();
    expect({ count: Number(receiver.paid_count), cents: Number(receiver.paid_cents) }).toEqual({ count: 1, cents: 4_000 });
    const detail = await call(t.app, 'GET', `${base(b)}/${payoutId}`, b.token);
    expect(detail.json().data.timeline.map((e: { event: string }) => e.event)).toEqual(['create', 'submit', 'approve', 'sent', 'paid']);
    const sandbox = await db().selectFrom('sandbox_processor_payouts').selectAll().where('idempotency_key', '=', payoutId).execute();
    expect(sandbox).toHaveLength(1);
    expect(sandbox[0]!.account_last4).toBe('6789');

    // The same webhook delivered again: recorded once, nothing moves.
    const webhooks = await db().selectFrom('sandbox_processor_webhooks').select(['id']).where('type', '=', 'payout.paid').execute();
    for (const w of webhooks) await db().updateTable('sandbox_processor_webhooks').set({ delivered_at: null }).where('id', '=', w.id).execute();
    for (const w of webhooks) await t.runtime.jobs.send('sandbox.deliver-webhook', { webhookId: w.id });
    await eventually(async () => {
      const left = await db()
        .selectFrom('sandbox_processor_webhooks')
        .select('id')
        .where('type', '=', 'payout.paid')
        .where('delivered_at', 'is', null)
        .execute();
      return left.length === 0;
    });
    expect((await getBalances(db(), b.businessId)).availableCents).toBe(10_000 - 4_000 - FEE);
    const again = await db().selectFrom('receivers').select('paid_count').where('id', '=', receiverId).executeTakeFirstOrThrow();
    expect(Number(again.paid_count)).toBe(1);

    const summary = await call(t.app, 'GET', `${base(b)}/summary`, b.token);
    expect(summary.json().data).toMatchObject({
      availableCents: 10_000 - 4_000 - FEE,
      inFlightCents: 0,
      paidThisMonthCents: 4_000,
      paidThisMonthCount: 1,
      waitingCount: 0,
    });
    expect(summary.json().data.recent).toHaveLength(1);
  });

  it('returns a payout to the return test account: Error with the reason, the balance restored', async () => {
    const b = await approvedBusiness(t.app, db(), 'owner@payouts-returned.example');
    await enablePayouts(db(), b.businessId);
    const receiverId = await insertReceiver(t.runtime, b.businessId, { accountNumber: '000111111113' });
    await fund(db(), b.businessId, 10_000);
    const made = await create({ receiverId, amountCents: 3_000, submit: true }, b);
    const payoutId = made.json().data.payoutId as string;
    await eventually(async () => (await state(payoutId)) === 'Error', 20_000);
    const detail = (await call(t.app, 'GET', `${base(b)}/${payoutId}`, b.token)).json().data as PayoutDetail;
    expect(detail.failureReason).toMatch(/R03/);
    expect(detail.timeline.at(-1)?.detail).toMatch(/Returned by the receiver's bank/);
    expect(await getBalances(db(), b.businessId)).toMatchObject({ availableCents: 10_000, payoutsInFlightCents: 0 });
  });

  it('a return after the payout was paid reverses it in full: Error, the balance and the receiver restored', async () => {
    const b = await approvedBusiness(t.app, db(), 'owner@payouts-late-return.example');
    await enablePayouts(db(), b.businessId);
    const receiverId = await insertReceiver(t.runtime, b.businessId);
    await fund(db(), b.businessId, 6_000);
    const made = await create({ receiverId, amountCents: 2_000, submit: true }, b);
    const payoutId = made.json().data.payoutId as string;
    await eventually(async () => (await state(payoutId)) === 'Processed', 20_000);
    const row = await db().selectFrom('payouts').select('processor_payout_id').where('id', '=', payoutId).executeTakeFirstOrThrow();
    const event = {
      id: `evt_late_${payoutId}`,
      type: 'payout.returned' as const,
      created: Math.floor(Date.now() / 1000),
      data: {
        processorPayoutId: row.processor_payout_id!,
        amountCents: 2_000,
        metadata: { businessId: b.businessId, payoutId },
        failureCode: 'R03',
        failureMessage: 'No account / unable to locate account (R03).',
      },
    };
    expect(await applyPayoutEvent(db(), event)).toBe('applied');
    expect(await applyPayoutEvent(db(), event)).toBe('duplicate');
    expect(await applyPayoutEvent(db(), { ...event, id: `${event.id}_again` })).toBe('unchanged');
    expect(await state(payoutId)).toBe('Error');
    expect(await getBalances(db(), b.businessId)).toMatchObject({ availableCents: 6_000, payoutsInFlightCents: 0 });
    const receiver = await db().selectFrom('receivers').select(['paid_count', 'paid_cents']).where('id', '=', receiverId).executeTakeFirstOrThrow();
    expect({ count: Number(receiver.paid_count), cents: Number(receiver.paid_cents) }).toEqual({ count: 0, cents: 0 });
  });

  it('a payout whose account cannot be read is released at once (Error), and a retried send never pays twice', async () => {
    const b = await approvedBusiness(t.app, db(), 'owner@payouts-fail.example');
    await enablePayouts(db(), b.businessId);
    const receiverId = await insertReceiver(t.runtime, b.businessId);
    await db().updateTable('receivers').set({ account_number_encrypted: 'v1.broken.value.here' }).where('id', '=', receiverId).execute();
    await fund(db(), b.businessId, 5_000);
    const made = await create({ receiverId, amountCents: 1_000, submit: true }, b);
    const payoutId = made.json().data.payoutId as string;
    await eventually(async () => (await state(payoutId)) === 'Error', 20_000);
    expect(await available(b)).toBe(5_000);

    // A payout for tomorrow: its job waits, so the send is run here, twice, and again after a
    // "crash" that lost the processor's answer. The processor's key is the payout id: one credit.
    const good = await insertReceiver(t.runtime, b.businessId);
    const tomorrow = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const paid = await create({ receiverId: good, amountCents: 1_000, payOn: tomorrow, submit: true }, b);
    expect(paid.statusCode, paid.body).toBe(201);
    const paidId = paid.json().data.payoutId as string;
    const deps = { db: db(), processor: t.runtime.processor, accountBox: bankAccountNumberBox(authSecretsOf(t.runtime.config)) };
    expect(await sendApprovedPayout(deps, { businessId: b.businessId, payoutId: paidId })).toBe('sent');
    expect(await sendApprovedPayout(deps, { businessId: b.businessId, payoutId: paidId })).toBe('already-done');
    const first = await db().selectFrom('payouts').select('processor_payout_id').where('id', '=', paidId).executeTakeFirstOrThrow();
    await db().updateTable('payouts').set({ processor_payout_id: null }).where('id', '=', paidId).where('state', '=', 'Approved').execute();
    await sendApprovedPayout(deps, { businessId: b.businessId, payoutId: paidId });
    const again = await db().selectFrom('payouts').select('processor_payout_id').where('id', '=', paidId).executeTakeFirstOrThrow();
    expect(again.processor_payout_id).toBe(first.processor_payout_id);
    expect(await db().selectFrom('sandbox_processor_payouts').select('id').where('idempotency_key', '=', paidId).execute()).toHaveLength(1);
    await eventually(async () => (await state(paidId)) === 'Processed', 20_000);
    expect(await available(b)).toBe(5_000 - 1_000 - FEE);
  });
});
