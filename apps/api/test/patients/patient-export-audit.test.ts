import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PatientView } from '@tay/contract';
import { insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { createHealthcareBusiness, createPatient, insertPatient, insertPatientRequest } from '../support/patients';
import { addMember } from '../support/payouts';
import { call } from '../support/requests';
import { createTestApp, type TestApp } from '../support/test-app';
import { batchesApi } from '../batches/batch-api';

/**
 * Issue 35, point 4: an export of patient data is on record like a view of a record — who, when,
 * how many records and which filters in the audit log (`patients.exported`), an `export` view on
 * each record it held — and the views themselves can no longer be removed.
 */

let t: TestApp;
let practice: ApprovedBusiness;
let viewerToken: string;
let viewerId: string;
const patients: Record<'amy' | 'bob' | 'cal', string> = { amy: '', bob: '', cal: '' };
const db = () => t.runtime.database.db;
const base = () => `/api/businesses/${practice.businessId}`;

beforeAll(async () => {
  t = await createTestApp();
  practice = await createHealthcareBusiness(t.app, db(), 'owner@export-audit.example');
  viewerToken = await addMember(t.app, db(), practice.businessId, 'viewer@export-audit.example', 'viewer');
  viewerId = (await db().selectFrom('users').select('id').where('email', '=', 'viewer@export-audit.example').executeTakeFirstOrThrow()).id;
  const zed = await insertPayer(db(), practice.businessId, { email: 'zed.guarantor@patients.example', displayName: 'Zed Guarantor' });
  patients.amy = (await insertPatient(db(), practice.businessId, { mrn: 'A-1', firstName: 'Amy', lastName: 'Adams', relationship: 'self' })).id;
  patients.bob = (
    await insertPatient(db(), practice.businessId, { mrn: 'B-2', firstName: 'Bob', lastName: 'Brown', relationship: 'parent', guarantorPayerId: zed })
  ).id;
  patients.cal = (await insertPatient(db(), practice.businessId, { mrn: 'C-3', firstName: 'Cal', lastName: 'Cruz', status: 'Disabled' })).id;
  await insertPatientRequest(db(), practice.businessId, patients.bob, zed);
});
afterAll(async () => t?.close());

async function exports() {
  const rows = await db()
    .selectFrom('business_events')
    .select(['actor', 'actor_user_id', 'details', 'ip_address', 'created_at'])
    .where('business_id', '=', practice.businessId)
    .where('action', '=', 'patients.exported')
    .orderBy('created_at')
    .orderBy('seq')
    .execute();
  return rows;
}

async function exportViews() {
  return db()
    .selectFrom('patient_record_views')
    .select(['patient_id', 'user_id', 'actor', 'ip_address'])
    .where('business_id', '=', practice.businessId)
    .where('what', '=', 'export')
    .orderBy('id')
    .execute();
}

const csvLines = (body: string) =>
  body
    .replace(/^\ufeff/, '')
    .trim()
    .split('\r\n')
    .slice(1);

describe('the patients export', () => {
  it("is on record before it is sent, when a viewer exports: who, when, how many, which filters (a search's text left out), and an export view of each record", async () => {
    const before = await exports();
    const res = await call(t.app, 'GET', `${base()}/healthcare-clients/export?status=active&search=guarantor&sortBy=mrn`, viewerToken);
    expect(res.statusCode, res.body).toBe(200);
    expect(csvLines(res.body).map((l) => l.split(',')[0])).toEqual(['B-2']);

    const entries = (await exports()).slice(before.length);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actor: 'viewer@export-audit.example',
      actor_user_id: viewerId,
      ip_address: '127.0.0.1',
      details: { export: 'patients', count: 1, patients: 1, filters: { status: 'active', search: true } },
    });
    // The audit log names patients by id only: what was typed into the search stays out of it.
    expect(JSON.stringify(entries[0]!.details)).not.toContain('guarantor');

    expect(await exportViews()).toEqual([{ patient_id: patients.bob, user_id: viewerId, actor: 'viewer@export-audit.example', ip_address: '127.0.0.1' }]);
    const views = await call(t.app, 'GET', `${base()}/healthcare-clients/${patients.bob}/views`, practice.token);
    expect((views.json().data.items as PatientView[])[0]).toMatchObject({ what: 'export', userId: viewerId });

    const log = await call(t.app, 'GET', `${base()}/audit?pageSize=100`, practice.token);
    expect(log.statusCode, log.body).toBe(200);
    const summaries = (log.json().data.items as { action: string; summary: string }[]).filter((e) => e.action === 'patients.exported').map((e) => e.summary);
    expect(summaries).toContain('Exported 1 patient (status: active, a search)');
  });

  it('records every patient of an unfiltered export, and an export that held nobody', async () => {
    const before = await exports();
    const viewsBefore = (await exportViews()).length;
    const all = await call(t.app, 'GET', `${base()}/healthcare-clients/export`, viewerToken);
    expect(csvLines(all.body)).toHaveLength(3);
    const none = await call(t.app, 'GET', `${base()}/healthcare-clients/export?search=nobody-at-all`, viewerToken);
    expect(none.statusCode).toBe(200);
    expect(csvLines(none.body)).toEqual([]);

    const entries = (await exports()).slice(before.length);
    expect(entries.map((e) => e.details)).toEqual([
      { export: 'patients', count: 3, patients: 3, filters: {} },
      { export: 'patients', count: 0, patients: 0, filters: { search: true } },
    ]);
    const added = (await exportViews()).slice(viewsBefore);
    expect(added.map((v) => v.patient_id).sort()).toEqual([patients.amy, patients.bob, patients.cal].sort());
  });

  it("is recorded for the transaction history's export too, which holds the patients' statements", async () => {
    const before = await exports();
    const viewsBefore = (await exportViews()).length;
    const res = await call(t.app, 'GET', `${base()}/payment-requests/export.csv?view=draft`, viewerToken);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toContain('Maya Patel');
    const entries = (await exports()).slice(before.length);
    expect(entries.map((e) => e.details)).toEqual([{ export: 'history', count: 1, patients: 1, filters: { view: 'draft' } }]);
    expect((await exportViews()).slice(viewsBefore).map((v) => v.patient_id)).toEqual([patients.bob]);
  });

  it("is recorded for a patient batch's rows with errors", async () => {
    const api = batchesApi(t.app, practice);
    const file = 'MRN,First name,Last name,Date of birth,Guarantor,Guarantor e-mail\nM-9,Nia,Noor,not-a-date,self,nia@patients.example\n';
    const uploaded = (await api.upload(file, { query: 'kind=patients&fileName=clinic-patients.csv' })).json().data;
    const checked = await api.mapped(uploaded.batchId, uploaded.mapping);
    expect(checked.counts).toMatchObject({ invalid: 1 });

    const before = await exports();
    const res = await batchesApi(t.app, { ...practice, token: viewerToken }).errorsCsv(checked.batchId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toContain('Nia');
    const entries = (await exports()).slice(before.length);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actor_user_id: viewerId,
      details: { export: 'batch-errors', count: 1, batchId: checked.batchId, batchKind: 'patients', fileName: 'clinic-patients.csv' },
    });
  });
});

describe("a patient record's views", () => {
  it('outlive the deleted patient, and the app may neither change nor remove them', async () => {
    const p = await createPatient(t.app, practice);
    expect((await call(t.app, 'GET', `${base()}/healthcare-clients/${p.clientId}`, viewerToken)).statusCode).toBe(200);
    expect((await call(t.app, 'DELETE', `${base()}/healthcare-clients/${p.clientId}`, practice.token)).statusCode).toBe(204);
    const kept = await db().selectFrom('patient_record_views').select(['what', 'user_id']).where('patient_id', '=', p.clientId).execute();
    expect(kept).toEqual([{ what: 'record', user_id: viewerId }]);

    await expect(db().updateTable('patient_record_views').set({ actor: 'someone else' }).where('patient_id', '=', p.clientId).execute()).rejects.toThrow(
      /permission denied for table patient_record_views/,
    );
    await expect(db().deleteFrom('patient_record_views').where('patient_id', '=', p.clientId).execute()).rejects.toThrow(
      /permission denied for table patient_record_views/,
    );
  });
});
