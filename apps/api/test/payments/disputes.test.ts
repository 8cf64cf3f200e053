// PostgreSQL pass: a dispute's money is taken under the balance's lock, once, however many times its event arrives.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Dispute, MemberRole } from '@tay/contract';
import { readChanges } from '../../src/domain/changes/read-changes';
import { applyDisputeEvent, remindDisputes } from '../../src/domain/disputes/disputes';
import { getBalances } from '../../src/domain/ledger/get-balances';
import { newId } from '../../src/lib/ids';
import type { DisputeProcessorEvent } from '../../src/processor/port';
import { signatureHeader } from '../../src/processor/signature';
import { approvedBusiness, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { errorOf } from '../support/identity';
import { assertLedgerInvariants } from '../support/ledger';
import { BANK, CARDS, insertRequest, pay, paymentRow, timeline, tokenize } from '../support/payments';
import { addMember } from '../support/payouts';
import { call, outbox } from '../support/requests';
import { createTestApp, eventually, type TestApp } from '../support/test-app';

/**
 * Disputes (ADR 051): the sandbox's disputed card opens one after it settles; the disputed amount
 * and the fee leave the available balance once; owners and admins answer with evidence (won or
 * lost by the sandbox's rule) or accept; members, viewers and other businesses cannot; bad files
 * are refused naming the file, with nothing saved; a week before the due date the team is reminded.
 */

let t: TestApp;
const db = () => t.runtime.database.db;
const FEE = 1500;

beforeAll(async () => {
  t = await createTestApp({ SANDBOX_SETTLEMENT_SECONDS: '1', SANDBOX_AUTO_APPROVE: 'false', AUTH_IP_RATE_LIMIT_SCALE: '100' }, { listen: true });
});
afterAll(async () => t?.close());
afterEach(async () => {
  await assertLedgerInvariants(db());
});

const key = () => ({ 'idempotency-key': newId('key') });
const base = (b: ApprovedBusiness) => `/api/businesses/${b.businessId}/disputes`;
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const pdfUrl = `data:application/pdf;base64,${PDF.toString('base64')}`;

const available = async (b: ApprovedBusiness) => (await getBalances(db(), b.businessId)).availableCents;

/** A business of the test's own whose request was paid with the disputed test card, and the dispute the sandbox opened on it. */
async function disputed(name: string, amountCents = 10_000) {
  const b = await approvedBusiness(t.app, db(), `${name}@disputes.example`);
  const payer = await insertPayer(db(), b.businessId, { email: `payer@${name}.example` });
  const { requestId, payToken } = await insertRequest(db(), b.businessId, payer, { amountCents });
  const res = await pay(
    t.app,
    payToken,
    { method: 'card', processorToken: await tokenize(t.app, t.runtime, { card: CARDS.disputed }), amountCents },
    newId('key'),
  );
  expect(res.statusCode, res.body).toBe(201);
  const paymentId = res.json().data.payment.paymentId as string;
  const fee = Number((await paymentRow(db(), paymentId)).fee_cents);
  const dispute = await eventually(async () => {
    const list = await call(t.app, 'GET', base(b), b.token);
    return (list.json().data.items as Dispute[])[0];
  }, 20_000);
  return { b, requestId, paymentId, fee, dispute };
}

async function disputeOf(b: ApprovedBusiness, disputeId: string): Promise<Dispute> {
  const res = await call(t.app, 'GET', `${base(b)}/${disputeId}`, b.token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as Dispute;
}

const answer = (b: ApprovedBusiness, disputeId: string, body: Record<string, unknown>, token = b.token) =>
  call(t.app, 'POST', `${base(b)}/${disputeId}/evidence`, token, body, key());
const accept = (b: ApprovedBusiness, disputeId: string, token = b.token) => call(t.app, 'POST', `${base(b)}/${disputeId}/accept`, token, undefined, key());

describe('a disputed card payment', () => {
  it('opens NeedsResponse after settling: the amount and the fee leave the available balance, the timeline, the audit log and the owners say so', async () => {
    const { b, requestId, paymentId, fee, dispute } = await disputed('opened');
    expect(dispute).toMatchObject({
      requestId,
      paymentId,
      instrument: 'Visa •••• 0259',
      paymentAmountCents: 10_000,
      amountCents: 10_000,
      feeCents: FEE,
      feeReturnedCents: 0,
      reason: 'fraudulent',
      state: 'NeedsResponse',
      evidence: null,
      files: [],
    });
    expect(dispute.disputeId).toMatch(/^dsp_/);
    const due = new Date(dispute.evidenceDueAt).getTime() - Date.now();
    expect(due).toBeGreaterThan(20 * 86_400_000);
    // Settled (10,000 − fee available), then 10,000 + 1,500 taken: the balance is below zero, as the money already left.
    await eventually(async () => (await available(b)) === 10_000 - fee - 10_000 - FEE, 10_000);

    const events = await timeline(db(), requestId);
    expect(events.find((e) => e.event === 'disputeOpened')?.detail).toMatch(
      /^The payer’s bank disputed \$100\.00 of Visa •••• 0259\. Evidence is due by \d{4}-\d\d-\d\d\.$/,
    );
    const audit = await db()
      .selectFrom('business_events')
      .select('action')
      .where('business_id', '=', b.businessId)
      .where('action', 'like', 'dispute.%')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['dispute.opened']);
    const mail = await outbox(t.app, b.email);
    const opened = mail.find((m) => m.subject.startsWith('Dispute: $100.00'));
    expect(opened?.subject).toMatch(/^Dispute: \$100\.00 from .+ \(TRX-\d+\) needs a response$/);
    expect(opened?.text).toContain('the $15.00 dispute fee have left your available balance');

    const summary = await call(t.app, 'GET', `${base(b)}/summary`, b.token);
    expect(summary.json().data).toEqual({ needsResponseCount: 1, nextDueAt: dispute.evidenceDueAt });
    const filtered = await call(t.app, 'GET', `${base(b)}?state=Won`, b.token);
    expect(filtered.json().data.total).toBe(0);
    const csv = await call(t.app, 'GET', `${base(b)}/export.csv`, b.token);
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('Needs response');
    expect(csv.body).toContain('100.00');

    // Its money went back through the payer's bank: a refund would pay it twice.
    const refund = await call(
      t.app,
      'POST',
      `/api/businesses/${b.businessId}/payment-requests/${requestId}/refunds`,
      b.token,
      { amountCents: 100, reason: 'other' },
      key(),
    );
    expect(refund.statusCode).toBe(409);
    expect(errorOf(refund).message).toMatch(/^This payment is disputed/);
  });

  it('won with evidence: Under review, then Won, the amount back and the fee kept; the files are kept and downloadable; a second answer is refused', async () => {
    const { b, requestId, fee, dispute } = await disputed('won');
    await eventually(async () => (await available(b)) === -fee - FEE, 10_000);
    const { snapshot } = await readChanges(db(), [b.businessId], null);
    const res = await answer(b, dispute.disputeId, {
      productDescription: 'Spring tuition, term 2',
      customerCommunication: 'The guardian confirmed the enrolment by e-mail on 3 March.',
      files: [{ name: 'enrolment.pdf', dataUrl: pdfUrl }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const sent = res.json().data as Dispute;
    expect(sent).toMatchObject({ state: 'UnderReview', submittedBy: b.email, evidence: { productDescription: 'Spring tuition, term 2' } });
    expect(sent.files).toMatchObject([{ name: 'enrolment.pdf', contentType: 'application/pdf', sizeBytes: PDF.length }]);
    const file = await call(t.app, 'GET', `${base(b)}/${dispute.disputeId}/files/${sent.files[0]!.fileId}`, b.token);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.rawPayload.equals(PDF)).toBe(true);

    const again = await answer(b, dispute.disputeId, { uncategorizedText: 'More' });
    expect(again.statusCode).toBe(409);
    expect(errorOf(again)).toMatchObject({ code: 'DISPUTE_CLOSED', message: 'This dispute is under review: it no longer takes an answer.' });

    const won = await eventually(async () => {
      const d = await disputeOf(b, dispute.disputeId);
      return d.state === 'Won' ? d : undefined;
    }, 20_000);
    expect(won.closedAt).not.toBeNull();
    // Live updates: the answer and the bank's decision are notices of the request, and the money's of the balances.
    const { changes } = await readChanges(db(), [b.businessId], snapshot);
    expect(changes).toContainEqual({ businessId: b.businessId, kind: 'request', id: requestId });
    expect(changes.some((c) => c.kind === 'balances')).toBe(true);
    expect(await available(b)).toBe(10_000 - fee - FEE);
    expect((await timeline(db(), requestId)).map((e) => e.event)).toEqual(expect.arrayContaining(['disputeOpened', 'disputeAnswered', 'disputeClosed']));
    const audit = await db()
      .selectFrom('business_events')
      .select('action')
      .where('business_id', '=', b.businessId)
      .where('action', 'like', 'dispute.%')
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['dispute.opened', 'dispute.evidence_submitted', 'dispute.won']);
    expect((await outbox(t.app, b.email)).some((m) => m.subject.startsWith('Dispute won: $100.00'))).toBe(true);
  });

  it('lost with evidence the sandbox rejects: the money stays with the payer', async () => {
    const { b, fee, dispute } = await disputed('lost');
    const res = await answer(b, dispute.disputeId, { uncategorizedText: 'losing_evidence' });
    expect(res.statusCode, res.body).toBe(200);
    await eventually(async () => (await disputeOf(b, dispute.disputeId)).state === 'Lost', 20_000);
    expect(await available(b)).toBe(-fee - FEE);
  });

  it('accepted: Accepted at once, and the processor’s “lost” leaves it Accepted', async () => {
    const { b, fee, dispute } = await disputed('accepted');
    const res = await accept(b, dispute.disputeId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ state: 'Accepted', submittedBy: b.email });
    const closed = await eventually(async () => {
      const d = await disputeOf(b, dispute.disputeId);
      return d.closedAt ? d : undefined;
    }, 20_000);
    expect(closed.state).toBe('Accepted');
    expect(await available(b)).toBe(-fee - FEE);
    expect((await accept(b, dispute.disputeId)).statusCode).toBe(409);
  });
});

describe('who may answer', () => {
  it('owners and admins answer; members and viewers get 403; another business gets 404 for every call', async () => {
    const { b, dispute } = await disputed('roles');
    const tokens: Partial<Record<MemberRole, string>> = {};
    for (const role of ['admin', 'member', 'viewer'] as const)
      tokens[role] = await addMember(t.app, db(), b.businessId, `${role}@roles.disputes.example`, role);
    for (const role of ['member', 'viewer'] as const) {
      const refused = await answer(b, dispute.disputeId, { uncategorizedText: 'Mine' }, tokens[role]);
      expect(refused.statusCode, `${role} evidence`).toBe(403);
      expect((await accept(b, dispute.disputeId, tokens[role])).statusCode, `${role} accept`).toBe(403);
      // They can read it.
      expect((await call(t.app, 'GET', `${base(b)}/${dispute.disputeId}`, tokens[role]!)).statusCode).toBe(200);
    }
    expect((await disputeOf(b, dispute.disputeId)).state).toBe('NeedsResponse');

    const other = await approvedBusiness(t.app, db(), 'other@disputes.example');
    const foreign = { ...other, businessId: b.businessId };
    expect((await call(t.app, 'GET', `${base(b)}/${dispute.disputeId}`, other.token)).statusCode).toBe(404);
    expect((await call(t.app, 'GET', `${base(other)}/${dispute.disputeId}`, other.token)).statusCode).toBe(404);
    expect((await answer(other, dispute.disputeId, { uncategorizedText: 'x' })).statusCode).toBe(404);
    expect((await accept(other, dispute.disputeId)).statusCode).toBe(404);
    expect((await answer(foreign, dispute.disputeId, { uncategorizedText: 'x' }, other.token)).statusCode).toBe(404);

    const res = await answer(b, dispute.disputeId, { uncategorizedText: 'The admin answers.' }, tokens.admin!);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.submittedBy).toBe('admin@roles.disputes.example');
  });
});

