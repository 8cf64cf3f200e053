import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Patient, PatientInput, PatientView } from '@tay/contract';
import { approvedBusiness, inDays, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { createBusiness } from '../support/businesses';
import { errorOf, registeredUser } from '../support/identity';
import { createHealthcareBusiness, insertPatient, insertPatientRequest, patientInput } from '../support/patients';
import { call } from '../support/requests';
import { expectPartyReadOnly, templateBusinesses, expectOtherTemplateRefused, type EndpointCall } from '../support/template-businesses';
import { createTestApp, type TestApp } from '../support/test-app';
import { auditActionsNaming } from '../support/audit';

/**
 * Patients and their guarantors (issue 22, ADR 037): only a healthcare-template business has
 * them; guarantors are payers, found by id or e-mail or made with the patient, never duplicated;
 * every read of one record is recorded (who, when, what), and lists mask the date of birth.
 */

let t: TestApp;
let clinic: ApprovedBusiness;
let other: ApprovedBusiness;
let standard: ApprovedBusiness;
let school: ApprovedBusiness;
let viewerToken: string;
const db = () => t.runtime.database.db;

beforeAll(async () => {
  t = await createTestApp();
  ({ biz: clinic, other, standard, viewerToken } = await templateBusinesses(t.app, db(), 'healthCare', 'clinic'));
  school = await approvedBusiness(t.app, db(), 'owner@school-hc.example', 'student');
});
afterAll(async () => t?.close());

const base = (b = clinic) => `/api/businesses/${b.businessId}/healthcare-clients`;

async function create(over: Partial<PatientInput> = {}, b = clinic): Promise<Patient> {
  const res = await call(t.app, 'POST', base(b), b.token, patientInput(over));
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as Patient;
}

async function payerCount(businessId = clinic.businessId): Promise<number> {
  const row = await db()
    .selectFrom('payers')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('business_id', '=', businessId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

function auditActions(needle: string, businessId = clinic.businessId): Promise<string[]> {
  return auditActionsNaming(db(), businessId, needle);
}

describe('access', () => {
  it('answers a business of another template 404, saying the endpoints belong to the healthcare template', async () => {
    for (const biz of [standard, school]) {
      const p = `${base(biz)}/pat_x`;
      const calls: EndpointCall[] = [
        ['GET', base(biz)],
        ['GET', `${base(biz)}/export`],
        ['POST', base(biz), patientInput()],
        ['GET', p],
        ['GET', `${p}/views`],
        ['PATCH', p, patientInput()],
        ['DELETE', p],
        ['POST', `${p}/activate`],
        ['POST', `${p}/deactivate`],
      ];
      await expectOtherTemplateRefused(t.app, biz.token, calls, /healthcare template/);
    }
    const patients = await db().selectFrom('patients').select('id').where('business_id', 'in', [standard.businessId, school.businessId]).execute();
    expect(patients).toHaveLength(0);
  });

  it('refuses a healthcare business not yet approved (403), saying why', async () => {
    const token = await registeredUser(t.app, 'owner@new-clinic.example');
    const { businessId } = await createBusiness(t.app, token, { businessName: 'New Clinic', entityType: 'healthCare' });
    const res = await call(t.app, 'POST', `/api/businesses/${businessId}/healthcare-clients`, token, patientInput());
    expect(res.statusCode).toBe(403);
    expect(errorOf(res).message).toBe('Patients can be added once your business is approved.');
  });

  it("answers another business's patient as 404, records no view, and leaves it alone", async () => {
    const mine = await create();
    for (const [method, suffix, body] of [
      ['GET', '', undefined],
      ['GET', '/views', undefined],
      ['PATCH', '', patientInput()],
      ['DELETE', '', undefined],
      ['POST', '/activate', undefined],
      ['POST', '/deactivate', undefined],
    ] as const) {
      const res = await call(t.app, method, `${base(other)}/${mine.clientId}${suffix}`, other.token, body);
      expect(res.statusCode, `${method} ${suffix}`).toBe(404);
    }
    const list = await call(t.app, 'GET', base(other), other.token);
    expect(list.json().data.items.map((p: Patient) => p.clientId)).not.toContain(mine.clientId);
    const views = await db().selectFrom('patient_record_views').select('id').where('patient_id', '=', mine.clientId).execute();
    expect(views).toHaveLength(0);
    const still = await call(t.app, 'GET', `${base()}/${mine.clientId}`, clinic.token);
    expect(still.json().data.status).toBe('active');
  });

  it("refuses another business's payer as the guarantor with 404, making nothing", async () => {
    const theirs = await insertPayer(db(), other.businessId);
    const before = await payerCount();
    const res = await call(t.app, 'POST', base(), clinic.token, patientInput({ guarantor: { relationship: 'parent', payerId: theirs } }));
    expect(res.statusCode, res.body).toBe(404);
    expect(errorOf(res).fields).toEqual({ 'guarantor.payerId': expect.any(String) });
    expect(await payerCount()).toBe(before);
  });

  it('lets a viewer read (the read recorded as theirs) but not change patients', async () => {
    const mine = await create();
    expect((await call(t.app, 'GET', base(), viewerToken)).statusCode).toBe(200);
    expect((await call(t.app, 'GET', `${base()}/export`, viewerToken)).statusCode).toBe(200);
    const read = await call(t.app, 'GET', `${base()}/${mine.clientId}`, viewerToken);
    expect(read.statusCode).toBe(200);
    const views = await call(t.app, 'GET', `${base()}/${mine.clientId}/views`, viewerToken);
    expect((views.json().data.items as PatientView[])[0]!.actor).toMatch(/viewer@clinic\.example/);
    await expectPartyReadOnly(t.app, base(), mine.clientId, { viewer: viewerToken, owner: clinic.token }, () => patientInput());
  });
});

describe('create', () => {
  it('adds a patient who pays for themself: a new payer with their own names', async () => {
    const before = await payerCount();
    const p = await create({
      mrn: 'SELF-1',
      firstName: 'Ana',
      lastName: 'Lopez',
      dateOfBirth: '1984-05-31',
      guarantor: { relationship: 'self', email: 'Ana.Lopez@Patients.example', mobile: '+14155550123' },
    });
    expect(p).toMatchObject({
      mrn: 'SELF-1',
      name: 'Ana Lopez',
      dateOfBirth: '1984-05-31',
      dateOfBirthMasked: '••/••/1984',
      status: 'active',
      requestsCount: 0,
      statementsCount: 0,
      outstandingCents: 0,
      guarantor: { relationship: 'self', name: 'Ana Lopez', email: 'ana.lopez@patients.example', mobile: '+14155550123', status: 'active' },
    });
    expect(p.actions).toEqual(['Edit', 'Request to Pay', 'Transactions', 'Deactivate', 'Delete']);
    expect(await payerCount()).toBe(before + 1);
    const actions = await auditActions(p.clientId);
    expect(actions).toContain('patient.created');
    expect(actions).toContain('payer.created');
    expect(await auditActions('SELF-1')).toEqual([]);
  });

  it('adds a patient billed to another person: an existing payer by id, or a new one', async () => {
    const parent = await insertPayer(db(), clinic.businessId, { displayName: 'Sam Lee' });
    const child = await create({ firstName: 'Leo', lastName: 'Lee', dateOfBirth: '2016-04-02', guarantor: { relationship: 'parent', payerId: parent } });
    expect(child.guarantor).toMatchObject({ payerId: parent, name: 'Sam Lee', relationship: 'parent' });
    const before = await payerCount();
    const spouse = await create({ guarantor: { relationship: 'spouse', firstName: 'Kim', lastName: 'Park', email: 'kim.park@patients.example' } });
    expect(spouse.guarantor).toMatchObject({ name: 'Kim Park', email: 'kim.park@patients.example', relationship: 'spouse' });
    expect(await payerCount()).toBe(before + 1);
  });

  it("uses the payer who has the guarantor's e-mail instead of making another (any case)", async () => {
    const first = await create({ guarantor: { relationship: 'parent', firstName: 'Pat', lastName: 'Parent', email: 'pat.parent@patients.example' } });
    const before = await payerCount();
    const sibling = await create({ guarantor: { relationship: 'parent', firstName: 'Patricia', lastName: 'P', email: 'PAT.parent@patients.example' } });
    expect(sibling.guarantor.payerId).toBe(first.guarantor.payerId);
    expect(sibling.guarantor.name).toBe('Pat Parent');
    // A patient paying for themself with a payer's e-mail is that payer too.
    const self = await create({ guarantor: { relationship: 'self', email: 'pat.parent@patients.example' } });
    expect(self.guarantor.payerId).toBe(first.guarantor.payerId);
    expect(await payerCount()).toBe(before);
  });

  it('makes one payer when two patients with the same new guarantor are added at once', async () => {
    const guarantor = { relationship: 'parent' as const, firstName: 'Twin', lastName: 'Parent', email: 'twin.parent@patients.example' };
    const [a, b] = await Promise.all([
      call(t.app, 'POST', base(), clinic.token, patientInput({ guarantor })),
      call(t.app, 'POST', base(), clinic.token, patientInput({ guarantor })),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(a.json().data.guarantor.payerId).toBe(b.json().data.guarantor.payerId);
    const payers = await db().selectFrom('payers').select('id').where('business_id', '=', clinic.businessId).where('email', '=', guarantor.email).execute();
    expect(payers).toHaveLength(1);
  });

  it('names every invalid field with a clear 400, saving nothing', async () => {
    const before = await payerCount();
    const res = await call(t.app, 'POST', base(), clinic.token, { mrn: ' ', firstName: '', guarantor: { relationship: 'cousin' } });
    expect(res.statusCode).toBe(400);
    const fields = errorOf(res).fields!;
    expect(fields.mrn).toBe('Enter the patient id (MRN).');
    expect(fields.firstName).toBe('Enter the first name.');
    expect(fields.lastName).toBe('Enter the last name.');
    expect(fields.dateOfBirth).toBe('Enter the date of birth.');
    expect(fields['guarantor.relationship']).toMatch(/Choose who pays/);

    const bad = await call(
      t.app,
      'POST',
      base(),
      clinic.token,
      patientInput({
        mrn: 'x'.repeat(65),
        dateOfBirth: '31/05/1984',
        guarantor: { relationship: 'parent', firstName: 'A', email: 'not-an-email', mobile: '555' },
      }),
    );
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad).fields).toMatchObject({
      mrn: 'Use at most 64 characters.',
      dateOfBirth: 'Enter the date of birth as YYYY-MM-DD.',
      'guarantor.email': 'Enter a valid e-mail address.',
      'guarantor.lastName': expect.stringMatching(/last name/),
      'guarantor.mobile': expect.stringMatching(/mobile number/),
    });

    const selfNoEmail = await call(t.app, 'POST', base(), clinic.token, patientInput({ guarantor: { relationship: 'self' } }));
    expect(errorOf(selfNoEmail).fields).toEqual({ 'guarantor.email': "Enter the patient's e-mail address, or choose an existing payer." });
    const old = await call(t.app, 'POST', base(), clinic.token, patientInput({ dateOfBirth: '1899-12-31' }));
    expect(errorOf(old).fields?.dateOfBirth).toMatch(/1900/);
    expect(await payerCount()).toBe(before);
  });

  it('refuses a date of birth in the future', async () => {
    const res = await call(t.app, 'POST', base(), clinic.token, patientInput({ dateOfBirth: inDays(3) }));
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).fields).toEqual({ dateOfBirth: 'The date of birth cannot be in the future.' });
  });

  it('refuses a taken MRN (any case) with 409 naming it, and makes no payer', async () => {
    await create({ mrn: 'DUP-1' });
    const before = await payerCount();
    const res = await call(t.app, 'POST', base(), clinic.token, patientInput({ mrn: 'dup-1' }));
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).fields?.mrn).toMatch(/already has the MRN dup-1/);
    expect(await payerCount()).toBe(before);
    // Another practice may use the same MRN.
    await create({ mrn: 'DUP-1' }, other);
  });

  it('refuses the same MRN added twice at once: one is added, the other is told (409)', async () => {
    const body = patientInput({ mrn: 'RACE-1' });
    const answers = await Promise.all([call(t.app, 'POST', base(), clinic.token, body), call(t.app, 'POST', base(), clinic.token, body)]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409]);
  });

  it('refuses a Disabled payer as the guarantor, by id or by e-mail', async () => {
    const off = await insertPayer(db(), clinic.businessId, { status: 'Disabled', displayName: 'Dee Disabled', email: 'dee@patients.example' });
    const byId = await call(t.app, 'POST', base(), clinic.token, patientInput({ guarantor: { relationship: 'other', payerId: off } }));
    expect(byId.statusCode).toBe(400);
    expect(errorOf(byId).fields?.['guarantor.payerId']).toMatch(/Dee Disabled is deactivated/);
    const byEmail = await call(t.app, 'POST', base(), clinic.token, patientInput({ guarantor: { relationship: 'self', email: 'dee@patients.example' } }));
    expect(byEmail.statusCode).toBe(400);
    expect(errorOf(byEmail).fields?.['guarantor.email']).toMatch(/deactivated/);
  });
});

