import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvedBusiness, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { errorOf } from '../support/identity';
import { createHealthcareBusiness, insertPatient } from '../support/patients';
import { invoicesApi } from '../invoices/invoice-api';
import { call } from '../support/requests';
import { insertStudent } from '../support/students';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * Deleting a payer someone else depends on: a patient's guarantor (ADR 037), a student's
 * guardian (ADR 036) or the payer of a draft invoice is refused with why, not with the foreign
 * key's error.
 */

let t: TestApp;
let clinic: ApprovedBusiness;
let school: ApprovedBusiness;
const db = () => t.runtime.database.db;

beforeAll(async () => {
  t = await createTestApp();
  clinic = await createHealthcareBusiness(t.app, db(), 'owner@delete-payer-clinic.example');
  school = await approvedBusiness(t.app, db(), 'owner@delete-payer-school.example', 'student');
});
afterAll(async () => t?.close());

const remove = (biz: ApprovedBusiness, payerId: string) => call(t.app, 'DELETE', `/api/businesses/${biz.businessId}/payers/${payerId}`, biz.token);

async function exists(businessId: string, payerId: string): Promise<boolean> {
  return (await db().selectFrom('payers').select('id').where('business_id', '=', businessId).where('id', '=', payerId).executeTakeFirst()) !== undefined;
}

describe('delete a payer others depend on', () => {
  it("refuses a patients' guarantor (409, how many), and deletes them once no patient names them", async () => {
    const payerId = await insertPayer(db(), clinic.businessId, { displayName: 'Gale Guarantor' });
    const first = await insertPatient(db(), clinic.businessId, { guarantorPayerId: payerId });
    await insertPatient(db(), clinic.businessId, { guarantorPayerId: payerId });

    const refused = await remove(clinic, payerId);
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused).message).toBe('This payer is the guarantor of 2 patients; choose another guarantor for them first.');
    expect(await exists(clinic.businessId, payerId)).toBe(true);

    await db()
      .deleteFrom('patients')
      .where('business_id', '=', clinic.businessId)
      .where('guarantor_payer_id', '=', payerId)
      .where('id', '!=', first.id)
      .execute();
    expect(errorOf(await remove(clinic, payerId)).message).toBe('This payer is the guarantor of 1 patient; choose another guarantor for them first.');

    await db().deleteFrom('patients').where('business_id', '=', clinic.businessId).where('id', '=', first.id).execute();
    const res = await remove(clinic, payerId);
    expect(res.statusCode, res.body).toBe(200);
    expect(await exists(clinic.businessId, payerId)).toBe(false);
  });

  it("refuses a students' guardian (409, how many), and deletes them once no student names them", async () => {
    const payerId = await insertPayer(db(), school.businessId, { displayName: 'Gwen Guardian' });
    const other = await insertPayer(db(), school.businessId, { displayName: 'Otto Other' });
    await insertStudent(db(), school.businessId, { guardians: [payerId] });
    // The second guardian of a student counts too.
    const second = await insertStudent(db(), school.businessId, { guardians: [other, payerId] });

    const refused = await remove(school, payerId);
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused).message).toBe('This payer is a guardian of 2 students; choose another guardian for them first.');

    await db()
      .deleteFrom('student_guardians')
      .where('business_id', '=', school.businessId)
      .where('payer_id', '=', payerId)
      .where('student_id', '!=', second)
      .execute();
    expect(errorOf(await remove(school, payerId)).message).toBe('This payer is a guardian of 1 student; choose another guardian for them first.');
    expect(await exists(school.businessId, payerId)).toBe(true);

    await db().deleteFrom('student_guardians').where('business_id', '=', school.businessId).where('payer_id', '=', payerId).execute();
    const res = await remove(school, payerId);
    expect(res.statusCode, res.body).toBe(200);
    expect(await exists(school.businessId, payerId)).toBe(false);
  });

  it('refuses the payer of a draft invoice (409, saying so), and deletes them once the draft is gone', async () => {
    const payerId = await insertPayer(db(), clinic.businessId, { displayName: 'Ivy Invoiced' });
    const invoices = invoicesApi(t.app, clinic);
    const draft = await invoices.create(payerId);

    const refused = await remove(clinic, payerId);
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused).message).toBe(
      'This payer is billed by 1 invoice, so it cannot be deleted; delete the draft invoices or deactivate the payer instead.',
    );
    expect(await exists(clinic.businessId, payerId)).toBe(true);

    expect((await invoices.remove(draft.invoiceId)).statusCode).toBe(204);
    const res = await remove(clinic, payerId);
    expect(res.statusCode, res.body).toBe(200);
    expect(await exists(clinic.businessId, payerId)).toBe(false);
  });
});
