import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Student } from '@tay/contract';
import { approvedBusiness, inDays, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { errorOf } from '../support/identity';
import { call } from '../support/requests';
import { insertStudent } from '../support/students';
import { createTestApp, type TestApp } from '../support/test-app';
import { batchesApi } from '../batches/batch-api';

/**
 * Importing students with their guardians (batch kind `students`, ADR 036): upload → map →
 * review → submit through the bulk batch engine; guardians matched by e-mail, never duplicated.
 */

let t: TestApp;
let school: ApprovedBusiness;
let standard: ApprovedBusiness;
const db = () => t.runtime.database.db;

beforeAll(async () => {
  t = await createTestApp();
  school = await approvedBusiness(t.app, db(), 'owner@import-school.example', 'student');
  standard = await approvedBusiness(t.app, db(), 'owner@import-shop.example');
});
afterAll(async () => t?.close());

const HEADER =
  'Student id,First name,Last name,Grade,Date of birth,Guardian e-mail,Guardian first name,Guardian last name,Guardian mobile,Guardian 2 e-mail,Guardian 2 first name,Guardian 2 last name';

function upload(api: ReturnType<typeof batchesApi>, body: string) {
  return api.upload(body, { query: `kind=students&fileName=students.csv` });
}

async function payersWith(businessId: string, email: string) {
  return db().selectFrom('payers').select(['id', 'display_name', 'import_batch_id']).where('business_id', '=', businessId).where('email', '=', email).execute();
}

describe('student import', () => {
  it('refuses the kind for a business of another template (404)', async () => {
    const api = batchesApi(t.app, standard);
    const res = await upload(api, `${HEADER}\nS-1,Mia,Lopez,,,a@b.example,A,B,,,,\n`);
    expect(res.statusCode).toBe(404);
    expect(errorOf(res).message).toMatch(/student template/);
  });

  it('imports siblings with one shared payer per guardian, reuses an existing payer, and reports the invalid rows', async () => {
    const existing = await insertPayer(db(), school.businessId, { email: 'olga.old@families.example', displayName: 'Olga Old' });
    await insertPayer(db(), school.businessId, { email: 'dora.disabled@families.example', displayName: 'Dora Disabled', status: 'Disabled' });
    await insertStudent(db(), school.businessId, { studentNumber: 'TAKEN-9' });
    const api = batchesApi(t.app, school);
    const file = [
      HEADER,
      // 2, 3: siblings, both guardians new and shared.
      'S-100,Leo,Lee,Year 7,04/02/2014,sam.lee@families.example,Sam,Lee,+1 555 010 0001,kim.lee@families.example,Kim,Lee',
      'S-101,Lily,Lee,Year 5,2016-09-30,SAM.LEE@families.example,Sam,Lee,,kim.lee@families.example,Kim,Lee',
      // 4: an existing payer's e-mail, no names needed.
      'S-102,Omar,Old,Year 1,,olga.old@families.example,,,,,,',
      // 5-11: invalid.
      ',,Nolast,,,x@families.example,X,Y,,,,',
      'S-103,Bad,Date,,31/31/2014,bd@families.example,B,D,,,,',
      `S-104,Future,Born,,${inDays(30)},fb@families.example,F,B,,,,`,
      'S-105,Bad,Email,,,not-an-email,B,E,,,,',
      'taken-9,Already,There,,,at@families.example,A,T,,,,',
      'S-106,Dis,Abled,,,dora.disabled@families.example,,,,,,',
      'S-107,No,Names,,,brand.new@families.example,,,,,,',
      // 12: repeats line 2's student id.
      's-100,Leo,Again,,,sam.lee@families.example,Sam,Lee,,,,',
    ].join('\n');
    const res = await upload(api, `${file}\n`);
    expect(res.statusCode, res.body).toBe(201);
    const uploaded = res.json().data;
    expect(uploaded.kind).toBe('students');
    expect(uploaded.mapping.columns).toMatchObject({
      studentNumber: 'Student id',
      guardianEmail: 'Guardian e-mail',
      guardian2LastName: 'Guardian 2 last name',
    });

    const checked = await api.mapped(uploaded.batchId, uploaded.mapping);
    expect(checked.counts).toMatchObject({ rows: 11, valid: 3, invalid: 8 });
    const rows = (await api.rows(checked.batchId)).items;
    const errorsOf = (line: number) => rows.find((r) => r.row === line)!.errors;
    expect(errorsOf(5)).toMatchObject({ studentNumber: 'Enter the student id.', firstName: "Enter the student's first name." });
    expect(errorsOf(6).dateOfBirth).toMatch(/"31\/31\/2014" is not a date/);
    expect(errorsOf(7).dateOfBirth).toBe('The date of birth cannot be in the future.');
    expect(errorsOf(8).guardianEmail).toMatch(/not a valid e-mail/);
    expect(errorsOf(9).studentNumber).toMatch(/student id taken-9 already exists/);
    expect(errorsOf(10).guardianEmail).toMatch(/Dora Disabled is a deactivated payer/);
    expect(errorsOf(11)).toMatchObject({ guardianFirstName: expect.stringMatching(/no payer has the e-mail/), guardianLastName: expect.any(String) });
    expect(errorsOf(12).row).toMatch(/Same student id as line 2/);
    expect(rows.find((r) => r.row === 2)!.payerName).toBe('Leo Lee (S-100)');

    // Nothing exists until the batch is submitted.
    expect(await payersWith(school.businessId, 'sam.lee@families.example')).toHaveLength(0);

    const done = await api.sent(checked.batchId);
    expect(done.counts).toMatchObject({ sent: 3, failed: 0 });
    expect(done.state).toBe('Processed');

    const sam = await payersWith(school.businessId, 'sam.lee@families.example');
    const kim = await payersWith(school.businessId, 'kim.lee@families.example');
    expect(sam).toHaveLength(1);
    expect(kim).toHaveLength(1);
    expect(sam[0]).toMatchObject({ display_name: 'Sam Lee', import_batch_id: checked.batchId });
    expect(await payersWith(school.businessId, 'olga.old@families.example')).toHaveLength(1);

    const sentRows = (await api.rows(checked.batchId, '?status=sent&pageSize=100')).items;
    const list = await call(t.app, 'GET', `/api/businesses/${school.businessId}/students?pageSize=100&sortBy=studentNumber&sortDirection=asc`, school.token);
    const students = list.json().data.items as Student[];
    const byNumber = new Map(students.map((s) => [s.studentNumber, s]));
    const leo = byNumber.get('S-100')!;
    const lily = byNumber.get('S-101')!;
    const omar = byNumber.get('S-102')!;
    expect(leo).toMatchObject({ name: 'Leo Lee', grade: 'Year 7', dateOfBirth: '2014-04-02', status: 'active' });
    expect(lily.dateOfBirth).toBe('2016-09-30');
    expect(leo.guardians.map((g) => g.payerId)).toEqual([sam[0]!.id, kim[0]!.id]);
    expect(lily.guardians.map((g) => g.payerId)).toEqual([sam[0]!.id, kim[0]!.id]);
    expect(leo.guardians[0]!.mobile).toBe('+15550100001');
    expect(omar.guardians.map((g) => g.payerId)).toEqual([existing]);
    // Each sent row names the student it made.
    expect(sentRows.map((r) => r.requestId).sort()).toEqual([leo.studentId, lily.studentId, omar.studentId].sort());

    const events = await db()
      .selectFrom('business_events')
      .select(['action', 'details'])
      .where('business_id', '=', school.businessId)
      .where('action', '=', 'students.imported')
      .execute();
    expect(events).toHaveLength(1);
    expect((events[0]!.details as { students: number }).students).toBe(3);
  });

  it('never makes a guardian twice when two files with the same new guardian are sent at once', async () => {
    const api = batchesApi(t.app, school);
    const a = (await upload(api, `${HEADER}\nP-1,Ann,Twin,,,twin.parent@families.example,Tess,Twin,,,,\n`)).json().data;
    const b = (await upload(api, `${HEADER}\nP-2,Ben,Twin,,,twin.parent@families.example,Tess,Twin,,,,\n`)).json().data;
    await api.mapped(a.batchId, a.mapping);
    await api.mapped(b.batchId, b.mapping);
    const [doneA, doneB] = await Promise.all([api.sent(a.batchId), api.sent(b.batchId)]);
    expect(doneA.counts.sent + doneB.counts.sent).toBe(2);
    const payers = await payersWith(school.businessId, 'twin.parent@families.example');
    expect(payers).toHaveLength(1);
    const links = await db().selectFrom('student_guardians').select('student_id').where('payer_id', '=', payers[0]!.id).execute();
    expect(links).toHaveLength(2);
  });

  it('fails a row whose student id was taken after the review, sending the others', async () => {
    const api = batchesApi(t.app, school);
    const up = (
      await upload(api, `${HEADER}\nLATE-1,Lou,Late,,,lou@families.example,Lou,Parent,,,,\nLATE-2,Liz,Late,,,liz@families.example,Liz,Parent,,,,\n`)
    ).json().data;
    const checked = await api.mapped(up.batchId, up.mapping);
    expect(checked.counts.valid).toBe(2);
    await insertStudent(db(), school.businessId, { studentNumber: 'late-1' });
    const done = await api.sent(up.batchId);
    expect(done.counts).toMatchObject({ sent: 1, failed: 1 });
    const failed = (await api.rows(up.batchId, '?status=failed')).items;
    expect(failed[0]!.errors.row).toMatch(/LATE-1 already exists/);
  });

  it('refuses a mapping without the required columns', async () => {
    const api = batchesApi(t.app, school);
    const up = (await upload(api, 'Student id,First name\nS-1,Mia\n')).json().data;
    const res = await api.map(up.batchId, { columns: { studentNumber: 'Student id', firstName: 'First name' } });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).fields).toMatchObject({ 'mapping.lastName': expect.any(String), 'mapping.guardianEmail': expect.any(String) });
  });
});