describe('views of a record (the audit)', () => {
  it('records each read of the record with who, what and when, lists them newest first, and logs patient.viewed', async () => {
    const p = await create();
    const startedAt = Date.now();
    const read = await call(t.app, 'GET', `${base()}/${p.clientId}`, clinic.token);
    expect(read.statusCode).toBe(200);
    expect(read.json().data.dateOfBirth).toBe('1984-06-02');
    const edit = await call(t.app, 'GET', `${base()}/${p.clientId}?purpose=edit`, clinic.token);
    expect(edit.statusCode).toBe(200);

    const res = await call(t.app, 'GET', `${base()}/${p.clientId}/views`, clinic.token);
    expect(res.statusCode).toBe(200);
    const views = res.json().data as { items: PatientView[]; total: number };
    expect(views.total).toBe(2);
    expect(views.items.map((v) => v.what)).toEqual(['edit', 'record']);
    const owner = await db().selectFrom('users').select('id').where('email', '=', 'owner@clinic.example').executeTakeFirstOrThrow();
    for (const v of views.items) {
      expect(v.userId).toBe(owner.id);
      expect(v.actor).toBe('Owner Person (owner@clinic.example)');
      expect(Date.parse(v.viewedAt)).toBeGreaterThanOrEqual(startedAt - 1000);
    }
    // Listing the views, the list and the export are not views of the record.
    expect((await call(t.app, 'GET', `${base()}/${p.clientId}/views`, clinic.token)).json().data.total).toBe(2);

    const events = await db()
      .selectFrom('business_events')
      .select(['action', 'actor', 'actor_user_id', 'details'])
      .where('business_id', '=', clinic.businessId)
      .where('action', '=', 'patient.viewed')
      .execute();
    const mine = events.filter((e) => (e.details as { patientId: string }).patientId === p.clientId);
    expect(mine).toHaveLength(2);
    expect(mine.map((e) => (e.details as { what: string }).what).sort()).toEqual(['edit', 'record']);
    expect(mine[0]).toMatchObject({ actor: 'owner@clinic.example', actor_user_id: owner.id });
    // The business's audit log names the view in words.
    const log = await call(t.app, 'GET', `/api/businesses/${clinic.businessId}/audit?search=${p.clientId}&pageSize=100`, clinic.token);
    expect(log.statusCode, log.body).toBe(200);
    const summaries = (log.json().data.items as { action: string; summary: string }[]).filter((e) => e.action === 'patient.viewed').map((e) => e.summary);
    expect(summaries).toContain(`Viewed patient ${p.clientId}'s record (edit form)`);
  });

  it('pages the views', async () => {
    const p = await create();
    for (let i = 0; i < 3; i++) await call(t.app, 'GET', `${base()}/${p.clientId}`, clinic.token);
    const page = await call(t.app, 'GET', `${base()}/${p.clientId}/views?page=2&pageSize=2`, clinic.token);
    expect(page.json().data).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(page.json().data.items).toHaveLength(1);
  });
});