describe('evidence that is refused', () => {
  it('names the field or the file, and saves nothing', async () => {
    const { b, dispute } = await disputed('refused');
    const empty = await answer(b, dispute.disputeId, {});
    expect(empty.statusCode).toBe(400);
    expect(errorOf(empty).fields).toEqual({ productDescription: 'Describe what happened or attach a file: the bank decides on what you send.' });

    const six = await answer(b, dispute.disputeId, { files: Array.from({ length: 6 }, (_, i) => ({ name: `f${i}.pdf`, dataUrl: pdfUrl })) });
    expect(six.statusCode).toBe(400);
    expect(errorOf(six).fields).toEqual({ files: 'Attach at most 5 files.' });

    const gif = await answer(b, dispute.disputeId, {
      uncategorizedText: 'See the photo',
      files: [
        { name: 'ok.pdf', dataUrl: pdfUrl },
        { name: 'photo.gif', dataUrl: `data:image/gif;base64,${Buffer.from('GIF89a....').toString('base64')}` },
      ],
    });
    expect(gif.statusCode).toBe(400);
    expect(errorOf(gif).fields).toEqual({ 'files.1': 'File 2 (photo.gif) is not a PDF, PNG or JPEG file: only those are accepted.' });

    const big = await answer(b, dispute.disputeId, {
      files: [{ name: 'scan.pdf', dataUrl: `data:application/pdf;base64,${Buffer.concat([PDF, Buffer.alloc(5 * 1024 * 1024)]).toString('base64')}` }],
    });
    expect(big.statusCode).toBe(400);
    expect(errorOf(big).fields).toEqual({ 'files.0': 'File 1 (scan.pdf) is 5.1 MB; the largest accepted is 5 MB.' });

    const now = await disputeOf(b, dispute.disputeId);
    expect(now).toMatchObject({ state: 'NeedsResponse', evidence: null, files: [] });
    expect(await db().selectFrom('dispute_evidence_files').select('id').where('business_id', '=', b.businessId).execute()).toEqual([]);
  });

  it('is refused once the due date has passed', async () => {
    const { b, dispute } = await disputed('late');
    await db()
      .updateTable('disputes')
      .set({ evidence_due_at: new Date(Date.now() - 1000) })
      .where('id', '=', dispute.disputeId)
      .execute();
    const res = await answer(b, dispute.disputeId, { uncategorizedText: 'Too late' });
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).message).toMatch(/^The evidence was due by \d{4}-\d\d-\d\d; the bank no longer takes it\.$/);
  });
});

