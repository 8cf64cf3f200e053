import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EnrollCandidates, Enrollment, Program, ProgramInput } from '@tay/contract';
import { newId } from '../../src/lib/ids';
import { approvedBusiness, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { errorOf } from '../support/identity';
import { addMember } from '../support/payouts';
import { call } from '../support/requests';
import { createTestApp, type TestApp } from '../support/test-app';

/** Enrollments (issue 21, ADR 036): many at once, all or none, within the program's places; withdraw keeps the count. */

let t: TestApp;
let school: ApprovedBusiness;
let other: ApprovedBusiness;
let viewerToken: string;
const db = () => t.runtime.database.db;

beforeAll(async () => {
  t = await createTestApp();
  school = await approvedBusiness(t.app, db(), 'owner@enroll-school.example', 'student');
  other = await approvedBusiness(t.app, db(), 'owner@enroll-other.example', 'student');
  viewerToken = await addMember(t.app, db(), school.businessId, 'viewer@enroll-school.example', 'viewer');
});
afterAll(async () => t?.close());

const programs = (b = school) => `/api/businesses/${b.businessId}/programs`;
const enrollUrl = (programId: string, b = school) => `${programs(b)}/${programId}/enrollments`;
const studentUrl = (studentId: string, b = school) => `/api/businesses/${b.businessId}/students/${studentId}/enrollments`;
let seq = 0;

async function program(over: Partial<ProgramInput> = {}, b = school): Promise<Program> {
  const res = await call(t.app, 'POST', programs(b), b.token, {
    name: `Piano ${++seq}`,
    feeCents: 12_000,
    frequency: 'monthly',
    startDate: '2026-09-01',
    endDate: '2027-06-30',
    capacity: null,
    ...over,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as Program;
}

async function student(
  over: Partial<{ first: string; last: string; number: string; grade: string; status: 'active' | 'Disabled'; guardianEmail: string }> = {},
  b = school,
): Promise<string> {
  const id = newId('stu');
  await db()
    .insertInto('students')
    .values({
      business_id: b.businessId,
      id,
      student_number: over.number ?? `S-${++seq}`,
      first_name: over.first ?? 'Mia',
      last_name: over.last ?? `Lopez${seq}`,
      grade: over.grade ?? '5',
      date_of_birth: null,
      status: over.status ?? 'active',
      created_by: null,
    })
    .execute();
  if (over.guardianEmail) {
    const payerId = await insertPayer(db(), b.businessId, { email: over.guardianEmail, displayName: 'Gina Lopez' });
    await db().insertInto('student_guardians').values({ business_id: b.businessId, student_id: id, payer_id: payerId, position: 1 }).execute();
  }
  return id;
}

async function enrolledCount(programId: string): Promise<number> {
  const row = await db().selectFrom('programs').select('enrolled_count').where('id', '=', programId).executeTakeFirstOrThrow();
  return Number(row.enrolled_count);
}

async function activeEnrollments(programId: string): Promise<number> {
  const rows = await db().selectFrom('enrollments').select('id').where('program_id', '=', programId).where('status', '=', 'active').execute();
  return rows.length;
}

describe('enrolling many students', () => {
  it('enrolls them all with the start date, counts them, shows the guardian, and writes the audit trail', async () => {
    const p = await program({ capacity: 5 });
    const a = await student({ first: 'Ana', guardianEmail: 'gina@families.example' });
    const b = await student({ first: 'Ben' });
    const res = await call(t.app, 'POST', enrollUrl(p.programId), school.token, { studentIds: [a, b], startDate: '2026-09-15' });
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json().data as { enrolled: number; program: Program; enrollments: Enrollment[] };
    expect(data.enrolled).toBe(2);
    expect(data.program).toMatchObject({ enrolledCount: 2, placesLeft: 3, actions: ['Edit', 'Students', 'Enroll', 'Deactivate'] });
    const ana = data.enrollments.find((e) => e.studentId === a)!;
    expect(ana).toMatchObject({
      programId: p.programId,
      programName: p.name,
      studentName: expect.stringMatching(/^Ana /),
      grade: '5',
      startDate: '2026-09-15',
      endDate: null,
      status: 'active',
      guardian: { name: 'Gina Lopez', email: 'gina@families.example' },
    });
    expect(await enrolledCount(p.programId)).toBe(2);
    const events = await db()
      .selectFrom('business_events')
      .select(['action', 'details'])
      .where('business_id', '=', school.businessId)
      .where('action', '=', 'students.enrolled')
      .execute();
    expect(events.map((e) => e.details).find((d) => (d as { programId: string }).programId === p.programId)).toMatchObject({
      studentIds: [a, b],
      startDate: '2026-09-15',
    });
  });

  it('enrolls nobody when any student is refused, naming each: not found, Disabled, already enrolled', async () => {
    const p = await program();
    const enrolled = await student({ first: 'Eve', last: 'Enrolled', number: 'E-1' });
    await call(t.app, 'POST', enrollUrl(p.programId), school.token, { studentIds: [enrolled], startDate: '2026-09-01' });
    const fine = await student();
    const disabled = await student({ first: 'Dan', last: 'Disabled', number: 'D-1', status: 'Disabled' });
    const foreign = await student({}, other);

    const conflicts = await call(t.app, 'POST', enrollUrl(p.programId), school.token, { studentIds: [fine, disabled, enrolled], startDate: '2026-09-01' });
    expect(conflicts.statusCode).toBe(409);
    expect(errorOf(conflicts).fields).toEqual({
      'studentIds.1': 'Dan Disabled (D-1) is disabled; activate the student to enroll them.',
      'studentIds.2': `Eve Enrolled (E-1) is already enrolled in ${p.name}.`,
    });
    expect(errorOf(conflicts).message).toMatch(/nobody was enrolled/);

    const missing = await call(t.app, 'POST', enrollUrl(p.programId), school.token, { studentIds: [fine, foreign], startDate: '2026-09-01' });
    expect(missing.statusCode).toBe(404);
    expect(errorOf(missing).fields).toEqual({ 'studentIds.1': `No student with id ${foreign} was found.` });

    expect(await activeEnrollments(p.programId)).toBe(1);
    expect(await enrolledCount(p.programId)).toBe(1);
  });

  it('names bad input (400): no students, a repeated student, too many, a start date outside the program', async () => {
    const p = await program({ startDate: '2026-09-01', endDate: '2026-12-31' });
    const s = await student();
    const empty = await call(t.app, 'POST', enrollUrl(p.programId), school.token, { studentIds: [], startDate: 'soon' });
    expect(empty.statusCode).toBe(400);
    expect(Object.keys(errorOf(empty).fields!)).toEqual(expect.arrayContaining(['studentIds', 'startDate']));
    const twice = await call(t.app, 'POST', enrollUrl(p.programId), school.token, { studentIds: [s, s], startDate: '2026-09-01' });
    expect(errorOf(twice).fields).toEqual({ studentIds: 'Each student can be chosen once.' });
    const many = await call(t.app, 'POST', enrollUrl(p.programId), school.token, {
      studentIds: Array.from({ length: 501 }, (_, i) => `stu_${i}`),
      startDate: '2026-09-01',
    });
    expect(errorOf(many).fields).toEqual({ studentIds: 'Enroll at most 500 students at once.' });
    const early = await call(t.app, 'POST', enrollUrl(p.programId), school.token, { studentIds: [s], startDate: '2026-08-31' });
    expect(early.statusCode).toBe(400);
    expect(errorOf(early).fields).toEqual({ startDate: `The start date must be on or after Sep 01, 2026, when ${p.name} starts.` });
    const late = await call(t.app, 'POST', enrollUrl(p.programId), school.token, { studentIds: [s], startDate: '2027-01-01' });
    expect(errorOf(late).fields).toEqual({ startDate: `The start date must be on or before Dec 31, 2026, when ${p.name} ends.` });
    expect(await activeEnrollments(p.programId)).toBe(0);
  });

  it('refuses more students than places left, saying how many', async () => {
    const p = await program({ name: 'Cello', capacity: 3 });
    const first = await student();
    await call(t.app, 'POST', enrollUrl(p.programId), school.token, { studentIds: [first], startDate: '2026-09-01' });
    const five = await Promise.all(Array.from({ length: 5 }, () => student()));
    const res = await call(t.app, 'POST', enrollUrl(p.programId), school.token, { studentIds: five, startDate: '2026-09-01' });
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).message).toBe('Cello has 2 places left; 5 students were chosen.');
    expect(await enrolledCount(p.programId)).toBe(1);
  });

  it('two enrolls at once cannot overfill the program', async () => {
    const p = await program({ capacity: 3 });
    const groupA = [await student(), await student()];
    const groupB = [await student(), await student()];
    const [a, b] = await Promise.all([
      call(t.app, 'POST', enrollUrl(p.programId), school.token, { studentIds: groupA, startDate: '2026-09-01' }),
      call(t.app, 'POST', enrollUrl(p.programId), school.token, { studentIds: groupB, startDate: '2026-09-01' }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409]);
    const refused = a.statusCode === 409 ? a : b;
    expect(errorOf(refused).message).toMatch(/has 1 place left; 2 students were chosen/);
    expect(await activeEnrollments(p.programId)).toBe(2);
    expect(await enrolledCount(p.programId)).toBe(2);
  });

  it('the same student enrolled twice at once is enrolled once', async () => {
    const p = await program();
    const s = await student();
    const results = await Promise.all([
      call(t.app, 'POST', enrollUrl(p.programId), school.token, { studentIds: [s], startDate: '2026-09-01' }),
      call(t.app, 'POST', studentUrl(s), school.token, { programId: p.programId, startDate: '2026-09-01' }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(await activeEnrollments(p.programId)).toBe(1);
    expect(await enrolledCount(p.programId)).toBe(1);
  });
});

describe('withdrawing', () => {
  it('withdraws with an end date from the day before the start, keeps the count right, and lets the place be taken again', async () => {
    const p = await program({ capacity: 1 });
    const s = await student();
    const enrolled = await call(t.app, 'POST', enrollUrl(p.programId), school.token, { studentIds: [s], startDate: '2026-10-10' });
    const enrollmentId = enrolled.json().data.enrollments[0].enrollmentId as string;
    const url = `${enrollUrl(p.programId)}/${enrollmentId}/withdraw`;

    const tooEarly = await call(t.app, 'POST', url, school.token, { endDate: '2026-10-08' });
    expect(tooEarly.statusCode).toBe(400);
    expect(errorOf(tooEarly).fields!.endDate).toMatch(/on or after Oct 09, 2026/);
    const bad = await call(t.app, 'POST', url, school.token, { endDate: 'tomorrow' });
    expect(errorOf(bad).fields).toEqual({ endDate: 'Enter the end date.' });
    expect(await enrolledCount(p.programId)).toBe(1);

    // The day before the start: never billed.
    const done = await call(t.app, 'POST', url, school.token, { endDate: '2026-10-09' });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().data).toMatchObject({ status: 'Withdrawn', endDate: '2026-10-09' });
    expect(await enrolledCount(p.programId)).toBe(0);
    const row = await db().selectFrom('enrollments').select(['withdrawn_at', 'withdrawn_by']).where('id', '=', enrollmentId).executeTakeFirstOrThrow();
    expect(row.withdrawn_at).not.toBeNull();
    expect(row.withdrawn_by).not.toBeNull();

    const again = await call(t.app, 'POST', url, school.token, { endDate: '2026-10-31' });
    expect(again.statusCode).toBe(409);
    expect(await enrolledCount(p.programId)).toBe(0);

    // The place is free, and the same student may be enrolled again.
    const back = await call(t.app, 'POST', enrollUrl(p.programId), school.token, { studentIds: [s], startDate: '2026-11-01' });
    expect(back.statusCode, back.body).toBe(201);
    expect(await enrolledCount(p.programId)).toBe(1);
    const actions = await db()
      .selectFrom('business_events')
      .select('action')
      .where('business_id', '=', school.businessId)
      .where('action', '=', 'enrollment.withdrawn')
      .execute();
    expect(actions.length).toBeGreaterThan(0);
  });

  it('answers an enrollment of another program or business as 404', async () => {
    const p = await program();
    const q = await program();
    const s = await student();
    const enrolled = await call(t.app, 'POST', enrollUrl(p.programId), school.token, { studentIds: [s], startDate: '2026-09-01' });
    const enrollmentId = enrolled.json().data.enrollments[0].enrollmentId as string;
    const wrongProgram = await call(t.app, 'POST', `${enrollUrl(q.programId)}/${enrollmentId}/withdraw`, school.token, { endDate: '2026-09-30' });
    expect(wrongProgram.statusCode).toBe(404);
    const wrongBusiness = await call(t.app, 'POST', `${enrollUrl(p.programId, other)}/${enrollmentId}/withdraw`, other.token, { endDate: '2026-09-30' });
    expect(wrongBusiness.statusCode).toBe(404);
    expect(await enrolledCount(p.programId)).toBe(1);
  });
});

describe('access', () => {
  it('lets a viewer read the lists, and refuses enroll and withdraw (403)', async () => {
    const p = await program();
    const s = await student();
    expect((await call(t.app, 'GET', enrollUrl(p.programId), viewerToken)).statusCode).toBe(200);
    expect((await call(t.app, 'GET', studentUrl(s), viewerToken)).statusCode).toBe(200);
    expect((await call(t.app, 'POST', enrollUrl(p.programId), viewerToken, { studentIds: [s], startDate: '2026-09-01' })).statusCode).toBe(403);
    expect((await call(t.app, 'POST', studentUrl(s), viewerToken, { programId: p.programId, startDate: '2026-09-01' })).statusCode).toBe(403);
    expect((await call(t.app, 'POST', `${enrollUrl(p.programId)}/enr_x/withdraw`, viewerToken, { endDate: '2026-09-01' })).statusCode).toBe(403);
    expect(await activeEnrollments(p.programId)).toBe(0);
  });

  it("answers another business's student or program as 404", async () => {
    const mine = await program();
    const theirs = await program({}, other);
    const myStudent = await student();
    expect((await call(t.app, 'GET', studentUrl(myStudent, other), other.token)).statusCode).toBe(404);
    expect((await call(t.app, 'POST', studentUrl(myStudent, other), other.token, { programId: theirs.programId, startDate: '2026-09-01' })).statusCode).toBe(
      404,
    );
    const crossProgram = await call(t.app, 'POST', studentUrl(myStudent), school.token, { programId: theirs.programId, startDate: '2026-09-01' });
    expect(crossProgram.statusCode).toBe(404);
    expect(errorOf(crossProgram).fields).toEqual({ programId: 'Choose one of your programs.' });
    expect((await call(t.app, 'GET', enrollUrl(mine.programId, other), other.token)).statusCode).toBe(404);
    expect((await call(t.app, 'GET', `${enrollUrl(mine.programId, other)}/candidates`, other.token)).statusCode).toBe(404);
  });
});

describe("a student's enrollments (the drawer)", () => {
  it('enrolls one student, lists active first, and names refusals on the program field', async () => {
    const s = await student();
    const p = await program({ name: 'Guitar', capacity: 1 });
    const q = await program({ name: 'Drums' });
    const first = await call(t.app, 'POST', studentUrl(s), school.token, { programId: q.programId, startDate: '2026-09-01' });
    expect(first.statusCode, first.body).toBe(201);
    await call(t.app, 'POST', `${enrollUrl(q.programId)}/${first.json().data.enrollmentId}/withdraw`, school.token, { endDate: '2026-09-30' });
    const res = await call(t.app, 'POST', studentUrl(s), school.token, { programId: p.programId, startDate: '2026-10-01' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ programName: 'Guitar', status: 'active', startDate: '2026-10-01' });

    const again = await call(t.app, 'POST', studentUrl(s), school.token, { programId: p.programId, startDate: '2026-10-01' });
    expect(again.statusCode).toBe(409);
    expect(errorOf(again).fields!.programId).toMatch(/is already enrolled in Guitar/);
    const full = await call(t.app, 'POST', studentUrl(await student()), school.token, { programId: p.programId, startDate: '2026-10-01' });
    expect(full.statusCode).toBe(409);
    expect(errorOf(full).fields).toEqual({ programId: 'Guitar has 0 places left; 1 student was chosen.' });
    const empty = await call(t.app, 'POST', studentUrl(s), school.token, {});
    expect(Object.keys(errorOf(empty).fields!)).toEqual(expect.arrayContaining(['programId', 'startDate']));

    const list = await call(t.app, 'GET', studentUrl(s), school.token);
    expect(list.json().data.items.map((e: Enrollment) => [e.programName, e.status])).toEqual([
      ['Guitar', 'active'],
      ['Drums', 'Withdrawn'],
    ]);
  });
});

describe("a program's students", () => {
  it('lists with search, status filter, sort, paging and CSV; candidates say who is enrolled and filter by grade', async () => {
    const p = await program({ name: 'Robotics' });
    const zoe = await student({ first: 'Zoe', last: 'Adams', number: 'R-1', grade: '7', guardianEmail: 'adams@families.example' });
    const amy = await student({ first: 'Amy', last: 'Brown', number: 'R-2', grade: '8' });
    const max = await student({ first: 'Max', last: 'Cole', number: 'R-3', grade: '7' });
    const enrolled = await call(t.app, 'POST', enrollUrl(p.programId), school.token, { studentIds: [zoe, amy, max], startDate: '2026-09-01' });
    const amyEnrollment = (enrolled.json().data.enrollments as Enrollment[]).find((e) => e.studentId === amy)!;
    await call(t.app, 'POST', `${enrollUrl(p.programId)}/${amyEnrollment.enrollmentId}/withdraw`, school.token, { endDate: '2026-09-30' });

    const list = async (query: string) => {
      const res = await call(t.app, 'GET', `${enrollUrl(p.programId)}?${query}`, school.token);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data as { items: Enrollment[]; total: number };
    };
    const names = (l: { items: Enrollment[] }) => l.items.map((e) => e.studentName);
    expect(names(await list(''))).toEqual(['Zoe Adams', 'Amy Brown', 'Max Cole']);
    expect(names(await list('sortDirection=desc'))).toEqual(['Max Cole', 'Amy Brown', 'Zoe Adams']);
    expect(names(await list('status=active'))).toEqual(['Zoe Adams', 'Max Cole']);
    expect(names(await list('status=Withdrawn'))).toEqual(['Amy Brown']);
    expect(names(await list('search=r-3'))).toEqual(['Max Cole']);
    expect(names(await list('search=adams@families'))).toEqual(['Zoe Adams']);
    const page = await list('pageSize=2&page=2');
    expect(page.total).toBe(3);
    expect(names(page)).toEqual(['Max Cole']);

    const csv = await call(t.app, 'GET', `${enrollUrl(p.programId)}/export?status=active`, school.token);
    expect(csv.statusCode).toBe(200);
    const lines = csv.body
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('Student id,Student,Grade,Guardian,Guardian e-mail,Program,Start date,End date,Status');
    expect(lines[1]).toBe('R-1,Zoe Adams,7,Gina Lopez,adams@families.example,Robotics,"Sep 01, 2026",,Active');
    expect(lines).toHaveLength(3);

    const candidates = await call(t.app, 'GET', `${enrollUrl(p.programId)}/candidates?grade=7&search=R-`, school.token);
    expect(candidates.statusCode, candidates.body).toBe(200);
    const data = candidates.json().data as EnrollCandidates;
    expect(data.items.map((c) => [c.name, c.enrolled])).toEqual([
      ['Zoe Adams', true],
      ['Max Cole', true],
    ]);
    expect(data.grades).toEqual(expect.arrayContaining(['7', '8']));
    const withAmy = (await call(t.app, 'GET', `${enrollUrl(p.programId)}/candidates?search=Amy Brown`, school.token)).json().data as EnrollCandidates;
    expect(withAmy.items).toEqual([expect.objectContaining({ name: 'Amy Brown', enrolled: false, grade: '8' })]);
  });
});