describe("the statement form's read (purpose=statement)", () => {
  it('answers without the date of birth and records a view of the statements, not of the record', async () => {
    const p = await create();
    const res = await call(t.app, 'GET', `${base()}/${p.clientId}?purpose=statement`, clinic.token);
    expect(res.statusCode, res.body).toBe(200);
    const read = res.json().data as Patient;
    expect(read).toMatchObject({ clientId: p.clientId, name: p.name, mrn: p.mrn, guarantor: p.guarantor, dateOfBirth: null, dateOfBirthMasked: '••/••/1984' });
    expect(res.body).not.toContain('1984-06-02');
    const views = (await call(t.app, 'GET', `${base()}/${p.clientId}/views`, clinic.token)).json().data as { items: PatientView[]; total: number };
    expect(views.items.map((v) => v.what)).toEqual(['statements']);
  });
});

describe('list and export', () => {
  let practice: ApprovedBusiness;
  const listOf = async (query: string) => {
    const res = await call(t.app, 'GET', `${base(practice)}${query}`, practice.token);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { items: Patient[]; total: number; page: number; pageSize: number };
  };

  beforeAll(async () => {
    practice = await createHealthcareBusiness(t.app, db(), 'owner@list-clinic.example');
    const guarantor = await insertPayer(db(), practice.businessId, { email: 'zed.guarantor@patients.example', displayName: 'Zed Guarantor' });
    await insertPatient(db(), practice.businessId, { mrn: 'A-1', firstName: 'Amy', lastName: 'Adams', dateOfBirth: '1970-01-15', relationship: 'self' });
    const bob = await insertPatient(db(), practice.businessId, {
      mrn: 'B-2',
      firstName: 'Bob',
      lastName: 'Brown',
      dateOfBirth: '2015-07-04',
      relationship: 'parent',
      guarantorPayerId: guarantor,
    });
    await insertPatient(db(), practice.businessId, { mrn: 'C-3', firstName: 'Cal', lastName: 'Cruz', status: 'Disabled', relationship: 'spouse' });
    await insertPatientRequest(db(), practice.businessId, bob.id, guarantor);
  });

  it('masks the date of birth and records no view', async () => {
    const all = await listOf('?sortBy=mrn&sortDirection=asc');
    expect(all.total).toBe(3);
    expect(all.items.map((p) => [p.mrn, p.dateOfBirth, p.dateOfBirthMasked])).toEqual([
      ['A-1', null, '••/••/1970'],
      ['B-2', null, '••/••/2015'],
      ['C-3', null, '••/••/1984'],
    ]);
    const bob = all.items[1]!;
    expect(bob).toMatchObject({ requestsCount: 1, statementsCount: 0, guarantor: { name: 'Zed Guarantor', relationship: 'parent' } });
    expect(bob.actions).not.toContain('Delete');
    const views = await db().selectFrom('patient_record_views').select('id').where('business_id', '=', practice.businessId).execute();
    expect(views).toHaveLength(0);
  });

  it('searches by name, MRN and guarantor e-mail', async () => {
    expect((await listOf('?search=amy')).items.map((p) => p.mrn)).toEqual(['A-1']);
    expect((await listOf('?search=c-3')).items.map((p) => p.mrn)).toEqual(['C-3']);
    expect((await listOf('?search=zed.guarantor')).items.map((p) => p.mrn)).toEqual(['B-2']);
    expect(await listOf('?search=nobody-here')).toMatchObject({ items: [], total: 0 });
  });

  it('filters by status and guarantor, and refuses an unknown filter value', async () => {
    expect((await listOf('?status=Disabled')).items.map((p) => p.mrn)).toEqual(['C-3']);
    expect((await listOf('?relationship=parent')).items.map((p) => p.mrn)).toEqual(['B-2']);
    const bad = await call(t.app, 'GET', `${base(practice)}?status=gone`, practice.token);
    expect(bad.statusCode).toBe(400);
  });

  it('sorts and pages', async () => {
    expect((await listOf('?sortBy=name&sortDirection=asc')).items.map((p) => p.firstName)).toEqual(['Amy', 'Bob', 'Cal']);
    expect((await listOf('?sortBy=mrn&sortDirection=desc')).items.map((p) => p.mrn)).toEqual(['C-3', 'B-2', 'A-1']);
    expect((await listOf('?sortBy=status&sortDirection=asc')).items.map((p) => p.status)).toEqual(['Disabled', 'active', 'active']);
    const page2 = await listOf('?sortBy=name&sortDirection=asc&page=2&pageSize=2');
    expect(page2).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(page2.items.map((p) => p.firstName)).toEqual(['Cal']);
  });

  it('exports the same query as CSV, the date of birth masked', async () => {
    const res = await call(t.app, 'GET', `${base(practice)}/export?search=b&sortBy=mrn&sortDirection=asc`, practice.token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/csv/);
    const lines = res.body
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('MRN,First name,Last name,Date of birth,Status,Guarantor,Relationship,Guarantor e-mail,Requests,Outstanding,Refunded,Added');
    expect(lines.slice(1).some((l) => l.startsWith('B-2,Bob,Brown,••/••/2015,Active,Zed Guarantor,Parent,zed.guarantor@patients.example,1,0.00,0.00,'))).toBe(
      true,
    );
    expect(res.body).not.toContain('2015-07-04');
    expect(res.body).not.toContain('07/04/2015');
  });
});

