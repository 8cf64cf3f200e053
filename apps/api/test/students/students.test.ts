import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Student, StudentInput } from '@tay/contract';
import { newId } from '../../src/lib/ids';
import { approvedBusiness, inDays, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { errorOf } from '../support/identity';
import { call } from '../support/requests';
import { insertStudent, insertStudentRequest } from '../support/students';
import { expectPartyReadOnly, templateBusinesses, expectOtherTemplateRefused, type EndpointCall } from '../support/template-businesses';
import { createTestApp, type TestApp } from '../support/test-app';
import { auditActionsNaming } from '../support/audit';

/**
 * Students and their guardians (issue 21, ADR 036): only a student-template business has them;
 * guardians are payers, found by id or e-mail or made with the student, never duplicated.
 */

let t: TestApp;
let biz: ApprovedBusiness;
let other: ApprovedBusiness;
let standard: ApprovedBusiness;
let viewerToken: string;
const db = () => t.runtime.database.db;

beforeAll(async () => {
  t = await createTestApp();
  ({ biz, other, standard, viewerToken } = await templateBusinesses(t.app, db(), 'student', 'school'));
});
afterAll(async () => t?.close());

const base = (b = biz) => `/api/businesses/${b.businessId}/students`;
let seq = 0;

function input(over: Partial<StudentInput> = {}): StudentInput {
  seq++;
  return {
    studentNumber: `S-${1000 + seq}`,
    firstName: 'Mia',
    lastName: `Lopez${seq}`,
    grade: 'Year 5',
    dateOfBirth: '2016-03-14',
    guardians: [{ firstName: 'Ana', lastName: 'Lopez', email: `ana${seq}@families.example` }],
    ...over,
  };
}

async function create(over: Partial<StudentInput> = {}, b = biz): Promise<Student> {
  const res = await call(t.app, 'POST', base(b), b.token, input(over));
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as Student;
}

async function payerCount(businessId = biz.businessId): Promise<number> {
  const row = await db()
    .selectFrom('payers')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('business_id', '=', businessId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

function auditActions(needle: string): Promise<string[]> {
  return auditActionsNaming(db(), biz.businessId, needle);
}

describe('access', () => {
  it('answers a business of another template 404, saying the endpoints belong to the student template', async () => {
    const s = `${base(standard)}/stu_x`;
    const calls: EndpointCall[] = [
      ['GET', base(standard)],
      ['GET', `${base(standard)}/export`],
      ['POST', base(standard), input()],
      ['GET', s],
      ['PATCH', s, input()],
      ['DELETE', s],
      ['POST', `${s}/activate`],
      ['POST', `${s}/deactivate`],
    ];
    await expectOtherTemplateRefused(t.app, standard.token, calls, /student template/);
    const students = await db().selectFrom('students').select('id').where('business_id', '=', standard.businessId).execute();
    expect(students).toHaveLength(0);
  });

  it("answers another business's student as 404, and leaves it alone", async () => {
    const mine = await create();
    for (const [method, suffix, body] of [
      ['GET', '', undefined],
      ['PATCH', '', input()],
      ['DELETE', '', undefined],
      ['POST', '/activate', undefined],
      ['POST', '/deactivate', undefined],
    ] as const) {
      const res = await call(t.app, method, `${base(other)}/${mine.studentId}${suffix}`, other.token, body);
      expect(res.statusCode, `${method} ${suffix}`).toBe(404);
    }
    const list = await call(t.app, 'GET', base(other), other.token);
    expect(list.json().data.items.map((s: Student) => s.studentId)).not.toContain(mine.studentId);
    const still = await call(t.app, 'GET', `${base()}/${mine.studentId}`, biz.token);
    expect(still.json().data.status).toBe('active');
  });

  it("refuses another business's payer as a guardian with 404, making nothing", async () => {
    const theirs = await insertPayer(db(), other.businessId);
    const before = await payerCount();
    const res = await call(
      t.app,
      'POST',
      base(),
      biz.token,
      input({ guardians: [{ payerId: theirs }, { firstName: 'New', lastName: 'Person', email: 'np@families.example' }] }),
    );
    expect(res.statusCode, res.body).toBe(404);
    expect(errorOf(res).fields).toEqual({ 'guardians.0.payerId': expect.any(String) });
    expect(await payerCount()).toBe(before);
  });

  it('lets a viewer read but not change students', async () => {
    const mine = await create();
    expect((await call(t.app, 'GET', base(), viewerToken)).statusCode).toBe(200);
    expect((await call(t.app, 'GET', `${base()}/${mine.studentId}`, viewerToken)).statusCode).toBe(200);
    expect((await call(t.app, 'GET', `${base()}/export`, viewerToken)).statusCode).toBe(200);
    await expectPartyReadOnly(t.app, base(), mine.studentId, { viewer: viewerToken, owner: biz.token }, () => input());
  });
});

describe('create', () => {
  it('adds a student with an existing payer and a new guardian made a payer, and records both', async () => {
    const existing = await insertPayer(db(), biz.businessId, { displayName: 'Sam Lee' });
    const before = await payerCount();
    const s = await create({
      studentNumber: 'LEE-7',
      firstName: 'Leo',
      lastName: 'Lee',
      guardians: [{ payerId: existing }, { firstName: 'Kim', lastName: 'Lee', email: 'Kim.Lee@Families.example', mobile: '+14155550123' }],
    });
    expect(s).toMatchObject({ studentNumber: 'LEE-7', name: 'Leo Lee', grade: 'Year 5', dateOfBirth: '2016-03-14', status: 'active', requestsCount: 0 });
    expect(s.guardians.map((g) => [g.position, g.name, g.email])).toEqual([
      [1, 'Sam Lee', expect.any(String)],
      [2, 'Kim Lee', 'kim.lee@families.example'],
    ]);
    expect(s.guardians[1]!.mobile).toBe('+14155550123');
    expect(s.actions).toEqual(['Edit', 'Request to Pay', 'Enrollment', 'Transactions', 'Deactivate', 'Delete']);
    expect(await payerCount()).toBe(before + 1);
    const actions = await auditActions(s.studentId);
    expect(actions).toContain('student.created');
    expect(actions).toContain('payer.created');
  });

  it("uses the payer who has a new guardian's e-mail instead of making another, and lets one payer guard siblings", async () => {
    const first = await create({ guardians: [{ firstName: 'Pat', lastName: 'Parent', email: 'pat.parent@families.example' }] });
    const before = await payerCount();
    const sibling = await create({ guardians: [{ firstName: 'Patricia', lastName: 'Parent', email: 'PAT.parent@families.example' }] });
    expect(sibling.guardians[0]!.payerId).toBe(first.guardians[0]!.payerId);
    expect(await payerCount()).toBe(before);
    const third = await create({ guardians: [{ payerId: first.guardians[0]!.payerId }] });
    expect(third.guardians[0]!.payerId).toBe(first.guardians[0]!.payerId);
  });

  it('makes one payer when two students with the same new guardian are added at once', async () => {
    const guardian = { firstName: 'Twin', lastName: 'Parent', email: 'twin.parent@families.example' };
    const [a, b] = await Promise.all([
      call(t.app, 'POST', base(), biz.token, input({ guardians: [guardian] })),
      call(t.app, 'POST', base(), biz.token, input({ guardians: [guardian] })),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(a.json().data.guardians[0].payerId).toBe(b.json().data.guardians[0].payerId);
    const payers = await db().selectFrom('payers').select('id').where('business_id', '=', biz.businessId).where('email', '=', guardian.email).execute();
    expect(payers).toHaveLength(1);
  });

  it('refuses the same student id added twice at once: one is added, the other is told (409)', async () => {
    const body = input({ studentNumber: 'RACE-1' });
    const answers = await Promise.all([call(t.app, 'POST', base(), biz.token, body), call(t.app, 'POST', base(), biz.token, body)]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409]);
  });

  it('names every invalid field with a clear 400', async () => {
    const res = await call(t.app, 'POST', base(), biz.token, { studentNumber: ' ', firstName: '', guardians: [] });
    expect(res.statusCode).toBe(400);
    const fields = errorOf(res).fields!;
    expect(fields.studentNumber).toBe('Enter the student id.');
    expect(fields.firstName).toBe('Enter the first name.');
    expect(fields.lastName).toBe('Enter the last name.');
    expect(fields.guardians).toMatch(/at least one guardian/);

    const bad = await call(
      t.app,
      'POST',
      base(),
      biz.token,
      input({ dateOfBirth: '14/03/2016', grade: 'x'.repeat(51), guardians: [{ firstName: 'A', email: 'not-an-email', mobile: '555' }] }),
    );
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad).fields).toMatchObject({
      dateOfBirth: 'Enter the date of birth as YYYY-MM-DD.',
      grade: 'Use at most 50 characters.',
      'guardians.0.email': 'Enter a valid e-mail address.',
      'guardians.0.lastName': expect.stringMatching(/last name/),
      'guardians.0.mobile': expect.stringMatching(/mobile number/),
    });

    const three = await call(t.app, 'POST', base(), biz.token, input({ guardians: [{ payerId: 'a' }, { payerId: 'b' }, { payerId: 'c' }] }));
    expect(errorOf(three).fields?.guardians).toBe('A student has at most two guardians.');
    const twice = await call(t.app, 'POST', base(), biz.token, input({ guardians: [{ payerId: 'pyr_1' }, { payerId: 'pyr_1' }] }));
    expect(errorOf(twice).fields?.['guardians.1.payerId']).toBe('The second guardian is the same as the first.');
  });

  it('refuses a date of birth in the future', async () => {
    const res = await call(t.app, 'POST', base(), biz.token, input({ dateOfBirth: inDays(3) }));
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).fields).toEqual({ dateOfBirth: 'The date of birth cannot be in the future.' });
  });

  it('refuses a taken student id (any case) with 409 naming it, and makes no payer', async () => {
    await create({ studentNumber: 'DUP-1' });
    const before = await payerCount();
    const res = await call(
      t.app,
      'POST',
      base(),
      biz.token,
      input({ studentNumber: 'dup-1', guardians: [{ firstName: 'X', lastName: 'Y', email: 'xy-dup@families.example' }] }),
    );
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).fields?.studentNumber).toMatch(/already has the student id dup-1/);
    expect(await payerCount()).toBe(before);
    // Another business may use the same student id.
    await create({ studentNumber: 'DUP-1' }, other);
  });

  it('refuses a Disabled payer as a guardian, by id or by e-mail', async () => {
    const off = await insertPayer(db(), biz.businessId, { status: 'Disabled', displayName: 'Dee Disabled', email: 'dee@families.example' });
    const byId = await call(t.app, 'POST', base(), biz.token, input({ guardians: [{ payerId: off }] }));
    expect(byId.statusCode).toBe(400);
    expect(errorOf(byId).fields?.['guardians.0.payerId']).toMatch(/Dee Disabled is deactivated/);
    const byEmail = await call(t.app, 'POST', base(), biz.token, input({ guardians: [{ firstName: 'Dee', lastName: 'D', email: 'dee@families.example' }] }));
    expect(byEmail.statusCode).toBe(400);
    expect(errorOf(byEmail).fields?.['guardians.0.email']).toMatch(/deactivated/);
  });
});

