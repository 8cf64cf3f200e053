import type { Generated, JSONColumnType } from 'kysely';

/** The student template (migration 0034, ADR 036). Dates are 'YYYY-MM-DD' text. */
export type StudentStatus = 'active' | 'Disabled';
export type ProgramFrequency = 'one_time' | 'monthly' | 'term';
export type EnrollmentStatus = 'active' | 'Withdrawn';
export type BillingSchedule = 'monthly' | 'term' | 'custom';
export type BillingRunState = 'Running' | 'Drafted' | 'Submitted' | 'Empty' | 'Error';

/** A period of a term or custom cycle. */
export interface CyclePeriod {
  start: string;
  end: string;
  label: string;
}

export interface StudentsTable {
  business_id: string;
  id: string;
  /** The school's own student id. */
  student_number: string;
  first_name: string;
  last_name: string;
  grade: Generated<string>;
  date_of_birth: string | null;
  status: Generated<StudentStatus>;
  created_by: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface StudentGuardiansTable {
  business_id: string;
  student_id: string;
  payer_id: string;
  /** 1: the first guardian (billed by default); 2: the second. */
  position: number;
}

export interface ProgramsTable {
  business_id: string;
  id: string;
  name: string;
  description: Generated<string>;
  fee_cents: number;
  frequency: ProgramFrequency;
  start_date: string;
  end_date: string | null;
  capacity: number | null;
  prorate: Generated<boolean>;
  status: Generated<StudentStatus>;
  enrolled_count: Generated<number>;
  created_by: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface EnrollmentsTable {
  business_id: string;
  id: string;
  student_id: string;
  program_id: string;
  start_date: string;
  end_date: string | null;
  status: Generated<EnrollmentStatus>;
  created_by: string | null;
  created_at: Generated<Date>;
  withdrawn_at: Date | null;
  withdrawn_by: string | null;
}

export interface BillingCyclesTable {
  business_id: string;
  id: string;
  name: string;
  schedule: BillingSchedule;
  day_of_month: number | null;
  periods: JSONColumnType<CyclePeriod[], string, string>;
  program_ids: JSONColumnType<string[], string, string>;
  auto_submit: Generated<boolean>;
  status: Generated<StudentStatus>;
  next_run_on: string | null;
  last_run_at: Date | null;
  created_by: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface BillingCycleRunsTable {
  business_id: string;
  id: string;
  cycle_id: string;
  period_start: string;
  period_end: string;
  period_label: string;
  batch_id: string | null;
  state: Generated<BillingRunState>;
  requests_count: Generated<number>;
  total_cents: Generated<number>;
  trigger: 'schedule' | 'manual';
  error: string | null;
  started_by: string | null;
  created_at: Generated<Date>;
  finished_at: Date | null;
}

export interface StudentChargesTable {
  business_id: string;
  enrollment_id: string;
  period_start: string;
  period_end: string;
  student_id: string;
  program_id: string;
  request_id: string;
  amount_cents: number;
  created_at: Generated<Date>;
}