describe('update, activate and deactivate', () => {
  it('edits the fields and the guarantor, recording which fields changed (not their values)', async () => {
    const p = await create();
    const parent = await insertPayer(db(), clinic.businessId, { displayName: 'New Guarantor' });
    const res = await call(
      t.app,
      'PATCH',
      `${base()}/${p.clientId}`,
      clinic.token,
      patientInput({ mrn: 'EDIT-1', firstName: 'Mina', dateOfBirth: '1990-02-03', guarantor: { relationship: 'parent', payerId: parent } }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const updated = res.json().data as Patient;
    expect(updated).toMatchObject({ mrn: 'EDIT-1', firstName: 'Mina', dateOfBirth: '1990-02-03', guarantor: { payerId: parent, relationship: 'parent' } });
    const event = await db()
      .selectFrom('business_events')
      .select('details')
      .where('business_id', '=', clinic.businessId)
      .where('action', '=', 'patient.updated')
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    expect((event.details as { changed: string[] }).changed).toEqual(
      expect.arrayContaining(['mrn', 'firstName', 'dateOfBirth', 'guarantor', 'guarantorRelationship']),
    );
    expect(JSON.stringify(event.details)).not.toContain('1990-02-03');
  });

  it('keeps a guarantor deactivated since, but refuses choosing a deactivated payer', async () => {
    const p = await create();
    const guarantor = p.guarantor.payerId;
    await db().updateTable('payers').set({ status: 'Disabled' }).where('id', '=', guarantor).execute();
    const kept = await call(
      t.app,
      'PATCH',
      `${base()}/${p.clientId}`,
      clinic.token,
      patientInput({ mrn: p.mrn, guarantor: { relationship: 'self', payerId: guarantor } }),
    );
    expect(kept.statusCode, kept.body).toBe(200);
    const off = await insertPayer(db(), clinic.businessId, { status: 'Disabled', displayName: 'Otto Off' });
    const changed = await call(
      t.app,
      'PATCH',
      `${base()}/${p.clientId}`,
      clinic.token,
      patientInput({ mrn: p.mrn, guarantor: { relationship: 'other', payerId: off } }),
    );
    expect(changed.statusCode).toBe(400);
    expect(errorOf(changed).fields).toEqual({ 'guarantor.payerId': expect.stringMatching(/Otto Off is deactivated/) });
  });

  it("refuses another patient's MRN on edit, and keeps the patient as it was", async () => {
    await create({ mrn: 'TAKEN-1' });
    const b = await create();
    const res = await call(t.app, 'PATCH', `${base()}/${b.clientId}`, clinic.token, patientInput({ mrn: 'taken-1', firstName: 'Changed' }));
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).fields?.mrn).toBeDefined();
    const after = await call(t.app, 'GET', `${base()}/${b.clientId}`, clinic.token);
    expect(after.json().data.firstName).toBe(b.firstName);
  });

  it('deactivates and activates, refusing a repeat with 409', async () => {
    const p = await create();
    const off = await call(t.app, 'POST', `${base()}/${p.clientId}/deactivate`, clinic.token);
    expect(off.statusCode).toBe(200);
    expect(off.json().data.status).toBe('Disabled');
    expect(off.json().data.dateOfBirth).toBeNull();
    expect(off.json().data.actions).toContain('Activate');
    expect(off.json().data.actions).not.toContain('Request to Pay');
    const again = await call(t.app, 'POST', `${base()}/${p.clientId}/deactivate`, clinic.token);
    expect(again.statusCode).toBe(409);
    const on = await call(t.app, 'POST', `${base()}/${p.clientId}/activate`, clinic.token);
    expect(on.json().data.status).toBe('active');
    expect(await auditActions(p.clientId)).toEqual(expect.arrayContaining(['patient.deactivated', 'patient.activated']));
  });
});

