// PostgreSQL pass: who may move money, decided in the money's transaction.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AddBankAccountBody, MEMBER_ROLES, moneyRuleTable, type MemberRole, type PayoutDetail } from '@tay/contract';
import { addBankAccount, bankAccountNumberBox } from '../../src/domain/businesses/add-bank-account';
import { authSecretsOf } from '../../src/lib/secret-box';
import { BANK } from '../support/businesses';
import { getBalances } from '../../src/domain/ledger/get-balances';
import { approvePayouts } from '../../src/domain/payouts/approve-payouts';
import { newId } from '../../src/lib/ids';
import { approvedBusiness, type ApprovedBusiness } from '../support/approved-business';
import { errorOf } from '../support/identity';
import { assertLedgerInvariants } from '../support/ledger';
import { addMember, enablePayouts, fund, insertPayoutBatch, insertReceiver, linkTokenOf } from '../support/payouts';
import { call, outbox } from '../support/requests';
import { createTestApp, type TestApp } from '../support/test-app';
import { batchesApi } from '../batches/batch-api';

/**
 * Who may move money (docs/product.md §6, `MONEY_RULES`): every role against every call that moves
 * a business's money out, and the attacker's steps of issue 35 — a member adding a receiver with
 * their own other mailbox, entering their own bank account and paying it.
 */

let t: TestApp;
const db = () => t.runtime.database.db;
const FEE = 25;

beforeAll(async () => {
  t = await createTestApp({ SANDBOX_AUTO_APPROVE: 'false', AUTH_IP_RATE_LIMIT_SCALE: '100' });
});
afterAll(async () => t?.close());
afterEach(async () => {
  await assertLedgerInvariants(db());
});

type Team = { b: ApprovedBusiness; tokens: Record<MemberRole, string> };

async function team(name: string): Promise<Team> {
  const b = await approvedBusiness(t.app, db(), `owner@${name}.example`);
  await enablePayouts(db(), b.businessId);
  const tokens: Record<MemberRole, string> = {
    owner: b.token,
    admin: await addMember(t.app, db(), b.businessId, `admin@${name}.example`, 'admin'),
    member: await addMember(t.app, db(), b.businessId, `member@${name}.example`, 'member'),
    viewer: await addMember(t.app, db(), b.businessId, `viewer@${name}.example`, 'viewer'),
  };
  await fund(db(), b.businessId, 1_000_000);
  return { b, tokens };
}

const payouts = (b: ApprovedBusiness) => `/api/businesses/${b.businessId}/payouts`;
const key = () => ({ 'idempotency-key': newId('key') });
const available = async (b: ApprovedBusiness) => (await getBalances(db(), b.businessId)).availableCents;

async function draft(tm: Team, receiverId: string, amountCents = 1_000): Promise<string> {
  const res = await call(t.app, 'POST', payouts(tm.b), tm.tokens.owner, { receiverId, amountCents }, key());
  expect(res.statusCode, res.body).toBe(201);
  return (res.json().data as PayoutDetail).payoutId;
}

async function submitted(tm: Team, receiverId: string): Promise<string> {
  const id = await draft(tm, receiverId);
  // A member's submit waits for an owner or admin, whatever the second-approver setting says.
  const res = await call(t.app, 'POST', `${payouts(tm.b)}/${id}/submit`, tm.tokens.member, undefined, key());
  expect(res.json().data.state).toBe('Submitted');
  return id;
}

describe('the money rules table', () => {
  it('gives every role its row: only owners and admins approve payouts, only owners change the settlement account', () => {
    const rows = Object.fromEntries(moneyRuleTable().map((r) => [r.act, r.roles]));
    expect(rows.collect).toEqual({ owner: true, admin: true, member: true, viewer: false });
    expect(rows.preparePayout).toEqual({ owner: true, admin: true, member: true, viewer: false });
    expect(rows.approvePayout).toEqual({ owner: true, admin: true, member: false, viewer: false });
    expect(rows.settlementAccount).toEqual({ owner: true, admin: false, member: false, viewer: false });
    expect(rows.refund).toEqual({ owner: true, admin: true, member: false, viewer: false });
    expect(rows.dispute).toEqual({ owner: true, admin: true, member: false, viewer: false });
  });
});

