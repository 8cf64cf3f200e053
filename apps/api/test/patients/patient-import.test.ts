import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Patient } from '@tay/contract';
import { approvedBusiness, inDays, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { errorOf } from '../support/identity';
import { createHealthcareBusiness, createPatient, insertPatient } from '../support/patients';
import { call } from '../support/requests';
import { createTestApp, type TestApp } from '../support/test-app';
import { batchesApi } from '../batches/batch-api';

/**
 * Importing patients with their guarantors (batch kind `patients`, ADR 037): upload → map →
 * review → submit through the bulk batch engine; guarantors matched by e-mail, never duplicated.
 */

let t: TestApp;
let clinic: ApprovedBusiness;
let standard: ApprovedBusiness;
let school: ApprovedBusiness;
const db = () => t.runtime.database.db;

beforeAll(async () => {
  t = await createTestApp();
  clinic = await createHealthcareBusiness(t.app, db(), 'owner@import-clinic.example');
  standard = await approvedBusiness(t.app, db(), 'owner@import-shop-hc.example');
  school = await approvedBusiness(t.app, db(), 'owner@import-school-hc.example', 'student');
});
afterAll(async () => t?.close());

const HEADER = 'MRN,First name,Last name,Date of birth,Guarantor,Guarantor e-mail,Guarantor first name,Guarantor last name,Guarantor mobile';

function upload(api: ReturnType<typeof batchesApi>, body: string) {
  return api.upload(body, { query: `kind=patients&fileName=patients.csv` });
}

async function payersWith(businessId: string, email: string) {
  return db()
    .selectFrom('payers')
    .select(['id', 'display_name', 'first_name', 'last_name', 'import_batch_id', 'mobile_number'])
    .where('business_id', '=', businessId)
    .where('email', '=', email)
    .execute();
}

describe('patient import', () => {
  it('refuses the kind for a business of another template (404)', async () => {
    for (const biz of [standard, school]) {
      const api = batchesApi(t.app, biz);
      const res = await upload(api, `${HEADER}\nM-1,Ana,Lopez,1984-05-31,self,a@b.example,,,\n`);
      expect(res.statusCode).toBe(404);
      expect(errorOf(res).message).toMatch(/healthcare template/);
    }
  });

  it('imports patients with one payer per guarantor e-mail, reuses an existing payer, and names each invalid field by row', async () => {
    const existing = await insertPayer(db(), clinic.businessId, { email: 'olga.old@patients.example', displayName: 'Olga Old' });
    await insertPayer(db(), clinic.businessId, { email: 'dora.disabled@patients.example', displayName: 'Dora Disabled', status: 'Disabled' });
    await insertPatient(db(), clinic.businessId, { mrn: 'TAKEN-9' });
    const api = batchesApi(t.app, clinic);
    const file = [
      HEADER,
      // 2, 3: siblings billed to the same new parent.
      'M-100,Leo,Lee,04/02/2016,parent,sam.lee@patients.example,Sam,Lee,+1 555 010 0001',
      'M-101,Lily,Lee,2018-09-30,Parent,SAM.LEE@patients.example,Sam,Lee,',
      // 4: an existing payer's e-mail, no names needed.
      'M-102,Omar,Old,1950-01-01,spouse,olga.old@patients.example,,,',
      // 5: the patient pays (blank guarantor): a new payer with the patient's names.
      'M-103,Ana,Lopez,"May 31, 1984",,ana.lopez@patients.example,,,',
      // 6-13: invalid.
      ',,Nolast,1984-01-01,self,x@patients.example,,,',
      'M-104,Bad,Date,31/31/1984,self,bd@patients.example,,,',
      `M-105,Future,Born,${inDays(30)},self,fb@patients.example,,,`,
      'M-106,Bad,Email,1984-01-01,self,not-an-email,,,',
      'taken-9,Already,There,1984-01-01,self,at@patients.example,,,',
      'M-107,Dis,Abled,1984-01-01,other,dora.disabled@patients.example,,,',
      'M-108,No,Names,1984-01-01,parent,brand.new@patients.example,,,',
      'M-109,Odd,Guarantor,1984-01-01,cousin,odd@patients.example,Odd,G,',
      // 14: repeats line 2's MRN.
      'm-100,Leo,Again,2016-04-02,parent,sam.lee@patients.example,Sam,Lee,',
      // 15: no date of birth.
      'M-110,No,Birth,,self,nb@patients.example,,,',
    ].join('\n');
    const res = await upload(api, `${file}\n`);
    expect(res.statusCode, res.body).toBe(201);
    const uploaded = res.json().data;
    expect(uploaded.kind).toBe('patients');
    expect(uploaded.mapping.columns).toMatchObject({
      mrn: 'MRN',
      dateOfBirth: 'Date of birth',
      guarantorRelationship: 'Guarantor',
      guarantorEmail: 'Guarantor e-mail',
      guarantorLastName: 'Guarantor last name',
    });

    const checked = await api.mapped(uploaded.batchId, uploaded.mapping);
    expect(checked.counts).toMatchObject({ rows: 14, valid: 4, invalid: 10 });
    const rows = (await api.rows(checked.batchId, '?pageSize=100')).items;
    const errorsOf = (line: number) => rows.find((r) => r.row === line)!.errors;
    expect(errorsOf(6)).toMatchObject({ mrn: 'Enter the MRN.', firstName: "Enter the patient's first name." });
    expect(errorsOf(7).dateOfBirth).toMatch(/"31\/31\/1984" is not a date/);
    expect(errorsOf(8).dateOfBirth).toBe('The date of birth cannot be in the future.');
    expect(errorsOf(9).guarantorEmail).toMatch(/not a valid e-mail/);
    expect(errorsOf(10).mrn).toMatch(/MRN taken-9 already exists/);
    expect(errorsOf(11).guarantorEmail).toMatch(/Dora Disabled is a deactivated payer/);
    expect(errorsOf(12)).toMatchObject({ guarantorFirstName: expect.stringMatching(/no payer has the e-mail/), guarantorLastName: expect.any(String) });
    expect(errorsOf(13).guarantorRelationship).toMatch(/"cousin" is not a guarantor/);
    expect(errorsOf(14).row).toMatch(/Same MRN as line 2/);
    expect(errorsOf(15).dateOfBirth).toBe('Enter the date of birth.');
    expect(rows.find((r) => r.row === 2)!.payerName).toBe('Leo Lee (M-100)');

    // Nothing exists until the batch is submitted.
    expect(await payersWith(clinic.businessId, 'sam.lee@patients.example')).toHaveLength(0);

    const done = await api.sent(checked.batchId);
    expect(done.counts).toMatchObject({ sent: 4, failed: 0 });
    expect(done.state).toBe('Processed');

    const sam = await payersWith(clinic.businessId, 'sam.lee@patients.example');
    expect(sam).toHaveLength(1);
    expect(sam[0]).toMatchObject({ display_name: 'Sam Lee', import_batch_id: checked.batchId, mobile_number: '+15550100001' });
    expect(await payersWith(clinic.businessId, 'olga.old@patients.example')).toHaveLength(1);
    const ana = await payersWith(clinic.businessId, 'ana.lopez@patients.example');
    expect(ana).toHaveLength(1);
    expect(ana[0]).toMatchObject({ first_name: 'Ana', last_name: 'Lopez' });

    const list = await call(t.app, 'GET', `/api/businesses/${clinic.businessId}/healthcare-clients?pageSize=100&sortBy=mrn&sortDirection=asc`, clinic.token);
    const patients = list.json().data.items as Patient[];
    const byMrn = new Map(patients.map((p) => [p.mrn, p]));
    const leo = byMrn.get('M-100')!;
    const lily = byMrn.get('M-101')!;
    const omar = byMrn.get('M-102')!;
    const anaPatient = byMrn.get('M-103')!;
    expect(leo).toMatchObject({
      name: 'Leo Lee',
      dateOfBirthMasked: '••/••/2016',
      status: 'active',
      guarantor: { payerId: sam[0]!.id, relationship: 'parent' },
    });
    expect(lily.guarantor).toMatchObject({ payerId: sam[0]!.id, relationship: 'parent' });
    expect(omar.guarantor).toMatchObject({ payerId: existing, relationship: 'spouse' });
    expect(anaPatient.guarantor).toMatchObject({ payerId: ana[0]!.id, relationship: 'self', name: 'Ana Lopez' });
    const full = await call(t.app, 'GET', `/api/businesses/${clinic.businessId}/healthcare-clients/${lily.clientId}`, clinic.token);
    expect(full.json().data.dateOfBirth).toBe('2018-09-30');

    const sentRows = (await api.rows(checked.batchId, '?status=sent&pageSize=100')).items;
    expect(sentRows.map((r) => r.requestId).sort()).toEqual([leo.clientId, lily.clientId, omar.clientId, anaPatient.clientId].sort());

    const events = await db()
      .selectFrom('business_events')
      .select(['action', 'details'])
      .where('business_id', '=', clinic.businessId)
      .where('action', '=', 'patients.imported')
      .execute();
    expect(events).toHaveLength(1);
    expect((events[0]!.details as { count: number }).count).toBe(4);
  });

  it('never makes a guarantor twice when two files with the same new guarantor are sent at once', async () => {
    const api = batchesApi(t.app, clinic);
    const a = (await upload(api, `${HEADER}\nP-1,Ann,Twin,2015-01-01,parent,twin.parent@patients.example,Tess,Twin,\n`)).json().data;
    const b = (await upload(api, `${HEADER}\nP-2,Ben,Twin,2015-01-01,parent,twin.parent@patients.example,Tess,Twin,\n`)).json().data;
    await api.mapped(a.batchId, a.mapping);
    await api.mapped(b.batchId, b.mapping);
    const [doneA, doneB] = await Promise.all([api.sent(a.batchId), api.sent(b.batchId)]);
    expect(doneA.counts.sent + doneB.counts.sent).toBe(2);
    const payers = await payersWith(clinic.businessId, 'twin.parent@patients.example');
    expect(payers).toHaveLength(1);
    const linked = await db().selectFrom('patients').select('id').where('guarantor_payer_id', '=', payers[0]!.id).execute();
    expect(linked).toHaveLength(2);
  });

  it('fails a row whose MRN was taken after the review, sending the others, and makes no payer for it', async () => {
    const api = batchesApi(t.app, clinic);
    const file = [
      HEADER,
      'LATE-1,Lou,Late,1980-01-01,self,lou@patients.example,,,',
      'LATE-2,Liz,Late,1981-01-01,self,liz@patients.example,,,',
      'LATE-3,Lars,Late,2015-01-01,parent,lena.late@patients.example,Lena,Late,',
    ].join('\n');
    const up = (await upload(api, `${file}\n`)).json().data;
    const checked = await api.mapped(up.batchId, up.mapping);
    expect(checked.counts.valid).toBe(3);
    // Added by hand after the review, with another guarantor.
    await createPatient(t.app, clinic, { mrn: 'late-1' });
    await createPatient(t.app, clinic, { mrn: 'Late-3' });
    const done = await api.sent(up.batchId);
    expect(done.counts).toMatchObject({ sent: 1, failed: 2 });
    const failed = (await api.rows(up.batchId, '?status=failed')).items;
    expect(failed.map((r) => r.errors.row)).toEqual([expect.stringMatching(/LATE-1 already exists/), expect.stringMatching(/LATE-3 already exists/)]);
    // The failed rows' new guarantors were never made; the row sent has its payer.
    expect(await payersWith(clinic.businessId, 'lou@patients.example')).toHaveLength(0);
    expect(await payersWith(clinic.businessId, 'lena.late@patients.example')).toHaveLength(0);
    expect(await payersWith(clinic.businessId, 'liz@patients.example')).toHaveLength(1);
  });

  it('shows the date of birth in full while the import is a Draft, and masked in its rows, sample and errors file once submitted', async () => {
    const api = batchesApi(t.app, clinic);
    const file = [
      HEADER,
      'DOB-1,Dina,Born,04/02/2016,self,dina@patients.example,,,',
      'DOB-2,Dan,Bad,31/31/1984,self,dan.bad@patients.example,,,',
      'DOB-3,Del,Taken,1975-03-09,self,del@patients.example,,,',
    ].join('\n');
    const up = (await upload(api, `${file}\n`)).json().data;
    const checked = await api.mapped(up.batchId, up.mapping);
    expect(checked.counts).toMatchObject({ valid: 2, invalid: 1 });
    const draft = (await api.rows(checked.batchId)).items;
    expect(draft.map((r) => r.fields.dateOfBirth)).toEqual(['04/02/2016', '31/31/1984', '1975-03-09']);
    expect(draft[1]!.errors.dateOfBirth).toMatch(/"31\/31\/1984" is not a date/);
    const draftCsv = (await api.errorsCsv(checked.batchId)).body;
    expect(draftCsv).toContain('31/31/1984');
    // The fix modal of a Draft row gets it in full.
    const fixed = await api.fix(checked.batchId, 4, { dateOfBirth: '1975-03-10' });
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect(fixed.json().data.row.fields.dateOfBirth).toBe('1975-03-10');

    await createPatient(t.app, clinic, { mrn: 'DOB-3' });
    const done = await api.sent(checked.batchId);
    expect(done.counts).toMatchObject({ sent: 1, failed: 1 });
    const rows = (await api.rows(checked.batchId)).items;
    expect(rows.map((r) => r.fields.dateOfBirth)).toEqual(['••/••/2016', '••/••/••••', '••/••/1975']);
    expect(rows[1]!.errors.dateOfBirth).toBe('"••/••/••••" is not a date we can read. Write it as 1984-05-31, 05/31/1984 or May 31, 1984.');
    expect(rows.map((r) => r.fields.mrn)).toEqual(['DOB-1', 'DOB-2', 'DOB-3']);
    const shown = (await api.get(checked.batchId)).json().data as { columns: string[]; sample: string[][] };
    const at = shown.columns.indexOf('Date of birth');
    expect(shown.sample.map((cells) => cells[at])).toEqual(['••/••/2016', '••/••/••••', '••/••/1975']);
    expect(JSON.stringify(shown)).not.toMatch(/2016-04-02|04\/02\/2016|31\/31\/1984|1975-03-09/);

    const csv = (await api.errorsCsv(checked.batchId)).body;
    expect(csv).toContain('••/••/••••');
    expect(csv).toContain('••/••/1975');
    expect(csv).not.toMatch(/31\/31\/1984|1975-03-10/);
  });

  it('refuses a mapping without the required columns', async () => {
    const api = batchesApi(t.app, clinic);
    const up = (await upload(api, 'MRN,First name\nM-1,Mia\n')).json().data;
    const res = await api.map(up.batchId, { columns: { mrn: 'MRN', firstName: 'First name' } });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).fields).toMatchObject({
      'mapping.lastName': expect.any(String),
      'mapping.dateOfBirth': expect.any(String),
      'mapping.guarantorEmail': expect.any(String),
    });
  });
});