describe('delete', () => {
  it('refuses a patient a payment request names (409), keeping them', async () => {
    const p = await create();
    await insertPatientRequest(db(), clinic.businessId, p.clientId, p.guarantor.payerId);
    const got = await call(t.app, 'GET', `${base()}/${p.clientId}`, clinic.token);
    expect(got.json().data.requestsCount).toBe(1);
    expect(got.json().data.outstandingCents).toBe(0);
    expect(got.json().data.actions).not.toContain('Delete');
    const res = await call(t.app, 'DELETE', `${base()}/${p.clientId}`, clinic.token);
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).message).toMatch(/has a payment request.*Deactivate them instead/);
    expect((await call(t.app, 'GET', `${base()}/${p.clientId}`, clinic.token)).statusCode).toBe(200);
  });

  it('deletes a patient never billed, keeps the payer, the audit trail and who viewed the record', async () => {
    const p = await create();
    await call(t.app, 'GET', `${base()}/${p.clientId}`, clinic.token);
    const res = await call(t.app, 'DELETE', `${base()}/${p.clientId}`, clinic.token);
    expect(res.statusCode, res.body).toBe(204);
    expect((await call(t.app, 'GET', `${base()}/${p.clientId}`, clinic.token)).statusCode).toBe(404);
    // Who saw the record stays on record (append-only, migration 0050).
    const views = await db().selectFrom('patient_record_views').select('what').where('patient_id', '=', p.clientId).execute();
    expect(views).toEqual([{ what: 'record' }]);
    const payer = await db().selectFrom('payers').select('id').where('id', '=', p.guarantor.payerId).executeTakeFirst();
    expect(payer).toBeDefined();
    expect(await auditActions(p.clientId)).toEqual(expect.arrayContaining(['patient.created', 'patient.viewed', 'patient.deleted']));
    expect((await call(t.app, 'DELETE', `${base()}/${p.clientId}`, clinic.token)).statusCode).toBe(404);
    // The audit log names the patient by id only: no entry copies the MRN.
    expect(await auditActions(p.mrn)).toEqual([]);
  });
});
