import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PaymentRequest, PaymentRequestDetail, PublicPayPage } from '@tay/contract';
import { newId } from '../../src/lib/ids';
import { approvedBusiness, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { errorOf } from '../support/identity';
import { assertLedgerInvariants } from '../support/ledger';
import { insertPatient } from '../support/patients';
import { CARDS, pay, requestRow, tokenize } from '../support/payments';
import { call, dayIn, outbox } from '../support/requests';
import { auditDetailsOf } from '../support/audit';
import { createTestApp, eventually, type TestApp } from '../support/test-app';
import { templateBusinesses } from '../support/template-businesses';

/**
 * A statement for one patient (issue 22, ADR 037): a request to pay billed to the patient's
 * guarantor for the lines' patient responsibility. The request, its list item, its CSV, its e-mail
 * and its pay page carry the statement; the payer sees the patient's first name only.
 */

let t: TestApp;
let biz: ApprovedBusiness;
let other: ApprovedBusiness;
let standard: ApprovedBusiness;
let school: ApprovedBusiness;
let viewerToken: string;
const db = () => t.runtime.database.db;

beforeAll(async () => {
  t = await createTestApp({ SANDBOX_SETTLEMENT_SECONDS: '1', SANDBOX_AUTO_APPROVE: 'false' }, { listen: true });
  ({ biz, other, standard, viewerToken } = await templateBusinesses(t.app, db(), 'healthCare', 'statements'));
  school = await approvedBusiness(t.app, db(), 'owner@school-statements.example', 'student');
});
afterAll(async () => t?.close());
afterEach(async () => {
  await assertLedgerInvariants(db());
});

const url = (clientId: string, b = biz) => `/api/businesses/${b.businessId}/healthcare-clients/${clientId}/statements`;
const history = (b = biz) => `/api/businesses/${b.businessId}/payment-requests`;
let seq = 0;

/** A patient with a guarantor of their own (a new payer with its own e-mail). */
async function patient(
  over: { status?: 'active' | 'Disabled'; guarantorStatus?: 'active' | 'Disabled'; businessId?: string; firstName?: string; lastName?: string } = {},
) {
  seq++;
  const businessId = over.businessId ?? biz.businessId;
  const email = `guarantor${seq}@families.example`;
  const guarantor = await insertPayer(db(), businessId, { email, displayName: `Gus Guarantor${seq}`, status: over.guarantorStatus ?? 'active' });
  const firstName = over.firstName ?? 'Ana';
  const lastName = over.lastName ?? `Zamorano${seq}`;
  const mrn = `MRN-Q${seq}X${newId('m').slice(-6)}`;
  const { id } = await insertPatient(db(), businessId, {
    mrn,
    firstName,
    lastName,
    dateOfBirth: '1987-03-14',
    status: over.status ?? 'active',
    guarantorPayerId: guarantor,
    relationship: 'spouse',
  });
  return { id, guarantor, email, firstName, lastName, mrn, name: `${firstName} ${lastName}` };
}

const lines = [
  { description: 'Office visit', billedCents: 20_000, insurancePaidCents: 12_000, adjustmentCents: 500 },
  { serviceDate: dayIn(-3), description: 'X-ray, two views', billedCents: 15_000, insurancePaidCents: 9_000, adjustmentCents: 0, responsibilityCents: 6_000 },
];

const body = (over: Record<string, unknown> = {}) => ({
  dateOfService: dayIn(-2),
  lines,
  memo: 'Thank you for visiting',
  reference: 'VISIT-7',
  dueDate: dayIn(14),
  allowPartial: false,
  mode: 'send',
  ...over,
});

async function create(clientId: string, over: Record<string, unknown> = {}, b = biz): Promise<PaymentRequest> {
  const res = await call(t.app, 'POST', url(clientId, b), b.token, body(over));
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as PaymentRequest;
}

const count = async (clientId: string) =>
  Number(
    (
      await db()
        .selectFrom('payment_requests')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('source_kind', '=', 'patient')
        .where('source_id', '=', clientId)
        .executeTakeFirstOrThrow()
    ).n,
  );

const linkOf = (text: string) => /\/pay\/([\w-]+)/.exec(text)?.[1];

describe('POST /api/businesses/:id/healthcare-clients/:clientId/statements', () => {
  it("bills the guarantor the lines' patient responsibility, and carries the patient and the statement", async () => {
    const p = await patient();
    const made = await create(p.id);
    const dateOfService = dayIn(-2);
    const statement = {
      dateOfService,
      lines: [
        {
          serviceDate: dateOfService,
          description: 'Office visit',
          billedCents: 20_000,
          insurancePaidCents: 12_000,
          adjustmentCents: 500,
          responsibilityCents: 7_500,
        },
        {
          serviceDate: dayIn(-3),
          description: 'X-ray, two views',
          billedCents: 15_000,
          insurancePaidCents: 9_000,
          adjustmentCents: 0,
          responsibilityCents: 6_000,
        },
      ],
      totals: { billedCents: 35_000, insurancePaidCents: 21_000, adjustmentCents: 500, responsibilityCents: 13_500 },
    };
    expect(made).toMatchObject({ transactionState: 'Sent', payerId: p.guarantor, amountCents: 13_500, clientId: p.id, patientName: p.name, statement });
    const row = await requestRow(db(), made.transactionId);
    expect(row).toMatchObject({ patient_id: p.id, patient_name: p.name, patient_first_name: 'Ana' });
    // The detail, the list item and the patient's statements say the same.
    const detail = (await call(t.app, 'GET', `${history()}/${made.transactionId}`, biz.token)).json().data as PaymentRequestDetail;
    expect(detail).toMatchObject({ clientId: p.id, patientName: p.name, statement });
    const list = await call(t.app, 'GET', `${history()}?clientId=${p.id}`, biz.token);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data.items).toEqual([made]);
    const mine = await call(t.app, 'GET', url(p.id), biz.token);
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json().data).toMatchObject({ total: 1, page: 1, items: [{ transactionId: made.transactionId, statement }] });
    // The audit trail says who made it.
    const events = (await auditDetailsOf(db(), biz.businessId, 'patient.statement_created')).map((details) => ({ details }));
    expect(events.map((e) => (e.details as { requestId: string }).requestId)).toContain(made.transactionId);
  });

  it('saves a draft and schedules one, e-mailing no one yet', async () => {
    const p = await patient();
    const draft = await create(p.id, { mode: 'draft' });
    expect(draft).toMatchObject({ transactionState: 'Draft', amountCents: 13_500, clientId: p.id });
    const scheduled = await create(p.id, { mode: 'schedule', sendAt: new Date(Date.now() + 2 * 86_400_000).toISOString() });
    expect(scheduled.transactionState).toBe('Pending');
    expect(await outbox(t.app, p.email)).toHaveLength(0);
  });

  it('answers a retry with the same Idempotency-Key with the same statement', async () => {
    const p = await patient();
    const key = `key-${newId('k')}`;
    const a = await call(t.app, 'POST', url(p.id), biz.token, body(), { 'idempotency-key': key });
    const b = await call(t.app, 'POST', url(p.id), biz.token, body(), { 'idempotency-key': key });
    expect(a.statusCode, a.body).toBe(201);
    expect(b.statusCode, b.body).toBe(201);
    expect(b.json().data.transactionId).toBe(a.json().data.transactionId);
    expect(await count(p.id)).toBe(1);
    expect(await outbox(t.app, p.email)).toHaveLength(1);
  });

  it("an edit keeps the statement's lines, and refuses an amount that is not their total", async () => {
    const p = await patient();
    const draft = await create(p.id, { mode: 'draft' });
    const edit = (over: Record<string, unknown>) =>
      call(t.app, 'PATCH', `${history()}/${draft.transactionId}`, biz.token, {
        payerId: p.guarantor,
        amountCents: 13_500,
        memo: 'Edited memo',
        reference: 'VISIT-7',
        dueDate: dayIn(20),
        allowPartial: true,
        mode: 'draft',
        ...over,
      });
    const ok = await edit({});
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data).toMatchObject({ memo: 'Edited memo', allowPartial: true, amountCents: 13_500, statement: draft.statement, clientId: p.id });
    const changed = await edit({ amountCents: 10_000 });
    expect(changed.statusCode).toBe(400);
    expect(errorOf(changed).message).toMatch(/statement/);
    expect(errorOf(changed).fields).toEqual({ amountCents: "Keep the statement's total, $135.00." });
    expect((await requestRow(db(), draft.transactionId)).amount_cents).toBe(13_500);
  });

  it("an edit may not bill anyone but the patient's guarantor", async () => {
    const p = await patient();
    const someoneElse = await insertPayer(db(), biz.businessId, { email: `someone-else${seq}@payers.example` });
    const refusal = "A statement is billed to the patient's guarantor; make a new statement to bill someone else.";
    for (const state of ['draft', 'schedule'] as const) {
      const sendAt = new Date(Date.now() + 2 * 86_400_000).toISOString();
      const made = await create(p.id, { mode: state, ...(state === 'schedule' ? { sendAt } : {}) });
      const res = await call(t.app, 'PATCH', `${history()}/${made.transactionId}`, biz.token, {
        payerId: someoneElse,
        amountCents: 13_500,
        memo: 'Billed elsewhere',
        reference: 'VISIT-7',
        dueDate: dayIn(20),
        allowPartial: false,
        mode: state,
        ...(state === 'schedule' ? { sendAt } : {}),
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(errorOf(res).fields).toEqual({ payerId: refusal });
      const row = await requestRow(db(), made.transactionId);
      expect(row).toMatchObject({ payer_id: p.guarantor, payer_email: p.email, memo: 'Thank you for visiting' });
    }
    // A scheduled statement's amount cannot be changed either, and the refusal says to cancel it (it cannot be deleted).
    const scheduled = await create(p.id, { mode: 'schedule', sendAt: new Date(Date.now() + 2 * 86_400_000).toISOString() });
    const amount = await call(t.app, 'PATCH', `${history()}/${scheduled.transactionId}`, biz.token, {
      payerId: p.guarantor,
      amountCents: 1_000,
      dueDate: dayIn(20),
      mode: 'schedule',
      sendAt: new Date(Date.now() + 2 * 86_400_000).toISOString(),
    });
    expect(amount.statusCode).toBe(400);
    expect(errorOf(amount).message).toMatch(/Cancel the scheduled statement/);
  });

  describe('refusals (each names its field, and makes nothing)', () => {
    const refused = async (clientId: string, over: Record<string, unknown>, status = 400) => {
      const res = await call(t.app, 'POST', url(clientId), biz.token, body(over));
      expect(res.statusCode, res.body).toBe(status);
      return errorOf(res);
    };

    it('a line that does not add up, named by line and field', async () => {
      const p = await patient();
      const bad = [lines[0], { ...lines[1], responsibilityCents: 5_000 }];
      const error = await refused(p.id, { lines: bad });
      expect(error.fields).toEqual({
        'lines.1.patientResponsibility':
          'Line 2: The patient responsibility does not add up: $150.00 billed − $90.00 insurance paid − $0.00 adjustment is $60.00, not $50.00.',
      });
      expect(await count(p.id)).toBe(0);
    });

    it('insurance and adjustment above what was billed, a negative or zero amount', async () => {
      const p = await patient();
      const over = await refused(p.id, { lines: [{ description: 'Cleaning', billedCents: 10_000, insurancePaidCents: 8_000, adjustmentCents: 3_000 }] });
      expect(over.fields).toHaveProperty(['lines.0.insurancePaid']);
      expect(over.fields!['lines.0.insurancePaid']).toMatch(/more than the \$100\.00 billed/);
      const negative = await refused(p.id, { lines: [lines[0], { description: 'Refund', billedCents: 1_000, insurancePaidCents: -5 }] });
      expect(negative.fields).toHaveProperty(['lines.1.insurancePaid']);
      const zero = await refused(p.id, { lines: [{ description: 'Nothing', billedCents: 0 }] });
      expect(zero.fields).toHaveProperty(['lines.0.billed']);
      expect(await count(p.id)).toBe(0);
    });

    it('a statement whose lines all net to $0.00', async () => {
      const p = await patient();
      const error = await refused(p.id, {
        lines: [
          { description: 'Visit', billedCents: 10_000, insurancePaidCents: 10_000 },
          { description: 'Lab', billedCents: 5_000, insurancePaidCents: 3_000, adjustmentCents: 2_000 },
        ],
      });
      expect(error.fields).toEqual({ lines: 'The patient owes nothing on this statement: its lines net to $0.00 after insurance and adjustments.' });
      expect(await count(p.id)).toBe(0);
    });

    it('no lines, too many, a blank description, a future date of service', async () => {
      const p = await patient();
      expect((await refused(p.id, { lines: [] })).fields).toHaveProperty('lines');
      const many = Array.from({ length: 51 }, () => lines[0]);
      expect((await refused(p.id, { lines: many })).fields).toHaveProperty('lines');
      expect((await refused(p.id, { lines: [{ ...lines[0], description: '  ' }] })).fields).toHaveProperty(['lines.0.description']);
      expect((await refused(p.id, { dateOfService: dayIn(2) })).fields).toEqual({ dateOfService: 'Choose today or an earlier date.' });
      expect((await refused(p.id, { lines: [lines[0], { ...lines[1], serviceDate: dayIn(3) }] })).fields).toHaveProperty(['lines.1.serviceDate']);
      expect((await refused(p.id, { dueDate: '2020-01-01' })).fields).toHaveProperty('dueDate');
      expect((await refused(p.id, { mode: 'schedule' })).fields).toHaveProperty('sendAt');
      expect(await count(p.id)).toBe(0);
    });

    it('a deactivated patient, or a deactivated guarantor, is 409', async () => {
      const off = await patient({ status: 'Disabled' });
      expect((await refused(off.id, {}, 409)).message).toMatch(/deactivated; activate the patient/);
      const unpaid = await patient({ guarantorStatus: 'Disabled' });
      expect((await refused(unpaid.id, {}, 409)).message).toMatch(/the guarantor billed for .* is deactivated/);
      expect(await count(off.id)).toBe(0);
      expect(await count(unpaid.id)).toBe(0);
    });

    it("another business's patient is 404", async () => {
      const theirs = await patient({ businessId: other.businessId });
      const res = await call(t.app, 'POST', url(theirs.id), biz.token, body());
      expect(res.statusCode).toBe(404);
      const list = await call(t.app, 'GET', url(theirs.id), biz.token);
      expect(list.statusCode).toBe(404);
      expect(await count(theirs.id)).toBe(0);
      // Nor does the history filter find their statements.
      await create(theirs.id, {}, other);
      expect((await call(t.app, 'GET', `${history()}?clientId=${theirs.id}`, biz.token)).json().data.total).toBe(0);
    });

    it('a business of another template is 404, saying the endpoint is the healthcare template’s', async () => {
      const p = await patient();
      for (const b of [standard, school]) {
        for (const method of ['POST', 'GET'] as const) {
          const res = await call(t.app, method, url(p.id, b), b.token, method === 'POST' ? body() : undefined);
          expect(res.statusCode, res.body).toBe(404);
          expect(errorOf(res).message).toMatch(/healthcare template/i);
        }
      }
      expect(await count(p.id)).toBe(0);
    });

    it('a viewer may not make one, but may read them', async () => {
      const p = await patient();
      const res = await call(t.app, 'POST', url(p.id), viewerToken, body());
      expect(res.statusCode).toBe(403);
      expect(await count(p.id)).toBe(0);
      expect((await call(t.app, 'GET', url(p.id), viewerToken)).statusCode).toBe(200);
    });
  });
});

