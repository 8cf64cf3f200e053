import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import type { Patient, PatientInput } from '@tay/contract';
import type { DB } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { approvedBusiness, insertPayer, type ApprovedBusiness } from './approved-business';
import { call, insertSourceRequest } from './requests';

/** A signed-in owner of an Approved business of the healthcare template (ADR 037). */
export function createHealthcareBusiness(
  app: FastifyInstance,
  db: Kysely<DB>,
  email = `owner-${newId('x').slice(-8)}@clinic.example`,
): Promise<ApprovedBusiness> {
  return approvedBusiness(app, db, email, 'healthCare');
}

let seq = 0;

/** A valid patient body: a new patient who pays for themself, with a unique MRN and e-mail. */
export function patientInput(over: Partial<PatientInput> = {}): PatientInput {
  seq++;
  const tag = `${Date.now().toString(36)}${seq}`;
  return {
    mrn: `MRN-${tag}`,
    firstName: 'Maya',
    lastName: `Patel${seq}`,
    dateOfBirth: '1984-06-02',
    guarantor: { relationship: 'self', email: `maya.${tag}@patients.example` },
    ...over,
  };
}

/** A patient made through the API (`POST …/healthcare-clients`), as the owner. */
export async function createPatient(app: FastifyInstance, business: ApprovedBusiness, over: Partial<PatientInput> = {}): Promise<Patient> {
  const res = await call(app, 'POST', `/api/businesses/${business.businessId}/healthcare-clients`, business.token, patientInput(over));
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as Patient;
}

export interface PatientOptions {
  mrn?: string;
  firstName?: string;
  lastName?: string;
  dateOfBirth?: string;
  status?: 'active' | 'Disabled';
  relationship?: 'self' | 'parent' | 'spouse' | 'child' | 'other';
  /** The guarantor's payer id; by default a new payer. */
  guarantorPayerId?: string;
}

/** A patient written directly (the patients API has its own tests). Returns the patient's id. */
export async function insertPatient(db: Kysely<DB>, businessId: string, over: PatientOptions = {}): Promise<{ id: string; guarantorPayerId: string }> {
  const id = newId('pat');
  const guarantorPayerId = over.guarantorPayerId ?? (await insertPayer(db, businessId, { displayName: 'Gary Guarantor' }));
  await db
    .insertInto('patients')
    .values({
      business_id: businessId,
      id,
      mrn: over.mrn ?? `MRN-${id.slice(-8)}`,
      first_name: over.firstName ?? 'Maya',
      last_name: over.lastName ?? 'Patel',
      date_of_birth: over.dateOfBirth ?? '1984-06-02',
      guarantor_payer_id: guarantorPayerId,
      guarantor_relationship: over.relationship ?? 'other',
      status: over.status ?? 'active',
      created_by: null,
    })
    .execute();
  return { id, guarantorPayerId };
}

/** A payment request naming the patient, written directly: what keeps a patient on record. */
export async function insertPatientRequest(db: Kysely<DB>, businessId: string, patientId: string, payerId: string): Promise<string> {
  return insertSourceRequest(db, businessId, {
    payerId,
    payerName: 'Gary Guarantor',
    payerEmail: 'gary@guarantors.example',
    amountCents: 4000,
    memo: 'Statement',
    kind: 'patient',
    sourceId: patientId,
    source: { list: { clientId: patientId, patientName: 'Maya Patel', statement: null }, patientFirstName: 'Maya' },
  });
}