describe('every role against every money-moving payout call', () => {
  let tm: Team;
  let receiverId: string;
  beforeAll(async () => {
    tm = await team('money-roles');
    receiverId = await insertReceiver(t.runtime, tm.b.businessId);
  });

  const expected = {
    createSubmit: { owner: 'Approved', admin: 'Approved', member: 'Submitted', viewer: 403 },
    submit: { owner: 'Approved', admin: 'Approved', member: 'Submitted', viewer: 403 },
    approve: { owner: 200, admin: 200, member: 403, viewer: 403 },
    reject: { owner: 200, admin: 200, member: 403, viewer: 403 },
    cancel: { owner: 200, admin: 200, member: 200, viewer: 403 },
    approveBatch: { owner: 200, admin: 200, member: 403, viewer: 403 },
    rejectBatch: { owner: 200, admin: 200, member: 403, viewer: 403 },
  } as const;

  for (const role of MEMBER_ROLES) {
    it(`${role}: create-and-submit, submit, approve, reject, cancel, approve and reject a batch`, async () => {
      const token = tm.tokens[role];
      const before = await available(tm.b);

      const made = await call(t.app, 'POST', payouts(tm.b), token, { receiverId, amountCents: 500, submit: true }, key());
      const createWant = expected.createSubmit[role];
      if (createWant === 403) expect(made.statusCode, made.body).toBe(403);
      else {
        expect(made.statusCode, made.body).toBe(201);
        expect(made.json().data.state).toBe(createWant);
      }

      const d = await draft(tm, receiverId, 600);
      const sub = await call(t.app, 'POST', `${payouts(tm.b)}/${d}/submit`, token, undefined, key());
      const submitWant = expected.submit[role];
      if (submitWant === 403) expect(sub.statusCode, sub.body).toBe(403);
      else expect(sub.json().data.state).toBe(submitWant);

      const toApprove = await submitted(tm, receiverId);
      const approved = await call(t.app, 'POST', `${payouts(tm.b)}/${toApprove}/approve`, token, undefined, key());
      expect(approved.statusCode, approved.body).toBe(expected.approve[role]);
      if (approved.statusCode === 403) expect(errorOf(approved).code).toBe('FORBIDDEN');

      const toReject = await submitted(tm, receiverId);
      const rejected = await call(t.app, 'POST', `${payouts(tm.b)}/${toReject}/reject`, token, { reason: 'Not this month' });
      expect(rejected.statusCode, rejected.body).toBe(expected.reject[role]);

      const toCancel = await submitted(tm, receiverId);
      const cancelled = await call(t.app, 'POST', `${payouts(tm.b)}/${toCancel}/cancel`, token, undefined, key());
      expect(cancelled.statusCode, cancelled.body).toBe(expected.cancel[role]);

      for (const [action, body] of [
        ['approve-batch', {}],
        ['reject-batch', { reason: 'Wrong file' }],
      ] as const) {
        const batchId = await insertPayoutBatch(db(), tm.b.businessId);
        const inBatch = await draft(tm, receiverId, 700);
        await db().updateTable('payouts').set({ batch_id: batchId }).where('id', '=', inBatch).execute();
        await call(t.app, 'POST', `${payouts(tm.b)}/${inBatch}/submit`, tm.tokens.member, undefined, key());
        const res = await call(t.app, 'POST', `${payouts(tm.b)}/${action}`, token, { batchId, ...body }, key());
        expect(res.statusCode, `${action}: ${res.body}`).toBe(action === 'approve-batch' ? expected.approveBatch[role] : expected.rejectBatch[role]);
      }

      // Only what an owner or admin approved left the available balance.
      const approvedCents =
        (createWant === 'Approved' ? 500 + FEE : 0) +
        (submitWant === 'Approved' ? 600 + FEE : 0) +
        (expected.approve[role] === 200 ? 1_000 + FEE : 0) +
        (expected.approveBatch[role] === 200 ? 700 + FEE : 0);
      expect(before - (await available(tm.b))).toBe(approvedCents);
    });
  }

  it('is decided inside the transaction that moves the money: the approval itself refuses a member, whatever let the call through', async () => {
    const id = await submitted(tm, receiverId);
    const member = await db().selectFrom('users').select(['id', 'email']).where('email', '=', 'member@money-roles.example').executeTakeFirstOrThrow();
    const business = { id: tm.b.businessId, timeZone: 'America/New_York' };
    const deps = { jobs: t.runtime.jobs, payoutFeeCents: FEE };
    await expect(approvePayouts(db(), deps, business, [id], { userId: member.id, email: member.email })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    // Promoted, the same person may.
    await db().updateTable('business_members').set({ role: 'admin' }).where('user_id', '=', member.id).execute();
    try {
      await expect(approvePayouts(db(), deps, business, [id], { userId: member.id, email: member.email })).resolves.toHaveLength(1);
    } finally {
      await db().updateTable('business_members').set({ role: 'member' }).where('user_id', '=', member.id).execute();
    }
  });

  it('the settlement bank account: an owner only, asked again where the account changes', async () => {
    for (const role of ['admin', 'member', 'viewer'] as const) {
      const res = await call(t.app, 'POST', `/api/businesses/${tm.b.businessId}/bank-accounts`, tm.tokens[role], BANK);
      expect(res.statusCode, `${role}: ${res.body}`).toBe(403);
    }
    const admin = await db().selectFrom('users').select(['id', 'email']).where('email', '=', 'admin@money-roles.example').executeTakeFirstOrThrow();
    await expect(
      addBankAccount({
        db: db(),
        businessId: tm.b.businessId,
        actor: { userId: admin.id, label: admin.email },
        body: AddBankAccountBody.parse(BANK),
        secretBox: bankAccountNumberBox(authSecretsOf(t.runtime.config)),
      }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const owner = await call(t.app, 'POST', `/api/businesses/${tm.b.businessId}/bank-accounts`, tm.tokens.owner, BANK);
    expect(owner.statusCode, owner.body).toBe(200);
  });
});

describe('a member paying business money to themselves (issue 35, the attacker’s steps)', () => {
  it('waits, Submitted, for an owner or admin, with the receiver flagged as not reviewed; nothing leaves the balance until then', async () => {
    const tm = await team('self-pay');
    const base = `/api/businesses/${tm.b.businessId}/receivers`;
    // The member adds a receiver with their own other mailbox…
    const added = await call(t.app, 'POST', base, tm.tokens.member, { firstName: 'Mallory', lastName: 'Other', email: 'mallory.other@self-pay.example' });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json().data).toMatchObject({ reviewed: false, addedVia: 'team' });
    expect(added.json().data.actions).toContain('Mark reviewed');
    // …enters their own bank account through the e-mailed link…
    const token = linkTokenOf(await outbox(t.app, 'mallory.other@self-pay.example'));
    const set = await t.app.inject({
      method: 'POST',
      url: `/api/public/receivers/bank-account/${token}`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({
        accountHolderName: 'Mallory Other',
        routingNumber: '222096656',
        accountNumber: '000999888777',
        accountNumberConfirm: '000999888777',
        accountType: 'checking',
      }),
    });
    expect(set.statusCode, set.body).toBe(200);
    const before = await available(tm.b);
    // …and pays it, submitted at once: 201 Submitted, not Approved, nothing reserved.
    const paid = await call(
      t.app,
      'POST',
      payouts(tm.b),
      tm.tokens.member,
      { receiverId: added.json().data.receiverId, amountCents: 90_000, submit: true },
      key(),
    );
    expect(paid.statusCode, paid.body).toBe(201);
    expect(paid.json().data).toMatchObject({ state: 'Submitted', receiverReviewed: false });
    expect(paid.json().data.timeline.at(-1).detail).toBe('Waiting for an owner or admin to approve it.');
    expect(await available(tm.b)).toBe(before);
    // The member cannot approve it, nor mark the receiver reviewed.
    expect((await call(t.app, 'POST', `${payouts(tm.b)}/${paid.json().data.payoutId}/approve`, tm.tokens.member, undefined, key())).statusCode).toBe(403);
    expect((await call(t.app, 'POST', `${base}/${added.json().data.receiverId}/review`, tm.tokens.member)).statusCode).toBe(403);

    // The approval queue flags the receiver; the receivers list filters those not reviewed.
    const queue = await call(t.app, 'GET', `${payouts(tm.b)}?state=Submitted`, tm.tokens.admin);
    expect(queue.json().data.items[0]).toMatchObject({ receiverReviewed: false, receiverName: 'Mallory Other' });
    const unreviewed = await call(t.app, 'GET', `${base}?review=unreviewed`, tm.tokens.admin);
    expect(unreviewed.json().data.items.map((r: { email: string }) => r.email)).toEqual(['mallory.other@self-pay.example']);

    // An admin rejects it; nothing was paid.
    const rejected = await call(t.app, 'POST', `${payouts(tm.b)}/${paid.json().data.payoutId}/reject`, tm.tokens.admin, { reason: 'Who is this?' });
    expect(rejected.json().data.state).toBe('Rejected');
    expect(await available(tm.b)).toBe(before);
  });

  it('an owner or admin approving a payout to a receiver not reviewed reviews it, on the audit trail', async () => {
    const tm = await team('approve-reviews');
    const receiverId = await insertReceiver(t.runtime, tm.b.businessId, { reviewed: false });
    const id = await submitted(tm, receiverId);
    const approved = await call(t.app, 'POST', `${payouts(tm.b)}/${id}/approve`, tm.tokens.admin, undefined, key());
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().data.receiverReviewed).toBe(true);
    const audit = await db()
      .selectFrom('business_events')
      .select(['action', 'details', 'actor'])
      .where('business_id', '=', tm.b.businessId)
      .where('action', '=', 'receiver.reviewed')
      .execute();
    expect(audit).toEqual([expect.objectContaining({ actor: 'admin@approve-reviews.example', details: { receiverId, via: 'payout_approved' } })]);
  });

  it('an owner or admin adds receivers reviewed; a member who changes a reviewed receiver’s e-mail makes it wait for review again', async () => {
    const tm = await team('receiver-email');
    const base = `/api/businesses/${tm.b.businessId}/receivers`;
    const byAdmin = await call(t.app, 'POST', base, tm.tokens.admin, { firstName: 'Ada', lastName: 'Good', email: 'ada@receiver-email.example' });
    expect(byAdmin.json().data.reviewed).toBe(true);
    const id = byAdmin.json().data.receiverId;
    const renamed = await call(t.app, 'PATCH', `${base}/${id}`, tm.tokens.member, { firstName: 'Ada', lastName: 'Good', email: 'ada@member-mailbox.example' });
    expect(renamed.json().data.reviewed).toBe(false);
    const again = await call(t.app, 'POST', `${base}/${id}/review`, tm.tokens.owner);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data.reviewed).toBe(true);
    expect((await call(t.app, 'POST', `${base}/${id}/review`, tm.tokens.owner)).statusCode).toBe(409);
    // A member changing only the name leaves it reviewed.
    const named = await call(t.app, 'PATCH', `${base}/${id}`, tm.tokens.member, { firstName: 'Adah', lastName: 'Good', email: 'ada@member-mailbox.example' });
    expect(named.json().data.reviewed).toBe(true);
  });
});