describe('GET …/statements', () => {
  it('pages the statements newest first, and writes a statements view of the record (who, when)', async () => {
    const p = await patient();
    const first = await create(p.id, { mode: 'draft' });
    const second = await create(p.id, { mode: 'draft', memo: 'Second' });
    const page1 = await call(t.app, 'GET', `${url(p.id)}?pageSize=1`, biz.token);
    expect(page1.json().data).toMatchObject({ total: 2, page: 1, pageSize: 1 });
    expect(page1.json().data.items.map((r: PaymentRequest) => r.transactionId)).toEqual([second.transactionId]);
    const page2 = await call(t.app, 'GET', `${url(p.id)}?pageSize=1&page=2`, biz.token);
    expect(page2.json().data.items.map((r: PaymentRequest) => r.transactionId)).toEqual([first.transactionId]);
    const views = await db()
      .selectFrom('patient_record_views')
      .select(['what', 'actor', 'user_id'])
      .where('business_id', '=', biz.businessId)
      .where('patient_id', '=', p.id)
      .execute();
    expect(views).toHaveLength(2);
    expect(views.every((v) => v.what === 'statements' && v.actor.includes('owner@statements.example') && v.user_id !== null)).toBe(true);
    const audit = (await auditDetailsOf(db(), biz.businessId, 'patient.viewed')).map((details) => ({ details }));
    expect(
      audit.filter((e) => (e.details as { patientId: string; what: string }).patientId === p.id && (e.details as { what: string }).what === 'statements'),
    ).toHaveLength(2);
  });
});

