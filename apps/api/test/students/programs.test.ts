import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Program, ProgramInput } from '@tay/contract';
import { newId } from '../../src/lib/ids';
import { approvedBusiness, type ApprovedBusiness } from '../support/approved-business';
import { errorOf } from '../support/identity';
import { call } from '../support/requests';
import { templateBusinesses, expectOtherTemplateRefused, type EndpointCall } from '../support/template-businesses';
import { createTestApp, type TestApp } from '../support/test-app';
import { auditActionsNaming } from '../support/audit';

/** Programs of the student template (issue 21, ADR 036): fee, frequency, dates, capacity, status. */

let t: TestApp;
let school: ApprovedBusiness;
let other: ApprovedBusiness;
let standard: ApprovedBusiness;
let viewerToken: string;
const db = () => t.runtime.database.db;

beforeAll(async () => {
  t = await createTestApp();
  ({ biz: school, other, standard, viewerToken } = await templateBusinesses(t.app, db(), 'student', 'programs-school'));
});
afterAll(async () => t?.close());

const base = (b = school) => `/api/businesses/${b.businessId}/programs`;
let seq = 0;
const piano = (over: Partial<ProgramInput> = {}): ProgramInput => ({
  name: `Piano ${++seq}`,
  description: 'Weekly lessons',
  feeCents: 12_000,
  frequency: 'monthly',
  startDate: '2026-09-01',
  endDate: '2027-06-30',
  capacity: 10,
  prorate: true,
  ...over,
});

async function create(over: Partial<ProgramInput> = {}, b = school): Promise<Program> {
  const res = await call(t.app, 'POST', base(b), b.token, piano(over));
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as Program;
}

async function insertStudent(businessId: string, status: 'active' | 'Disabled' = 'active'): Promise<string> {
  const id = newId('stu');
  await db()
    .insertInto('students')
    .values({
      business_id: businessId,
      id,
      student_number: id.slice(-10),
      first_name: 'Mia',
      last_name: 'Lopez',
      date_of_birth: null,
      status,
      created_by: null,
    })
    .execute();
  return id;
}

function auditActions(businessId: string, programId: string): Promise<string[]> {
  return auditActionsNaming(db(), businessId, programId);
}

describe('who may use programs', () => {
  it('answers a standard business 404 on every program endpoint, saying they belong to the student template', async () => {
    const p = `${base(standard)}/prg_x`;
    const calls: EndpointCall[] = [
      ['GET', base(standard)],
      ['GET', `${base(standard)}/export`],
      ['POST', base(standard), piano()],
      ['GET', p],
      ['PATCH', p, piano()],
      ['DELETE', p],
      ['POST', `${p}/activate`],
      ['POST', `${p}/deactivate`],
      ['GET', `${p}/enrollments`],
      ['GET', `${p}/enrollments/export`],
      ['GET', `${p}/enrollments/candidates`],
      ['POST', `${p}/enrollments`, { studentIds: ['stu_x'], startDate: '2026-09-01' }],
      ['POST', `${p}/enrollments/enr_x/withdraw`, { endDate: '2026-09-01' }],
      ['GET', `/api/businesses/${standard.businessId}/students/stu_x/enrollments`],
      ['POST', `/api/businesses/${standard.businessId}/students/stu_x/enrollments`, { programId: 'prg_x', startDate: '2026-09-01' }],
    ];
    await expectOtherTemplateRefused(t.app, standard.token, calls, /student template/);
  });

  it('lets a viewer read and export, and refuses every change (403)', async () => {
    const program = await create();
    expect((await call(t.app, 'GET', base(), viewerToken)).statusCode).toBe(200);
    expect((await call(t.app, 'GET', `${base()}/${program.programId}`, viewerToken)).statusCode).toBe(200);
    expect((await call(t.app, 'GET', `${base()}/export`, viewerToken)).statusCode).toBe(200);
    for (const [method, url, body] of [
      ['POST', base(), piano()],
      ['PATCH', `${base()}/${program.programId}`, piano()],
      ['DELETE', `${base()}/${program.programId}`],
      ['POST', `${base()}/${program.programId}/deactivate`],
    ] as const) {
      const res = await call(t.app, method, url, viewerToken, body);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(errorOf(res).code).toBe('FORBIDDEN');
    }
    expect((await call(t.app, 'GET', `${base()}/${program.programId}`, school.token)).json().data).toMatchObject({ status: 'active', name: program.name });
  });

  it("answers another business's program as 404, and never lists it", async () => {
    const mine = await create();
    for (const [method, suffix, body] of [
      ['GET', '', undefined],
      ['PATCH', '', piano()],
      ['DELETE', '', undefined],
      ['POST', '/deactivate', undefined],
      ['GET', '/enrollments', undefined],
    ] as const) {
      const res = await call(t.app, method, `${base(other)}/${mine.programId}${suffix}`, other.token, body);
      expect(res.statusCode, `${method} ${suffix}`).toBe(404);
      expect(errorOf(res).message).toBe('Program not found.');
    }
    const list = await call(t.app, 'GET', base(other), other.token);
    expect(list.json().data.items.map((p: Program) => p.programId)).not.toContain(mine.programId);
  });
});