describe('the processor’s events', () => {
  it('a dispute.created delivered five times at once takes the money once', async () => {
    const { b, paymentId, dispute, fee } = await disputed('replayed');
    await eventually(async () => (await available(b)) === -fee - FEE, 10_000);
    const row = await db().selectFrom('disputes').selectAll().where('id', '=', dispute.disputeId).executeTakeFirstOrThrow();
    const charge = (await paymentRow(db(), paymentId)).processor_charge_id!;
    const event = (id: string): DisputeProcessorEvent => ({
      id,
      type: 'dispute.created',
      created: Math.floor(Date.now() / 1000),
      data: {
        processorDisputeId: row.processor_dispute_id,
        chargeId: charge,
        amountCents: 10_000,
        reason: 'fraudulent',
        status: 'needs_response',
        evidenceDueBy: Math.floor(Date.now() / 1000) + 86_400,
        metadata: { businessId: b.businessId, paymentId, requestId: row.request_id },
      },
    });
    const bodies = [event(newId('evt')), event(newId('evt')), event(newId('evt')), event(newId('evt')), event(newId('evt'))].map((e) => JSON.stringify(e));
    const answers = await Promise.all(
      bodies.map((body) =>
        t.app.inject({
          method: 'POST',
          url: '/api/webhooks/processor',
          headers: { 'content-type': 'application/json', 'tay-signature': signatureHeader(t.runtime.config.processor.webhookSecret, body) },
          payload: body,
        }),
      ),
    );
    expect(answers.map((a) => a.json().outcome)).toEqual(['unchanged', 'unchanged', 'unchanged', 'unchanged', 'unchanged']);
    expect(await db().selectFrom('disputes').select('id').where('business_id', '=', b.businessId).execute()).toHaveLength(1);
    expect(await available(b)).toBe(-fee - FEE);
  });

  it('won with FEE_DISPUTE_WON_RETURNS_FEE gives the fee back too', async () => {
    const { b, fee, dispute } = await disputed('fee-back');
    await eventually(async () => (await available(b)) === -fee - FEE, 10_000);
    const row = await db().selectFrom('disputes').selectAll().where('id', '=', dispute.disputeId).executeTakeFirstOrThrow();
    const outcome = await applyDisputeEvent(
      { db: db(), mailer: t.runtime.mailer, fees: { disputeCents: FEE, wonReturnsFee: true }, publicUrl: t.runtime.config.publicUrl },
      {
        id: newId('evt'),
        type: 'dispute.closed',
        created: Math.floor(Date.now() / 1000),
        data: {
          processorDisputeId: row.processor_dispute_id,
          chargeId: 'ch_any',
          amountCents: 10_000,
          reason: 'fraudulent',
          status: 'won',
          evidenceDueBy: 0,
          metadata: { businessId: b.businessId, paymentId: row.payment_id, requestId: row.request_id },
        },
      },
    );
    expect(outcome).toBe('applied');
    expect(await disputeOf(b, dispute.disputeId)).toMatchObject({ state: 'Won', feeReturnedCents: FEE });
    expect(await available(b)).toBe(10_000 - fee);
  });
});