describe('the history, the CSV', () => {
  it('filters by clientId and exports the patient and the date of service', async () => {
    const a = await patient({ firstName: 'Ada', lastName: 'Filter' });
    const b = await patient({ firstName: 'Ben', lastName: 'Filter' });
    const aOne = await create(a.id);
    const bOne = await create(b.id);
    const listOf = async (q: string) =>
      (await call(t.app, 'GET', `${history()}?${q}`, biz.token)).json().data.items.map((r: PaymentRequest) => r.transactionId);
    expect(await listOf(`clientId=${a.id}`)).toEqual([aOne.transactionId]);
    expect(await listOf(`clientId=${b.id}`)).toEqual([bOne.transactionId]);
    // A plain request carries no patient.
    const payer = await insertPayer(db(), biz.businessId, { email: `plain${seq}@payers.example` });
    const plain = await call(t.app, 'POST', history(), biz.token, { payerId: payer, amountCents: 500, dueDate: dayIn(5), mode: 'draft' });
    expect(plain.statusCode, plain.body).toBe(201);
    expect(plain.json().data).toMatchObject({ clientId: null, patientName: null, statement: null });
    const csv = await call(t.app, 'GET', `${history()}/export.csv?clientId=${a.id}`, biz.token);
    expect(csv.statusCode).toBe(200);
    const [header, line, more] = csv.body
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n');
    expect(header).toMatch(/,Patient,Date of service$/);
    expect(line).toContain(',135.00,');
    expect(line).toMatch(/,Ada Filter,"\w{3} \d{1,2}, \d{4}"$/);
    expect(more).toBeUndefined();
  });
});

