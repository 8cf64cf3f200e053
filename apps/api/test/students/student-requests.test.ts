import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaymentRequest, PaymentRequestDetail, PublicPayPage } from '@tay/contract';
import { newId } from '../../src/lib/ids';
import { insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { errorOf } from '../support/identity';
import { call, dayIn, outbox } from '../support/requests';
import { insertStudent } from '../support/students';
import { templateBusinesses } from '../support/template-businesses';
import { createTestApp, type TestApp } from '../support/test-app';
import { withSource } from '../support/request-rows';

/**
 * A request to pay for one student (issue 21, ADR 036): billed to the student's first guardian,
 * or to both (one request, the same link e-mailed to each); the request, its list item, its
 * e-mail and its pay page say whom it is for, and the history filters by student, program and period.
 */

let t: TestApp;
let biz: ApprovedBusiness;
let other: ApprovedBusiness;
let standard: ApprovedBusiness;
let viewerToken: string;
const db = () => t.runtime.database.db;

beforeAll(async () => {
  t = await createTestApp();
  ({ biz, other, standard, viewerToken } = await templateBusinesses(t.app, db(), 'student', 'student-requests'));
});
afterAll(async () => t?.close());

const url = (studentId: string, b = biz) => `/api/businesses/${b.businessId}/students/${studentId}/payment-requests`;
const history = (b = biz) => `/api/businesses/${b.businessId}/payment-requests`;
let seq = 0;

/** A student with one or two guardians (each a new payer with its own e-mail). */
async function student(over: { guardians?: number; status?: 'active' | 'Disabled'; businessId?: string; firstName?: string; lastName?: string } = {}) {
  seq++;
  const businessId = over.businessId ?? biz.businessId;
  const emails = Array.from({ length: over.guardians ?? 2 }, (_, i) => `guardian${seq}-${i + 1}@families.example`);
  const guardians = [];
  for (const [i, email] of emails.entries()) guardians.push(await insertPayer(db(), businessId, { email, displayName: `Guardian ${seq}-${i + 1}` }));
  const studentId = await insertStudent(db(), businessId, {
    studentNumber: `SR-${seq}`,
    firstName: over.firstName ?? 'Mia',
    lastName: over.lastName ?? `Lopez${seq}`,
    grade: 'Year 5',
    dateOfBirth: '2016-03-14',
    status: over.status ?? 'active',
    guardians,
  });
  return { studentId, guardians, emails, name: `${over.firstName ?? 'Mia'} ${over.lastName ?? `Lopez${seq}`}` };
}

/** A program the student is enrolled in (or not, with `enroll: false`). */
async function program(studentId: string, name: string, { enroll = true, businessId = biz.businessId } = {}) {
  const programId = newId('prg');
  await db()
    .insertInto('programs')
    .values({ business_id: businessId, id: programId, name, fee_cents: 12_500, frequency: 'monthly', start_date: '2026-01-01', created_by: null } as never)
    .execute();
  if (enroll) {
    await db()
      .insertInto('enrollments')
      .values({ business_id: businessId, id: newId('enr'), student_id: studentId, program_id: programId, start_date: '2026-01-01', created_by: null } as never)
      .execute();
  }
  return programId;
}

const body = (over: Record<string, unknown> = {}) => ({
  amountCents: 12_500,
  memo: 'Monthly lessons',
  reference: 'FEE-12',
  dueDate: dayIn(10),
  allowPartial: false,
  mode: 'send',
  billTo: 'guardian',
  ...over,
});

async function create(studentId: string, over: Record<string, unknown> = {}, b = biz): Promise<PaymentRequest> {
  const res = await call(t.app, 'POST', url(studentId, b), b.token, body(over));
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as PaymentRequest;
}

const linkOf = (text: string) => /\/pay\/([\w-]+)/.exec(text)?.[1];

describe('POST /api/businesses/:id/students/:studentId/payment-requests', () => {
  it('sends one request to the first guardian and the same link to the second, saying whom it is for', async () => {
    const s = await student({ firstName: 'Mia', lastName: 'Lopez' });
    const programId = await program(s.studentId, `Piano ${seq}`);
    const made = await create(s.studentId, { billTo: 'both', programId, period: '2026-12' });
    expect(made).toMatchObject({
      transactionState: 'Sent',
      payerId: s.guardians[0],
      amountCents: 12_500,
      student: { studentId: s.studentId, name: 'Mia Lopez' },
      program: { programId, name: `Piano ${seq}` },
      period: 'December 2026',
    });
    const row = withSource(await db().selectFrom('payment_requests').selectAll().where('id', '=', made.transactionId).executeTakeFirstOrThrow());
    expect(row).toMatchObject({ copy_payer_id: s.guardians[1], student_name: 'Mia Lopez', period: 'December 2026' });
    expect(String(row.period_start)).toMatch(/^2026-12-01/);
    // One request, two e-mails, one link.
    const count = await db()
      .selectFrom('payment_requests')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('source_id', '=', s.studentId)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
    const [first] = await outbox(t.app, s.emails[0]!);
    const [second] = await outbox(t.app, s.emails[1]!);
    expect(first!.text).toContain(`For Mia Lopez — Piano ${seq}, December 2026`);
    expect(second!.text).toContain(`For Mia Lopez — Piano ${seq}, December 2026`);
    expect(linkOf(first!.text)).toBeDefined();
    expect(linkOf(second!.text)).toBe(linkOf(first!.text));
    // The request's detail lists both e-mails and names the student.
    const detail = (await call(t.app, 'GET', `${history()}/${made.transactionId}`, biz.token)).json().data as PaymentRequestDetail;
    expect(detail.student).toEqual({ studentId: s.studentId, name: 'Mia Lopez' });
    expect(detail.program).toEqual({ programId, name: `Piano ${seq}` });
    expect(detail.period).toBe('December 2026');
    expect(detail.emails.map((m) => m.to).sort()).toEqual([...s.emails].sort());
    expect(detail.timeline.find((e) => e.event === 'send')?.detail).toContain(`and e-mailed to ${s.emails[1]}`);
    // A resend goes to both again, with the new link.
    const resent = await call(t.app, 'POST', `${history()}/${made.transactionId}/resend`, biz.token);
    expect(resent.statusCode, resent.body).toBe(200);
    const [again1] = await outbox(t.app, s.emails[0]!);
    const [again2] = await outbox(t.app, s.emails[1]!);
    expect(linkOf(again1!.text)).not.toBe(linkOf(first!.text));
    expect(linkOf(again2!.text)).toBe(linkOf(again1!.text));
  });

  it('bills the first guardian only by default, e-mailing no one else', async () => {
    const s = await student();
    const made = await create(s.studentId, { billTo: undefined });
    expect(made.payerId).toBe(s.guardians[0]);
    expect(made.program).toBeNull();
    expect(made.period).toBeNull();
    expect(await outbox(t.app, s.emails[0]!)).toHaveLength(1);
    expect(await outbox(t.app, s.emails[1]!)).toHaveLength(0);
    const [mail] = await outbox(t.app, s.emails[0]!);
    expect(mail!.text).toContain(`For ${s.name}`);
  });

  it('saves a draft and schedules one, sending nothing yet', async () => {
    const s = await student();
    const draft = await create(s.studentId, { mode: 'draft', billTo: 'both', period: 'Term 1 2026–27' });
    expect(draft).toMatchObject({ transactionState: 'Draft', period: 'Term 1 2026–27', student: { studentId: s.studentId } });
    const { period_start, copy_payer_id } = withSource(
      await db().selectFrom('payment_requests').selectAll().where('id', '=', draft.transactionId).executeTakeFirstOrThrow(),
    );
    expect({ period_start, copy_payer_id }).toEqual({ period_start: null, copy_payer_id: s.guardians[1] });
    const scheduled = await create(s.studentId, { mode: 'schedule', sendAt: new Date(Date.now() + 2 * 86_400_000).toISOString() });
    expect(scheduled.transactionState).toBe('Pending');
    expect(await outbox(t.app, s.emails[0]!)).toHaveLength(0);
    expect(await outbox(t.app, s.emails[1]!)).toHaveLength(0);
  });

  it('answers a retry with the same Idempotency-Key with the same request', async () => {
    const s = await student();
    const key = `key-${newId('k')}`;
    const a = await call(t.app, 'POST', url(s.studentId), biz.token, body(), { 'idempotency-key': key });
    const b = await call(t.app, 'POST', url(s.studentId), biz.token, body(), { 'idempotency-key': key });
    expect(a.statusCode, a.body).toBe(201);
    expect(b.json().data.transactionId).toBe(a.json().data.transactionId);
    expect(await outbox(t.app, s.emails[0]!)).toHaveLength(1);
  });

  it('bills an enrollment for a month once, whichever way it is billed; deleting the draft releases it', async () => {
    const s = await student();
    const programId = await program(s.studentId, `Violin ${newId('v')}`);
    const draft = await create(s.studentId, { mode: 'draft', programId, period: '2027-06' });
    const charges = () =>
      db().selectFrom('student_charges').select(['request_id', 'period_start', 'amount_cents']).where('student_id', '=', s.studentId).execute();
    expect((await charges()).map((c) => [c.request_id, String(c.period_start).slice(0, 10), Number(c.amount_cents)])).toEqual([
      [draft.transactionId, '2027-06-01', 12_500],
    ]);
    const again = await call(t.app, 'POST', url(s.studentId), biz.token, body({ programId, period: '2027-06' }));
    expect(again.statusCode, again.body).toBe(409);
    expect(errorOf(again).message).toMatch(/^Mia Lopez\d* was billed for Violin v_\w+, June 2027 already \(TRX-\d+\)\.$/);
    expect(errorOf(again).message).toContain(`(${draft.referenceNumber})`);
    expect(errorOf(again).fields).toHaveProperty('period');
    const deleted = await call(t.app, 'DELETE', `/api/businesses/${biz.businessId}/payment-requests/${draft.transactionId}`, biz.token);
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
    expect(await charges()).toEqual([]);
    const billed = await create(s.studentId, { programId, period: '2027-06' });
    expect((await charges()).map((c) => c.request_id)).toEqual([billed.transactionId]);
  });

  it('writes the audit trail', async () => {
    const s = await student();
    await create(s.studentId, { mode: 'draft' });
    const events = await db()
      .selectFrom('business_events')
      .select(['action', 'details'])
      .where('business_id', '=', biz.businessId)
      .where('action', '=', 'student.request_created')
      .execute();
    const mine = events.map((e) => e.details as { studentId: string; requestId: string }).find((d) => d.studentId === s.studentId);
    expect(mine?.requestId).toMatch(/^req_/);
  });

  describe('refusals (each names its field, and makes nothing)', () => {
    const count = async (studentId: string) =>
      Number(
        (
          await db()
            .selectFrom('payment_requests')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .where('source_id', '=', studentId)
            .executeTakeFirstOrThrow()
        ).n,
      );

    it('both guardians for a student who has one', async () => {
      const s = await student({ guardians: 1 });
      const res = await call(t.app, 'POST', url(s.studentId), biz.token, body({ billTo: 'both' }));
      expect(res.statusCode, res.body).toBe(400);
      expect(errorOf(res).fields).toHaveProperty('billTo');
      expect(errorOf(res).message).toMatch(/one guardian/);
      expect(await count(s.studentId)).toBe(0);
      expect(await outbox(t.app, s.emails[0]!)).toHaveLength(0);
    });

    it('a program the student is not enrolled in, or one of another business', async () => {
      const s = await student();
      const notEnrolled = await program(s.studentId, `Violin ${seq}`, { enroll: false });
      const res = await call(t.app, 'POST', url(s.studentId), biz.token, body({ programId: notEnrolled }));
      expect(res.statusCode).toBe(400);
      expect(errorOf(res).fields).toHaveProperty('programId');
      const theirs = await program(s.studentId, `Theirs ${seq}`, { enroll: false, businessId: other.businessId });
      const res2 = await call(t.app, 'POST', url(s.studentId), biz.token, body({ programId: theirs }));
      expect(res2.statusCode).toBe(400);
      expect(errorOf(res2).fields).toHaveProperty('programId');
      expect(await count(s.studentId)).toBe(0);
    });

    it('a withdrawn enrollment is not enrolled', async () => {
      const s = await student();
      const programId = await program(s.studentId, `Drums ${seq}`);
      await db().updateTable('enrollments').set({ status: 'Withdrawn', end_date: '2026-06-30' }).where('student_id', '=', s.studentId).execute();
      const res = await call(t.app, 'POST', url(s.studentId), biz.token, body({ programId }));
      expect(res.statusCode).toBe(400);
      expect(errorOf(res).fields).toHaveProperty('programId');
    });

    it('a deactivated student', async () => {
      const s = await student({ status: 'Disabled' });
      const res = await call(t.app, 'POST', url(s.studentId), biz.token, body());
      expect(res.statusCode).toBe(400);
      expect(errorOf(res).fields).toHaveProperty('studentId');
      expect(await count(s.studentId)).toBe(0);
    });

    it('a student with no guardian', async () => {
      const s = await student({ guardians: 0 });
      const res = await call(t.app, 'POST', url(s.studentId), biz.token, body());
      expect(res.statusCode).toBe(400);
      expect(errorOf(res).message).toMatch(/no guardian/);
    });

    it('bad input: amount, due date, whom to bill, the period', async () => {
      const s = await student();
      for (const [over, field] of [
        [{ amountCents: 0 }, 'amountCents'],
        [{ amountCents: 12.5 }, 'amountCents'],
        [{ dueDate: '2020-01-01' }, 'dueDate'],
        [{ billTo: 'everyone' }, 'billTo'],
        [{ period: 'x'.repeat(51) }, 'period'],
        [{ mode: 'schedule' }, 'sendAt'],
      ] as const) {
        const res = await call(t.app, 'POST', url(s.studentId), biz.token, body(over));
        expect(res.statusCode, JSON.stringify(over)).toBe(400);
        expect(errorOf(res).fields, JSON.stringify(over)).toHaveProperty(field);
      }
      expect(await count(s.studentId)).toBe(0);
    });

    it("another business's student is 404", async () => {
      const theirs = await student({ businessId: other.businessId });
      const res = await call(t.app, 'POST', url(theirs.studentId), biz.token, body());
      expect(res.statusCode).toBe(404);
      expect(await count(theirs.studentId)).toBe(0);
    });

    it('a business of another template is 404, saying the endpoint is the student template’s', async () => {
      const s = await student();
      for (const [method, path] of [
        ['POST', url(s.studentId, standard)],
        ['GET', `/api/businesses/${standard.businessId}/students/balances`],
        ['GET', `/api/businesses/${standard.businessId}/students/balances/export.csv`],
      ] as const) {
        const res = await call(t.app, method, path, standard.token, method === 'POST' ? body() : undefined);
        expect(res.statusCode, path).toBe(404);
        expect(errorOf(res).message).toMatch(/student template/);
      }
    });

    it('a viewer may not make one', async () => {
      const s = await student();
      const res = await call(t.app, 'POST', url(s.studentId), viewerToken, body());
      expect(res.statusCode).toBe(403);
      expect(await count(s.studentId)).toBe(0);
    });
  });
});

describe('students on the history and the pay page', () => {
  it('lists the student, program and period, and filters by each', async () => {
    const a = await student({ firstName: 'Ada', lastName: 'Filter' });
    const b = await student({ firstName: 'Ben', lastName: 'Filter' });
    const piano = await program(a.studentId, `Piano F${seq}`);
    const aDec = await create(a.studentId, { programId: piano, period: '2026-12', mode: 'draft' });
    const aJan = await create(a.studentId, { programId: piano, period: '2027-01' });
    const bJan = await create(b.studentId, { period: '2027-01' });
    const listOf = async (q: string, view = 'history') => {
      const res = await call(t.app, 'GET', `${history()}?view=${view}&${q}`, biz.token);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().data.items as PaymentRequest[]).map((r) => r.transactionId);
    };
    expect(await listOf(`studentId=${a.studentId}`)).toEqual([aJan.transactionId]);
    expect(await listOf(`studentId=${a.studentId}`, 'draft')).toEqual([aDec.transactionId]);
    expect(await listOf(`programId=${piano}`)).toEqual([aJan.transactionId]);
    expect((await listOf(`period=${encodeURIComponent('January 2027')}`)).sort()).toEqual([aJan.transactionId, bJan.transactionId].sort());
    expect(await listOf(`period=${encodeURIComponent('January 2027')}&studentId=${b.studentId}`)).toEqual([bJan.transactionId]);
    const page = await call(t.app, 'GET', `${history()}?studentId=${a.studentId}`, biz.token);
    expect(page.json().data.total).toBe(1);
    const item = page.json().data.items[0] as PaymentRequest;
    expect(item).toMatchObject({
      student: { studentId: a.studentId, name: 'Ada Filter' },
      program: { programId: piano, name: `Piano F${seq}` },
      period: 'January 2027',
    });
    // A request of no student says so with nulls.
    const payer = await insertPayer(db(), biz.businessId, { email: `plain${seq}@payers.example` });
    const plain = await call(t.app, 'POST', history(), biz.token, { payerId: payer, amountCents: 500, dueDate: dayIn(5), mode: 'draft' });
    expect(plain.statusCode, plain.body).toBe(201);
    expect(plain.json().data).toMatchObject({ student: null, program: null, period: null });
    // Another business's filter finds none of these.
    const theirs = await call(t.app, 'GET', `${history(other)}?studentId=${a.studentId}`, other.token);
    expect(theirs.json().data.total).toBe(0);
  });

  it('exports the student, program and period columns for a student-template business', async () => {
    const s = await student({ firstName: 'Cara', lastName: 'Export' });
    const piano = await program(s.studentId, `Cello E${seq}`);
    await create(s.studentId, { programId: piano, period: '2026-11' });
    const res = await call(t.app, 'GET', `${history()}/export.csv?studentId=${s.studentId}`, biz.token);
    expect(res.statusCode).toBe(200);
    const [header, line] = res.body
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n');
    expect(header).toMatch(/,Student,Program,Period$/);
    expect(line).toMatch(new RegExp(`,Cara Export,Cello E${seq},November 2026$`));
    // A standard business's export keeps its columns.
    const std = await call(t.app, 'GET', `${history(standard)}/export.csv`, standard.token);
    expect(std.body).not.toContain('Student');
  });

  it('shows the payer whom it is for — the student’s name, program and period, nothing else of the student', async () => {
    const s = await student({ firstName: 'Mia', lastName: 'Private' });
    const violin = await program(s.studentId, `Violin P${seq}`);
    await create(s.studentId, { programId: violin, period: '2026-12', billTo: 'both' });
    const [mail] = await outbox(t.app, s.emails[1]!);
    const token = linkOf(mail!.text)!;
    const res = await t.app.inject({ method: 'GET', url: `/api/public/pay/${token}` });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json().data as PublicPayPage;
    expect(page.forStudent).toBe(`For Mia Private — Violin P${seq}, December 2026`);
    // Not the student's id, number, grade or date of birth.
    expect(res.body).not.toContain(s.studentId);
    expect(res.body).not.toContain(`SR-${seq}`);
    expect(res.body).not.toContain('Year 5');
    expect(res.body).not.toContain('2016-03-14');
  });
});
