// PostgreSQL pass: a batch's payouts made in one transaction.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids';
import { approvedBusiness, type ApprovedBusiness } from '../support/approved-business';
import { fund, insertReceiver } from '../support/payouts';
import { createTestApp, type TestApp } from '../support/test-app';
import { batchesApi, csvLines, type BatchesApi } from '../batches/batch-api';

/**
 * Bulk payouts (issue 20, ADR 035): the batch engine's `payouts` kind. A file names receivers by
 * e-mail or reference; each row is checked like a single payout (a receiver who has not entered a
 * bank account, or is disabled, cannot be paid); submitting makes Submitted payouts, one per valid
 * row, that wait for approval as one batch.
 */

let t: TestApp;
let acme: ApprovedBusiness;
let other: ApprovedBusiness;
let api: BatchesApi;
const db = () => t.runtime.database.db;

const upload = (body: string, who: BatchesApi = api) => who.upload(body, { query: 'kind=payouts&fileName=payouts.csv' });

beforeAll(async () => {
  t = await createTestApp({ SANDBOX_AUTO_APPROVE: 'false' });
  acme = await approvedBusiness(t.app, db(), 'bulk-payouts-owner@example.com');
  other = await approvedBusiness(t.app, db(), 'bulk-payouts-other@example.com');
  api = batchesApi(t.app, acme);
  await db().updateTable('businesses').set({ payout_enabled: 1, payout_approval_required: true }).where('id', '=', acme.businessId).execute();
  await insertReceiver(t.runtime, acme.businessId, { email: 'ana@receivers.example', firstName: 'Ana', lastName: 'Lopez', reference: 'EMP-1' });
  await insertReceiver(t.runtime, acme.businessId, { email: 'sam@receivers.example', firstName: 'Sam', lastName: 'Lee' });
  await insertReceiver(t.runtime, acme.businessId, { email: 'new@receivers.example', firstName: 'Noa', lastName: 'New', accountNumber: null });
  await insertReceiver(t.runtime, acme.businessId, { email: 'off@receivers.example', firstName: 'Off', lastName: 'Line', status: 'Disabled' });
}, 120_000);
afterAll(async () => t?.close());