describe("the history filtered to a patient is a view of the patient's statements", () => {
  const viewsOf = async (patientId: string) => {
    const views = await db()
      .selectFrom('patient_record_views')
      .select(['what', 'actor', 'user_id'])
      .where('business_id', '=', biz.businessId)
      .where('patient_id', '=', patientId)
      .execute();
    const audit = (await auditDetailsOf(db(), biz.businessId, 'patient.viewed')).map((details) => ({ details }));
    return {
      // An export that held the patient's statements is on record too ('export', issue 35); these are the reads of them.
      views: views.filter((v) => v.what !== 'export'),
      audit: audit.filter((e) => (e.details as { patientId: string }).patientId === patientId),
    };
  };

  it('the list and the CSV with clientId each write one statements view (and its audit entry); without clientId, none', async () => {
    const p = await patient();
    await create(p.id);
    // Without clientId: the whole history and its CSV record no view of anyone's statements. The
    // CSV, which holds them, is an export of patient data: an 'export' view of each patient in it.
    expect((await call(t.app, 'GET', history(), biz.token)).statusCode).toBe(200);
    expect((await call(t.app, 'GET', `${history()}/export.csv`, biz.token)).statusCode).toBe(200);
    expect(await viewsOf(p.id)).toEqual({ views: [], audit: [] });
    const exported = await db().selectFrom('patient_record_views').select(['what', 'actor']).where('patient_id', '=', p.id).execute();
    expect(exported).toEqual([{ what: 'export', actor: expect.stringContaining('owner@statements.example') }]);

    const list = await call(t.app, 'GET', `${history()}?clientId=${p.id}`, viewerToken);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data.total).toBe(1);
    let seen = await viewsOf(p.id);
    expect(seen.views).toEqual([{ what: 'statements', actor: expect.stringContaining('viewer@statements.example'), user_id: expect.any(String) }]);
    expect(seen.audit.map((e) => e.details)).toEqual([{ patientId: p.id, what: 'statements' }]);

    const csv = await call(t.app, 'GET', `${history()}/export.csv?clientId=${p.id}`, biz.token);
    expect(csv.statusCode).toBe(200);
    seen = await viewsOf(p.id);
    expect(seen.views).toHaveLength(2);
    expect(seen.views.find((v) => v.actor.includes('owner@statements.example'))).toMatchObject({ what: 'statements' });
    expect(seen.audit).toHaveLength(2);
  });

  it('records nothing for an id that is no patient of the business, or a read that is refused', async () => {
    const theirs = await patient({ businessId: other.businessId });
    await create(theirs.id, {}, other);
    expect((await call(t.app, 'GET', `${history()}?clientId=${theirs.id}`, biz.token)).json().data.total).toBe(0);
    expect((await call(t.app, 'GET', `${history()}/export.csv?clientId=${theirs.id}`, biz.token)).statusCode).toBe(200);
    const p = await patient();
    // Another business's owner asks for this business's history: refused, and no view is written.
    expect((await call(t.app, 'GET', `${history()}?clientId=${p.id}`, other.token)).statusCode).toBe(404);
    const rows = await db().selectFrom('patient_record_views').select('id').where('patient_id', 'in', [theirs.id, p.id]).execute();
    expect(rows).toEqual([]);
  });
});