describe('managing programs', () => {
  it('names each invalid field (400)', async () => {
    const res = await call(t.app, 'POST', base(), school.token, {
      name: ' ',
      feeCents: 0,
      frequency: 'weekly',
      startDate: '2026-13-01',
      capacity: 0,
    });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).code).toBe('VALIDATION_FAILED');
    expect(Object.keys(errorOf(res).fields!)).toEqual(expect.arrayContaining(['name', 'feeCents', 'frequency', 'startDate', 'capacity']));

    const backwards = await call(t.app, 'POST', base(), school.token, piano({ startDate: '2026-09-01', endDate: '2026-08-31' }));
    expect(backwards.statusCode).toBe(400);
    expect(errorOf(backwards).fields).toEqual({ endDate: 'The end date cannot be before the start date.' });

    const cents = await call(t.app, 'POST', base(), school.token, piano({ feeCents: 10.5 }));
    expect(errorOf(cents).fields).toHaveProperty('feeCents');
  });

  it('creates a program with its fields, and writes the audit trail', async () => {
    const p = await create({ name: 'Violin', feeCents: 9_950, frequency: 'term', endDate: null, capacity: null, prorate: false });
    expect(p).toMatchObject({
      name: 'Violin',
      description: 'Weekly lessons',
      feeCents: 9_950,
      frequency: 'term',
      startDate: '2026-09-01',
      endDate: null,
      capacity: null,
      placesLeft: null,
      prorate: false,
      status: 'active',
      enrolledCount: 0,
      actions: ['Edit', 'Students', 'Enroll', 'Deactivate', 'Delete'],
    });
    expect(await auditActions(school.businessId, p.programId)).toEqual(['program.created']);
  });

  it('refuses a second program of the same name in any case (409 naming the field); another business may use it', async () => {
    await create({ name: 'Choir' });
    const dup = await call(t.app, 'POST', base(), school.token, piano({ name: 'CHOIR' }));
    expect(dup.statusCode).toBe(409);
    expect(errorOf(dup).fields).toEqual({ name: 'You already have a program with this name.' });
    await create({ name: 'Choir' }, other);
    const renamed = await create({ name: 'Band' });
    const clash = await call(t.app, 'PATCH', `${base()}/${renamed.programId}`, school.token, piano({ name: 'choir' }));
    expect(clash.statusCode).toBe(409);
    // Keeping its own name is no clash.
    expect((await call(t.app, 'PATCH', `${base()}/${renamed.programId}`, school.token, piano({ name: 'Band' }))).statusCode).toBe(200);
  });

  it('edits; a new fee applies to future billing and is recorded; the capacity cannot go below the enrolled count', async () => {
    const p = await create({ capacity: 5 });
    for (let i = 0; i < 3; i++) {
      const studentId = await insertStudent(school.businessId);
      const res = await call(t.app, 'POST', `${base()}/${p.programId}/enrollments`, school.token, { studentIds: [studentId], startDate: '2026-09-01' });
      expect(res.statusCode, res.body).toBe(201);
    }
    const low = await call(t.app, 'PATCH', `${base()}/${p.programId}`, school.token, piano({ name: p.name, capacity: 2 }));
    expect(low.statusCode).toBe(400);
    expect(errorOf(low).fields!.capacity).toMatch(/at least 3/);

    const early = await call(t.app, 'PATCH', `${base()}/${p.programId}`, school.token, piano({ name: p.name, endDate: '2026-08-31', startDate: '2026-08-01' }));
    expect(early.statusCode).toBe(400);
    expect(errorOf(early).fields).toEqual({ endDate: 'The end date must be on or after Sep 01, 2026, when the latest enrollment starts.' });

    const edited = await call(t.app, 'PATCH', `${base()}/${p.programId}`, school.token, piano({ name: p.name, feeCents: 15_000, capacity: 3 }));
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().data).toMatchObject({ feeCents: 15_000, capacity: 3, enrolledCount: 3, placesLeft: 0 });
    const events = await db()
      .selectFrom('business_events')
      .select(['action', 'details'])
      .where('business_id', '=', school.businessId)
      .where('action', '=', 'program.updated')
      .execute();
    const last = events.map((e) => e.details as { programId: string; feeCents?: unknown; changed: string[] }).filter((d) => d.programId === p.programId);
    expect(last.at(-1)).toMatchObject({ feeCents: { from: 12_000, to: 15_000 }, changed: expect.arrayContaining(['fee_cents', 'capacity']) });
  });

  it('deactivates and activates (409 when already so); a Disabled program lists Activate and takes no enrollment', async () => {
    const p = await create();
    const off = await call(t.app, 'POST', `${base()}/${p.programId}/deactivate`, school.token);
    expect(off.json().data).toMatchObject({ status: 'Disabled', actions: ['Edit', 'Students', 'Activate', 'Delete'] });
    const again = await call(t.app, 'POST', `${base()}/${p.programId}/deactivate`, school.token);
    expect(again.statusCode).toBe(409);
    expect(errorOf(again).message).toBe(`${p.name} is already disabled.`);
    const studentId = await insertStudent(school.businessId);
    const refused = await call(t.app, 'POST', `${base()}/${p.programId}/enrollments`, school.token, { studentIds: [studentId], startDate: '2026-09-01' });
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused).message).toMatch(/is disabled, so it takes no enrollments/);
    expect((await call(t.app, 'POST', `${base()}/${p.programId}/activate`, school.token)).json().data.status).toBe('active');
    expect(await auditActions(school.businessId, p.programId)).toEqual(['program.created', 'program.deactivated', 'program.activated']);
  });

  it('deletes a program nobody was enrolled in; refuses (409) once it has any enrollment, even withdrawn', async () => {
    const empty = await create();
    const gone = await call(t.app, 'DELETE', `${base()}/${empty.programId}`, school.token);
    expect(gone.statusCode).toBe(204);
    expect((await call(t.app, 'GET', `${base()}/${empty.programId}`, school.token)).statusCode).toBe(404);
    expect(await auditActions(school.businessId, empty.programId)).toEqual(['program.created', 'program.deleted']);

    const used = await create();
    const studentId = await insertStudent(school.businessId);
    const enrolled = await call(t.app, 'POST', `${base()}/${used.programId}/enrollments`, school.token, { studentIds: [studentId], startDate: '2026-09-01' });
    const enrollmentId = enrolled.json().data.enrollments[0].enrollmentId as string;
    await call(t.app, 'POST', `${base()}/${used.programId}/enrollments/${enrollmentId}/withdraw`, school.token, { endDate: '2026-09-30' });
    const refused = await call(t.app, 'DELETE', `${base()}/${used.programId}`, school.token);
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused).message).toBe(`${used.name} has enrollments, so it stays on record with them. Deactivate it instead.`);
    const got = (await call(t.app, 'GET', `${base()}/${used.programId}`, school.token)).json().data as Program;
    expect(got.actions).not.toContain('Delete');
  });

  it('refuses (409) to delete a program a billing cycle bills', async () => {
    const billed = await create();
    await db()
      .insertInto('billing_cycles')
      .values({
        business_id: school.businessId,
        id: newId('bcy'),
        name: 'Monthly tuition',
        schedule: 'monthly',
        day_of_month: 1,
        periods: '[]',
        program_ids: JSON.stringify([billed.programId]),
        next_run_on: null,
        last_run_at: null,
        created_by: null,
      })
      .execute();
    const refused = await call(t.app, 'DELETE', `${base()}/${billed.programId}`, school.token);
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused).message).toMatch(/The billing cycle Monthly tuition bills/);
    expect((await call(t.app, 'GET', `${base()}/${billed.programId}`, school.token)).statusCode).toBe(200);
  });

  it('lists with search, filters, sorting and paging, and exports CSV', async () => {
    const b = await approvedBusiness(t.app, db(), 'owner@programs-list.example', 'student');
    await create({ name: 'Art club', feeCents: 3_000, frequency: 'one_time', startDate: '2026-10-01' }, b);
    await create({ name: 'Ballet', feeCents: 8_000, frequency: 'monthly', startDate: '2026-09-01', description: 'Classical dance' }, b);
    const chess = await create({ name: 'Chess', feeCents: 5_000, frequency: 'term', startDate: '2026-11-01' }, b);
    await call(t.app, 'POST', `${base(b)}/${chess.programId}/deactivate`, b.token);
    const list = async (query: string) => {
      const res = await call(t.app, 'GET', `${base(b)}?${query}`, b.token);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data as { items: Program[]; total: number };
    };
    const names = (l: { items: Program[] }) => l.items.map((p) => p.name);
    expect(names(await list('sortBy=name&sortDirection=asc'))).toEqual(['Art club', 'Ballet', 'Chess']);
    expect(names(await list('sortBy=fee&sortDirection=desc'))).toEqual(['Ballet', 'Chess', 'Art club']);
    expect(names(await list('sortBy=startDate&sortDirection=asc'))).toEqual(['Ballet', 'Art club', 'Chess']);
    expect(names(await list('search=DANCE'))).toEqual(['Ballet']);
    expect(names(await list('status=Disabled'))).toEqual(['Chess']);
    expect(names(await list('frequency=one_time'))).toEqual(['Art club']);
    const page2 = await list('sortBy=name&sortDirection=asc&pageSize=2&page=2');
    expect(page2).toMatchObject({ total: 3 });
    expect(names(page2)).toEqual(['Chess']);
    const bad = await call(t.app, 'GET', `${base(b)}?frequency=weekly`, b.token);
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad).fields).toHaveProperty('frequency');

    const csv = await call(t.app, 'GET', `${base(b)}/export?status=active&sortBy=name&sortDirection=asc`, b.token);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    const lines = csv.body
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('Name,Description,Fee,Frequency,Start date,End date,Enrolled,Capacity,Prorated,Status,Added');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain('Art club');
    expect(lines[1]).toContain('$30.00,One time,"Oct 01, 2026"');
  });
});