describe('bulk payouts', () => {
  it('a member’s batch waits for an owner or admin even with the second approver off; a receiver not reviewed is left out until included', async () => {
    const tm = await team('bulk-member');
    await insertReceiver(t.runtime, tm.b.businessId, { email: 'kept@bulk-member.example' });
    await insertReceiver(t.runtime, tm.b.businessId, {
      email: 'new@bulk-member.example',
      firstName: 'Nia',
      lastName: 'New',
      reviewed: false,
      addedVia: 'check_in',
    });
    const api = batchesApi(t.app, { businessId: tm.b.businessId, token: tm.tokens.member });
    const uploaded = await api.upload('Email,Amount\nkept@bulk-member.example,10\nnew@bulk-member.example,20\n', {
      query: 'kind=payouts&fileName=payouts.csv',
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const batch = uploaded.json().data as { batchId: string };
    const checked = await api.mapped(batch.batchId, { payer: 'existing', columns: { email: 'Email', amount: 'Amount' } });
    expect(checked.counts).toMatchObject({ valid: 1, invalid: 1 });
    const flagged = await api.row(batch.batchId, 3);
    expect(flagged.errors).toEqual({
      receiverReview:
        'Nia New checked in as a new receiver and no owner or admin has reviewed them yet, so this row is left out. An owner or admin can include it.',
    });

    // The member cannot include it; an admin reviews the receiver, and the row checked again is valid.
    const newId_ = (await db().selectFrom('receivers').select('id').where('email', '=', 'new@bulk-member.example').executeTakeFirstOrThrow()).id;
    expect((await call(t.app, 'POST', `/api/businesses/${tm.b.businessId}/receivers/${newId_}/review`, tm.tokens.member)).statusCode).toBe(403);
    expect((await call(t.app, 'POST', `/api/businesses/${tm.b.businessId}/receivers/${newId_}/review`, tm.tokens.admin)).statusCode).toBe(200);
    const again = await api.fix(batch.batchId, 3, flagged.fields);
    expect(again.json().data.row).toMatchObject({ status: 'valid', errors: {} });

    const before = await available(tm.b);
    const done = await api.sent(batch.batchId);
    expect(done.counts.sent).toBe(2);
    const made = await db().selectFrom('payouts').select(['state', 'receiver_email']).where('batch_id', '=', batch.batchId).orderBy('receiver_email').execute();
    expect(made).toEqual([
      { state: 'Submitted', receiver_email: 'kept@bulk-member.example' },
      { state: 'Submitted', receiver_email: 'new@bulk-member.example' },
    ]);
    expect(await available(tm.b)).toBe(before);
  });
});