describe('list and export', () => {
  let school: ApprovedBusiness;
  const listOf = async (query: string) => {
    const res = await call(t.app, 'GET', `${base(school)}${query}`, school.token);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { items: Student[]; total: number; grades: string[]; page: number; pageSize: number };
  };

  beforeAll(async () => {
    school = await approvedBusiness(t.app, db(), 'owner@list-school.example', 'student');
    const guardian = await insertPayer(db(), school.businessId, { email: 'zed.guardian@families.example', displayName: 'Zed Guardian' });
    await insertStudent(db(), school.businessId, { studentNumber: 'A-1', firstName: 'Amy', lastName: 'Adams', grade: 'Year 1' });
    const bob = await insertStudent(db(), school.businessId, {
      studentNumber: 'B-2',
      firstName: 'Bob',
      lastName: 'Brown',
      grade: 'Year 2',
      guardians: [guardian],
    });
    await insertStudent(db(), school.businessId, { studentNumber: 'C-3', firstName: 'Cal', lastName: 'Cruz', grade: 'Year 2', status: 'Disabled' });
    const programId = newId('prg');
    await db()
      .insertInto('programs')
      .values({
        business_id: school.businessId,
        id: programId,
        name: 'Piano',
        fee_cents: 12500,
        frequency: 'monthly',
        start_date: '2026-01-01',
        end_date: null,
        capacity: null,
        created_by: null,
        enrolled_count: 1,
      })
      .execute();
    await db()
      .insertInto('enrollments')
      .values({
        business_id: school.businessId,
        id: newId('enr'),
        student_id: bob,
        program_id: programId,
        start_date: '2026-01-01',
        end_date: null,
        created_by: null,
      })
      .execute();
    (school as ApprovedBusiness & { programId?: string }).programId = programId;
  });

  it('searches by name, student id and guardian e-mail', async () => {
    expect((await listOf('?search=amy')).items.map((s) => s.studentNumber)).toEqual(['A-1']);
    expect((await listOf('?search=c-3')).items.map((s) => s.studentNumber)).toEqual(['C-3']);
    expect((await listOf('?search=zed.guardian')).items.map((s) => s.studentNumber)).toEqual(['B-2']);
    const none = await listOf('?search=nobody-here');
    expect(none).toMatchObject({ items: [], total: 0 });
  });

  it('filters by grade, status and program, and lists the grades', async () => {
    const all = await listOf('');
    expect(all.total).toBe(3);
    expect(all.grades).toEqual(['Year 1', 'Year 2']);
    expect((await listOf('?grade=Year%202')).items.map((s) => s.studentNumber).sort()).toEqual(['B-2', 'C-3']);
    expect((await listOf('?status=Disabled')).items.map((s) => s.studentNumber)).toEqual(['C-3']);
    const programId = (school as ApprovedBusiness & { programId?: string }).programId!;
    const enrolled = await listOf(`?programId=${programId}`);
    expect(enrolled.items.map((s) => s.studentNumber)).toEqual(['B-2']);
    expect(enrolled.items[0]!.programs).toEqual(['Piano']);
    const bad = await call(t.app, 'GET', `${base(school)}?status=gone`, school.token);
    expect(bad.statusCode).toBe(400);
  });

  it('sorts and pages', async () => {
    expect((await listOf('?sortBy=name&sortDirection=asc')).items.map((s) => s.firstName)).toEqual(['Amy', 'Bob', 'Cal']);
    expect((await listOf('?sortBy=studentNumber&sortDirection=desc')).items.map((s) => s.studentNumber)).toEqual(['C-3', 'B-2', 'A-1']);
    const page2 = await listOf('?sortBy=name&sortDirection=asc&page=2&pageSize=2');
    expect(page2).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(page2.items.map((s) => s.firstName)).toEqual(['Cal']);
  });

  it('exports the same query as CSV', async () => {
    const res = await call(t.app, 'GET', `${base(school)}/export?grade=Year%202&sortBy=name&sortDirection=asc`, school.token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/csv/);
    const lines = res.body
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toMatch(/^Student id,First name,Last name,Grade/);
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^B-2,Bob,Brown,Year 2,,Active,Zed Guardian,zed.guardian@families.example,,,Piano,/);
    expect(lines[2]).toMatch(/^C-3,Cal,Cruz,Year 2,,Disabled,/);
  });
});