describe('a payouts batch', () => {
  it('is refused (403, saying so) for a business whose payouts are off, and another business sees none of it', async () => {
    const res = await upload('Email,Amount\nana@receivers.example,40\n', batchesApi(t.app, other));
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().errorDetails).toMatchObject({ code: 'PAYOUTS_NOT_ENABLED' });
    expect(res.json().errorDetails.message).toMatch(/Payouts are not enabled/);

    const mine = await upload('Email,Amount\nana@receivers.example,40\n');
    expect(mine.statusCode, mine.body).toBe(201);
    const theirs = batchesApi(t.app, other);
    expect((await theirs.get(mine.json().data.batchId)).statusCode).toBe(404);
  });

  it('guesses the columns, checks every row with the single payout rules, and names what is wrong', async () => {
    const csv = [
      'Email,Receiver reference,Amount,Memo,Pay date',
      'ana@receivers.example,,40.00,Event staff,',
      ',EMP-1,"$1,234.50",Bonus,12/31/2099',
      'nobody@receivers.example,,10,,',
      'new@receivers.example,,10,,',
      'off@receivers.example,,10,,',
      'sam@receivers.example,,ten dollars,,',
      'sam@receivers.example,,5,,2001-01-01',
      'sam@receivers.example,,25,,',
      'sam@receivers.example,,25,,',
      '',
    ].join('\n');
    const uploaded = await upload(csv);
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const b = uploaded.json().data;
    expect(b.mapping.columns).toMatchObject({ email: 'Email', receiverReference: 'Receiver reference', amount: 'Amount', memo: 'Memo', payOn: 'Pay date' });
    const checked = await api.mapped(b.batchId, { columns: b.mapping.columns });
    const rows = (await api.rows(checked.batchId)).items;
    const byLine = new Map(rows.map((r) => [r.row, r]));
    expect(byLine.get(2)).toMatchObject({ status: 'valid', payerName: 'Ana Lopez', amountCents: 4000 });
    expect(byLine.get(3)).toMatchObject({ status: 'valid', payerName: 'Ana Lopez', amountCents: 123_450 });
    expect(byLine.get(4)!.errors.email).toMatch(/No receiver of yours has the e-mail address nobody@receivers.example/);
    expect(byLine.get(5)!.errors.email).toMatch(/Noa New has not entered their bank account yet/);
    expect(byLine.get(6)!.errors.email).toMatch(/Off Line is disabled/);
    expect(byLine.get(7)!.errors.amount).toMatch(/"ten dollars" is not an amount/);
    expect(byLine.get(8)!.errors.payOn).toBe('The pay date cannot be in the past.');
    // The same receiver, amount and memo twice: the second is flagged, not paid twice.
    expect(byLine.get(9)!.status).toBe('valid');
    expect(byLine.get(10)!.status).toBe('invalid');
    expect(byLine.get(10)!.errors.row).toMatch(/line 9/);
  });

  it('a receiver named by reference; submitting makes Submitted payouts of the batch, each row linked to its PAY- number', async () => {
    const csv = 'Receiver reference,Amount,Memo\nEMP-1,12.34,Shift A\n"emp-1","$1,000.00",Shift B\n';
    const b = (await upload(csv)).json().data;
    const checked = await api.mapped(b.batchId, { columns: { receiverReference: 'Receiver reference', amount: 'Amount', memo: 'Memo' } });
    expect(checked).toMatchObject({ counts: { rows: 2, valid: 2, invalid: 0 }, totalCents: 101_234 });
    const done = await api.sent(b.batchId);
    expect(done).toMatchObject({ state: 'Processed', counts: { sent: 2, failed: 0 }, sentCents: 101_234 });

    const payouts = await db()
      .selectFrom('payouts')
      .select(['id', 'number', 'state', 'amount_cents', 'memo', 'receiver_name', 'receiver_email', 'submitted_by'])
      .where('business_id', '=', acme.businessId)
      .where('batch_id', '=', b.batchId)
      .orderBy('number')
      .execute();
    expect(payouts.map((p) => [p.state, Number(p.amount_cents), p.memo, p.receiver_name])).toEqual([
      ['Submitted', 1234, 'Shift A', 'Ana Lopez'],
      ['Submitted', 100_000, 'Shift B', 'Ana Lopez'],
    ]);
    expect(payouts.every((p) => p.submitted_by === 'bulk-payouts-owner@example.com')).toBe(true);
    const rows = (await api.rows(b.batchId)).items;
    expect(rows.map((r) => [r.status, r.requestId, r.referenceNumber])).toEqual(payouts.map((p) => ['sent', p.id, `PAY-${p.number}`]));
    // Each payout's timeline says where it came from.
    const events = await db().selectFrom('payout_events').select(['event', 'detail']).where('payout_id', '=', payouts[0]!.id).orderBy('created_at').execute();
    expect(events.map((e) => e.event)).toEqual(['create', 'submit']);
    expect(events[0]!.detail).toContain(b.batchId);
  });

  it('a mapping with neither the e-mail nor the reference is refused whole', async () => {
    const b = (await upload('Who,Amount\nana@receivers.example,1\n')).json().data;
    const res = await api.map(b.batchId, { columns: { amount: 'Amount' } });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errorDetails.fields['mapping.email']).toMatch(/receiver's e-mail address or reference/);
  });

  it('the template a business downloads reads back with no error but the receivers it does not have', async () => {
    const { BATCH_TEMPLATES } = await import('@tay/contract');
    const text = BATCH_TEMPLATES.payouts.rows.map((r) => r.map((c) => (c.includes(',') ? `"${c}"` : c)).join(',')).join('\n');
    expect(csvLines(text)).toHaveLength(3);
    const b = (await upload(text)).json().data;
    const checked = await api.mapped(b.batchId, { columns: b.mapping.columns });
    const rows = (await api.rows(checked.batchId)).items;
    expect(rows.map((r) => Object.keys(r.errors))).toEqual([['email'], ['email']]);
  });
});