describe('the reminder a week before the due date', () => {
  it('e-mails owners and admins once', async () => {
    const { b, dispute } = await disputed('reminded');
    await addMember(t.app, db(), b.businessId, 'admin@reminded.disputes.example', 'admin');
    await db()
      .updateTable('disputes')
      .set({ evidence_due_at: new Date(Date.now() + 6 * 86_400_000) })
      .where('id', '=', dispute.disputeId)
      .execute();
    const deps = { db: db(), mailer: t.runtime.mailer, publicUrl: t.runtime.config.publicUrl };
    expect(await remindDisputes(deps)).toBeGreaterThanOrEqual(1);
    expect(await remindDisputes(deps)).toBe(0);
    for (const to of [b.email, 'admin@reminded.disputes.example']) {
      const reminders = (await outbox(t.app, to)).filter((m) => m.subject.startsWith('Reminder: the evidence for the $100.00 dispute'));
      expect(reminders, to).toHaveLength(1);
      expect(reminders[0]!.subject).toMatch(/is due in 6 days$/);
    }
  });
});

describe('a bank debit returned as unauthorised', () => {
  it('is returned with R10 and its reason', async () => {
    const b = await approvedBusiness(t.app, db(), 'r10@disputes.example');
    const payer = await insertPayer(db(), b.businessId, { email: 'payer@r10.example' });
    const { payToken } = await insertRequest(db(), b.businessId, payer, { amountCents: 5_000 });
    const token = await tokenize(t.app, t.runtime, { bankAccount: BANK.unauthorized });
    const res = await pay(t.app, payToken, { method: 'bank_account', processorToken: token, amountCents: 5_000 }, newId('key'));
    expect(res.statusCode, res.body).toBe(201);
    const paymentId = res.json().data.payment.paymentId as string;
    const returned = await eventually(async () => {
      const row = await paymentRow(db(), paymentId);
      return row.state === 'Returned' ? row : undefined;
    }, 30_000);
    expect(returned.failure_reason).toBe('The bank returned the payment: the account holder says it was not authorised (R10).');
  });
});