describe('update, activate and deactivate', () => {
  it('edits the fields and replaces the guardians, recording what changed', async () => {
    const s = await create();
    const second = await insertPayer(db(), biz.businessId, { displayName: 'Second Guardian' });
    const res = await call(
      t.app,
      'PATCH',
      `${base()}/${s.studentId}`,
      biz.token,
      input({
        studentNumber: 'EDIT-1',
        firstName: 'Maya',
        grade: 'Year 6',
        dateOfBirth: null,
        guardians: [{ payerId: second }, { payerId: s.guardians[0]!.payerId }],
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const updated = res.json().data as Student;
    expect(updated).toMatchObject({ studentNumber: 'EDIT-1', firstName: 'Maya', grade: 'Year 6', dateOfBirth: null });
    expect(updated.guardians.map((g) => g.payerId)).toEqual([second, s.guardians[0]!.payerId]);
    const event = await db()
      .selectFrom('business_events')
      .select('details')
      .where('business_id', '=', biz.businessId)
      .where('action', '=', 'student.updated')
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    expect((event.details as { changed: string[] }).changed).toEqual(
      expect.arrayContaining(['studentNumber', 'firstName', 'grade', 'dateOfBirth', 'guardians']),
    );
  });

  it('keeps a guardian deactivated since, but refuses adding a deactivated payer', async () => {
    const s = await create();
    const guardian = s.guardians[0]!.payerId;
    await db().updateTable('payers').set({ status: 'Disabled' }).where('id', '=', guardian).execute();
    const off = await insertPayer(db(), biz.businessId, { status: 'Disabled', displayName: 'Otto Off' });
    const kept = await call(
      t.app,
      'PATCH',
      `${base()}/${s.studentId}`,
      biz.token,
      input({ studentNumber: s.studentNumber, guardians: [{ payerId: guardian }] }),
    );
    expect(kept.statusCode, kept.body).toBe(200);
    const added = await call(
      t.app,
      'PATCH',
      `${base()}/${s.studentId}`,
      biz.token,
      input({ studentNumber: s.studentNumber, guardians: [{ payerId: guardian }, { payerId: off }] }),
    );
    expect(added.statusCode).toBe(400);
    expect(errorOf(added).fields).toEqual({ 'guardians.1.payerId': expect.stringMatching(/Otto Off is deactivated/) });
  });

  it("refuses another student's id on edit, and keeps the student as it was", async () => {
    const a = await create({ studentNumber: 'TAKEN-1' });
    const b = await create();
    const res = await call(t.app, 'PATCH', `${base()}/${b.studentId}`, biz.token, input({ studentNumber: 'taken-1', firstName: 'Changed' }));
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).fields?.studentNumber).toBeDefined();
    const after = await call(t.app, 'GET', `${base()}/${b.studentId}`, biz.token);
    expect(after.json().data.firstName).toBe(b.firstName);
    expect(a.studentNumber).toBe('TAKEN-1');
  });

  it('deactivates and activates, refusing a repeat with 409', async () => {
    const s = await create();
    const off = await call(t.app, 'POST', `${base()}/${s.studentId}/deactivate`, biz.token);
    expect(off.statusCode).toBe(200);
    expect(off.json().data.status).toBe('Disabled');
    expect(off.json().data.actions).toContain('Activate');
    expect(off.json().data.actions).not.toContain('Request to Pay');
    const again = await call(t.app, 'POST', `${base()}/${s.studentId}/deactivate`, biz.token);
    expect(again.statusCode).toBe(409);
    const on = await call(t.app, 'POST', `${base()}/${s.studentId}/activate`, biz.token);
    expect(on.json().data.status).toBe('active');
    expect(await auditActions(s.studentId)).toEqual(expect.arrayContaining(['student.deactivated', 'student.activated']));
  });
});

describe('delete', () => {
  it('refuses a student a payment request names (409), keeping them', async () => {
    const s = await create();
    await insertStudentRequest(db(), biz.businessId, s.studentId, s.guardians[0]!.payerId);
    const got = await call(t.app, 'GET', `${base()}/${s.studentId}`, biz.token);
    expect(got.json().data.requestsCount).toBe(1);
    expect(got.json().data.actions).not.toContain('Delete');
    const res = await call(t.app, 'DELETE', `${base()}/${s.studentId}`, biz.token);
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).message).toMatch(/has a payment request.*Deactivate them instead/);
    expect((await call(t.app, 'GET', `${base()}/${s.studentId}`, biz.token)).statusCode).toBe(200);
  });

  it("removes the student's guardian links and enrollments, keeps the payers, and counts one fewer enrolled", async () => {
    const s = await create();
    const programId = newId('prg');
    await db()
      .insertInto('programs')
      .values({
        business_id: biz.businessId,
        id: programId,
        name: `Violin ${programId}`,
        fee_cents: 5000,
        frequency: 'monthly',
        start_date: '2026-01-01',
        end_date: null,
        capacity: 10,
        created_by: null,
        enrolled_count: 1,
      })
      .execute();
    await db()
      .insertInto('enrollments')
      .values({
        business_id: biz.businessId,
        id: newId('enr'),
        student_id: s.studentId,
        program_id: programId,
        start_date: '2026-01-01',
        end_date: null,
        created_by: null,
      })
      .execute();
    const res = await call(t.app, 'DELETE', `${base()}/${s.studentId}`, biz.token);
    expect(res.statusCode, res.body).toBe(204);
    expect((await call(t.app, 'GET', `${base()}/${s.studentId}`, biz.token)).statusCode).toBe(404);
    const program = await db().selectFrom('programs').select('enrolled_count').where('id', '=', programId).executeTakeFirstOrThrow();
    expect(program.enrolled_count).toBe(0);
    const left = await db().selectFrom('enrollments').select('id').where('student_id', '=', s.studentId).execute();
    expect(left).toHaveLength(0);
    const links = await db().selectFrom('student_guardians').select('payer_id').where('student_id', '=', s.studentId).execute();
    expect(links).toHaveLength(0);
    const payer = await db().selectFrom('payers').select('id').where('id', '=', s.guardians[0]!.payerId).executeTakeFirst();
    expect(payer).toBeDefined();
    expect(await auditActions(s.studentId)).toContain('student.deleted');
    expect((await call(t.app, 'DELETE', `${base()}/${s.studentId}`, biz.token)).statusCode).toBe(404);
  });
});
