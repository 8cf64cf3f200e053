import { studentRequestLine, type PaymentRequest } from '@tay/contract';
import { sourceListOf, type RequestRow } from '../payment-requests/request-record';
import type { RequestSource, RequestSourceDefinition } from '../payment-requests/request-source';

/** What a student's request (ADR 036) carries as its source: whom, which program and period, and a second guardian. */
export interface StudentCharge {
  student: { studentId: string; name: string };
  program: { programId: string; name: string } | null;
  /** The period's label ("December 2026") and its first day ('YYYY-MM-DD'). */
  period: string | null;
  periodStart: string | null;
  /** "Bill both guardians": the second guardian gets the same messages and link (one payment settles it). */
  copyPayerId: string | null;
}

/** The source record of a student's request. */
export function studentSource(charge: StudentCharge): RequestSource {
  return {
    kind: 'student',
    id: charge.student.studentId,
    number: null,
    record: {
      list: { student: charge.student, program: charge.program, period: charge.period } satisfies Pick<PaymentRequest, 'student' | 'program' | 'period'>,
      periodStart: charge.periodStart,
      copyPayerId: charge.copyPayerId,
    },
  };
}

/** The student's charge a request carries, or null when it is not a student's. */
export function studentChargeOf(row: Pick<RequestRow, 'source_kind' | 'source'>): StudentCharge | null {
  if (row.source_kind !== 'student') return null;
  const list = sourceListOf(row) as Pick<PaymentRequest, 'student' | 'program' | 'period'>;
  if (!list.student) return null;
  return {
    student: list.student,
    program: list.program,
    period: list.period,
    periodStart: (row.source.periodStart as string | null | undefined) ?? null,
    copyPayerId: (row.source.copyPayerId as string | null | undefined) ?? null,
  };
}

/** "For Mia Lopez — Piano, December 2026". */
function lineOf(row: RequestRow): string | null {
  const charge = studentChargeOf(row);
  return charge ? studentRequestLine({ studentName: charge.student.name, programName: charge.program?.name ?? null, period: charge.period }) : null;
}

/** A student's charge (ADR 036): its messages and page say whom it is for; a second guardian is sent the same link. */
export const studentRequestSource: RequestSourceDefinition = {
  kind: 'student',
  messageLine: lineOf,
  copyPayerId: (row) => studentChargeOf(row)?.copyPayerId ?? null,
  async onDraftDeleted(trx, row) {
    // A draft that billed an enrollment's period releases it: it can be billed again.
    await trx.deleteFrom('student_charges').where('business_id', '=', row.business_id).where('request_id', '=', row.id).execute();
  },
  payPage: async (_db, row) => ({ forStudent: lineOf(row) }),
  exportColumns: [
    { header: 'Student', at: 'end', template: 'student', value: (row) => studentChargeOf(row)?.student.name ?? '' },
    { header: 'Program', at: 'end', template: 'student', value: (row) => studentChargeOf(row)?.program?.name ?? '' },
    { header: 'Period', at: 'end', template: 'student', value: (row) => studentChargeOf(row)?.period ?? '' },
  ],
  filters: [
    { param: 'studentId', on: { id: true } },
    { param: 'programId', on: { path: ['list', 'program', 'programId'] } },
    { param: 'period', on: { path: ['list', 'period'] } },
  ],
};