describe('what the payer sees', () => {
  it('the e-mail and the pay page show the first name and the lines, never the last name, date of birth or MRN', async () => {
    const p = await patient({ firstName: 'Ana', lastName: 'Secretlastname' });
    const made = await create(p.id);
    const mails = await db().selectFrom('mail_outbox').select(['text_body', 'html_body', 'subject']).where('to_address', '=', p.email).execute();
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    const raw = `${mail.subject}\n${mail.text_body}\n${mail.html_body}`;
    expect(mail.text_body).toMatch(/Statement for Ana — date of service \w{3} \d{1,2}, \d{4}/);
    expect(mail.text_body).toContain('Office visit');
    expect(mail.text_body).toContain('patient responsibility $75.00');
    expect(mail.text_body).toContain('Total: billed $350.00, insurance paid $210.00, adjustment $5.00, patient responsibility $135.00');
    expect(mail.html_body).toContain('<td style="padding:4px 6px;border-bottom:1px solid #dee2e6;text-align:left">X-ray, two views</td>');
    for (const secret of ['Secretlastname', p.mrn, '1987', '03-14', 'Mar 14']) expect(raw).not.toContain(secret);

    const token = linkOf(mail.text_body)!;
    const res = await t.app.inject({ method: 'GET', url: `/api/public/pay/${token}` });
    expect(res.statusCode, res.body).toBe(200);
    for (const secret of ['Secretlastname', p.mrn, '1987', p.id]) expect(res.body).not.toContain(secret);
    const page = res.json().data as PublicPayPage;
    expect(page.forPatient).toMatch(/^Statement for Ana — date of service /);
    expect(page.statement).toEqual(made.statement);
    expect(page.forStudent).toBeNull();
  });

  it('a payment plan: part paid, then the rest → Paid, the ledger right', async () => {
    const p = await patient();
    const made = await create(p.id, { allowPartial: true });
    expect(made.allowPartial).toBe(true);
    const [mail] = await outbox(t.app, p.email);
    expect(mail!.text).toContain('You may pay it in parts (a payment plan).');
    const token = linkOf(mail!.text)!;
    const card = () => tokenize(t.app, t.runtime, { card: CARDS.visa });
    const waitFor = (state: string) =>
      eventually(async () => {
        const row = await requestRow(db(), made.transactionId);
        return row.state === state ? row : undefined;
      }, 20_000);

    const first = await pay(t.app, token, { method: 'card', processorToken: await card(), amountCents: 5_000 });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().data).toMatchObject({ amountPaidCents: 5_000, remainingCents: 8_500 });
    await waitFor('PartiallyPaid');
    const rest = await pay(t.app, token, { method: 'card', processorToken: await card(), amountCents: 8_500 });
    expect(rest.statusCode, rest.body).toBe(201);
    const paid = await waitFor('Paid');
    expect(paid.amount_paid_cents).toBe(13_500);
    const payments = await db()
      .selectFrom('payments')
      .select(['amount_cents', 'state'])
      .where('request_id', '=', made.transactionId)
      .orderBy('created_at')
      .execute();
    expect(payments.map((x) => Number(x.amount_cents))).toEqual([5_000, 8_500]);
    // The statement is still on the paid request.
    const detail = (await call(t.app, 'GET', `${history()}/${made.transactionId}`, biz.token)).json().data as PaymentRequestDetail;
    expect(detail).toMatchObject({ transactionState: 'Paid', amountPaidCents: 13_500, statement: made.statement });

    // An overpaid visit refunded in part (ADR 051): the patient's record counts it; what was owed stays settled.
    const first_ = (await db().selectFrom('payments').select('id').where('request_id', '=', made.transactionId).orderBy('created_at').executeTakeFirstOrThrow())
      .id;
    const refunded = await call(
      t.app,
      'POST',
      `${history()}/${made.transactionId}/refunds`,
      biz.token,
      { paymentId: first_, amountCents: 2_000, reason: 'requested_by_payer' },
      { 'idempotency-key': newId('key') },
    );
    expect(refunded.statusCode, refunded.body).toBe(201);
    const record = (await call(t.app, 'GET', `/api/businesses/${biz.businessId}/healthcare-clients/${p.id}`, biz.token)).json().data;
    expect(record).toMatchObject({ refundedCents: 2_000, outstandingCents: 0, statementsCount: 1 });
  });
});
