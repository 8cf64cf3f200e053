import type { Generated } from 'kysely';

/** The healthcare template (migration 0039, ADR 037). Dates are 'YYYY-MM-DD' text. */
export type PatientStatus = 'active' | 'Disabled';
export type GuarantorRelationship = 'self' | 'parent' | 'spouse' | 'child' | 'other';
export type PatientViewKind = 'record' | 'edit' | 'statements' | 'export';

export interface PatientsTable {
  business_id: string;
  id: string;
  /** The practice's own patient id (medical record number). */
  mrn: string;
  first_name: string;
  last_name: string;
  date_of_birth: string;
  /** The payer billed for the patient's statements. */
  guarantor_payer_id: string;
  guarantor_relationship: Generated<GuarantorRelationship>;
  status: Generated<PatientStatus>;
  created_by: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** Who viewed a patient's record, and when (the patient's page lists them). */
export interface PatientRecordViewsTable {
  business_id: string;
  patient_id: string;
  id: Generated<number>;
  user_id: string | null;
  actor: string;
  what: Generated<PatientViewKind>;
  ip_address: string | null;
  viewed_at: Generated<Date>;
}

/** One line of a patient statement, in cents; responsibility = billed − insurance paid − adjustment. */
export interface StatementLineRecord {
  serviceDate: string;
  description: string;
  billedCents: number;
  insurancePaidCents: number;
  adjustmentCents: number;
  responsibilityCents: number;
}