describe('Pay checked-in receivers', () => {
  async function eventWithCheckIns(name: string, emails: string[]): Promise<string> {
    const id = newId('evt');
    await db()
      .insertInto('events')
      .values({
        business_id: acme.businessId,
        id,
        token: newId('tok').replace(/_/g, '-').padEnd(24, 'x'),
        name,
        event_date: '2026-12-05',
        amount_cents: 4000,
        created_by: null,
      })
      .execute();
    if (emails.length === 0) return id;
    const receivers = await db()
      .selectFrom('receivers')
      .select(['id', 'email'])
      .where('business_id', '=', acme.businessId)
      .where('email', 'in', emails)
      .execute();
    for (const r of receivers)
      await db().insertInto('event_check_ins').values({ business_id: acme.businessId, event_id: id, receiver_id: r.id, payout_id: null }).execute();
    return id;
  }
  const pay = (eventId: string, who: ApprovedBusiness = acme) =>
    t.app.inject({ method: 'POST', url: `/api/businesses/${who.businessId}/events/${eventId}/pay`, headers: { authorization: `Bearer ${who.token}` } });

  it('makes one checked payouts batch of the unpaid check-ins; once sent, each check-in names its payout and a second run has no one left', async () => {
    const eventId = await eventWithCheckIns('Winter Fair', ['ana@receivers.example', 'sam@receivers.example']);
    const res = await pay(eventId);
    expect(res.statusCode, res.body).toBe(202);
    const b = await api.until(res.json().data.batchId, (x) => x.phase === 'validated');
    expect(b).toMatchObject({ kind: 'payouts', fileName: 'winter-fair-check-ins.csv', counts: { rows: 2, valid: 2 }, totalCents: 8000 });
    expect((await api.rows(b.batchId)).items.map((r) => [r.payerName, r.fields.memo]).sort()).toEqual([
      ['Ana Lopez', 'Winter Fair, Dec 05, 2026'],
      ['Sam Lee', 'Winter Fair, Dec 05, 2026'],
    ]);
    // Asked again before it is sent: a second batch of the same check-ins (flagged as the same file)…
    const twin = await pay(eventId);
    expect(twin.statusCode, twin.body).toBe(202);
    expect(twin.json().data.duplicateOf).toBe(b.batchId);
    await api.until(twin.json().data.batchId, (x) => x.phase === 'validated');

    await api.sent(b.batchId);
    const checkIns = await db().selectFrom('event_check_ins').select(['receiver_id', 'payout_id']).where('event_id', '=', eventId).execute();
    const payouts = await db().selectFrom('payouts').select(['id', 'receiver_id', 'event_id', 'amount_cents']).where('batch_id', '=', b.batchId).execute();
    expect(payouts).toHaveLength(2);
    expect(payouts.every((p) => p.event_id === eventId && Number(p.amount_cents) === 4000)).toBe(true);
    expect(new Set(checkIns.map((c) => c.payout_id))).toEqual(new Set(payouts.map((p) => p.id)));

    // …pays no one twice: its rows fail, each saying which payout paid that check-in.
    const second = await api.sent(twin.json().data.batchId);
    expect(second).toMatchObject({ state: 'Error', counts: { sent: 0, failed: 2 } });
    const failed = (await api.rows(second.batchId)).items;
    expect(failed.every((r) => /check-in is already paid by PAY-\d+/.test(r.errors.row ?? ''))).toBe(true);
    expect(await db().selectFrom('payouts').select('id').where('event_id', '=', eventId).execute()).toHaveLength(2);

    const again = await pay(eventId);
    expect(again.statusCode).toBe(409);
    expect(again.json().errorDetails.message).toMatch(/Every check-in of this event is paid already/);
  });

  it("an event with no check-ins says so; another business's event is not found; payouts off is refused", async () => {
    const empty = await eventWithCheckIns('Empty Hall', []);
    const res = await pay(empty);
    expect(res.statusCode).toBe(409);
    expect(res.json().errorDetails.message).toMatch(/No one has checked in/);
    const foreign = await pay(empty, other);
    expect(foreign.statusCode).toBe(403);
    await db().updateTable('businesses').set({ payout_enabled: 1 }).where('id', '=', other.businessId).execute();
    try {
      expect((await pay(empty, other)).statusCode).toBe(404);
    } finally {
      await db().updateTable('businesses').set({ payout_enabled: 0 }).where('id', '=', other.businessId).execute();
    }
  });
});

describe('a business that needs no second approver', () => {
  it('has the batch approved as one when its last row is sent, as far as the balance covers it all; short, the payouts wait in the queue and the audit trail says why', async () => {
    await db().updateTable('businesses').set({ payout_approval_required: false }).where('id', '=', acme.businessId).execute();
    try {
      // Nothing available: the payouts are made, Submitted, and wait for approval — nothing reserved.
      const short = (await upload('Email,Amount,Memo\nsam@receivers.example,30.00,Short A\nana@receivers.example,20.00,Short B\n')).json().data;
      await api.mapped(short.batchId, { columns: short.mapping.columns });
      await api.sent(short.batchId);
      const waiting = await db().selectFrom('payouts').select(['state']).where('batch_id', '=', short.batchId).execute();
      expect(waiting.map((p) => p.state)).toEqual(['Submitted', 'Submitted']);
      const why = await db()
        .selectFrom('business_events')
        .select('details')
        .where('business_id', '=', acme.businessId)
        .where('action', '=', 'batch.approval_waiting')
        .execute();
      expect(why.map((e) => e.details as { batchId: string; reason: string }).find((d) => d.batchId === short.batchId)?.reason).toMatch(/available balance/i);

      // Funded: the next batch is approved whole, amount and fee reserved from the available balance.
      await fund(db(), acme.businessId, 100_000);
      const covered = (await upload('Email,Amount,Memo\nsam@receivers.example,30.00,Covered A\nana@receivers.example,20.00,Covered B\n')).json().data;
      await api.mapped(covered.batchId, { columns: covered.mapping.columns });
      await api.sent(covered.batchId);
      const approved = await db().selectFrom('payouts').select(['state', 'fee_cents', 'approved_by']).where('batch_id', '=', covered.batchId).execute();
      expect(approved.map((p) => p.state)).toEqual(['Approved', 'Approved']);
      expect(approved.every((p) => Number(p.fee_cents) === t.runtime.config.payoutFeeCents && p.approved_by === 'bulk-payouts-owner@example.com')).toBe(true);
      const balances = (
        await t.app.inject({ method: 'GET', url: `/api/businesses/${acme.businessId}/balances`, headers: { authorization: `Bearer ${acme.token}` } })
      ).json().data;
      expect(balances.availableCents + balances.payoutsInFlightCents).toBe(100_000);
      expect(balances.payoutsInFlightCents).toBe(5_000 + 2 * t.runtime.config.payoutFeeCents);
    } finally {
      await db().updateTable('businesses').set({ payout_approval_required: true }).where('id', '=', acme.businessId).execute();
    }
  });
});
