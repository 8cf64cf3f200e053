import { ErrorCode, MONTH_PERIOD, monthPeriod, type PaymentRequest, type StudentRequestValues } from '@tay/contract';
import type { Transaction } from 'kysely';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { referenceNumber } from '../payment-requests/request-record';
import { claimCharges } from '../students/charges';
import { recordEvent } from '../businesses/audit';
import type { ScopedBusiness } from '../businesses/business-scope';
import type { ActingUser, RequestContext } from '../payment-requests/request-context';
import { createRequest, type RequestAttachment } from '../payment-requests/save-request';
import { studentSource } from './student-source';
import { selectStudent, studentName } from '../students/student-record';

/** A period as typed: `YYYY-MM` is that calendar month ("December 2026", from its first day); other text is kept as its label. */
export function periodOf(text: string | null | undefined): { label: string; start: string | null } | null {
  if (!text) return null;
  if (MONTH_PERIOD.test(text)) {
    const period = monthPeriod(`${text}-01`);
    return { label: period.label, start: period.start };
  }
  return { label: text, start: null };
}

/**
 * What a student's request carries (ADR 036), checked in the request's transaction: the student
 * (this business's, active, with a first guardian), the payer (the first guardian), the second
 * guardian for "both", the program (one the student is enrolled in now) and the period. Each
 * refusal names its field.
 */
function studentAttachment(business: ScopedBusiness, studentId: string, input: StudentRequestValues, user: ActingUser): RequestAttachment {
  return async (trx: Transaction<DB>) => {
    const student = await selectStudent(trx, business.id, studentId, { lock: true });
    const name = studentName(student);
    if (student.status !== 'active') {
      throw AppError.validation(`${name} is deactivated; activate the student first.`, { studentId: 'This student is deactivated; activate them first.' });
    }
    const guardians = await trx
      .selectFrom('student_guardians as sg')
      .innerJoin('payers as p', (j) => j.onRef('p.business_id', '=', 'sg.business_id').onRef('p.id', '=', 'sg.payer_id'))
      .select(['sg.position', 'p.id', 'p.display_name', 'p.status'])
      .where('sg.business_id', '=', business.id)
      .where('sg.student_id', '=', studentId)
      .orderBy('sg.position')
      .execute();
    const first = guardians.find((g) => Number(g.position) === 1) ?? guardians[0];
    if (!first) {
      throw AppError.validation(`${name} has no guardian to bill. Add a guardian to the student first.`, {
        studentId: 'Add a guardian to this student first.',
      });
    }
    let copyPayerId: string | null = null;
    if (input.billTo === 'both') {
      const second = guardians.find((g) => g.id !== first.id);
      if (!second) {
        throw AppError.validation(`${name} has one guardian only, so there is no second guardian to bill.`, {
          billTo: 'This student has one guardian: bill the guardian only, or add a second guardian.',
        });
      }
      if (second.status !== 'active') {
        throw AppError.validation(`${second.display_name}, the second guardian, is deactivated; activate them first or bill the first guardian only.`, {
          billTo: 'The second guardian is deactivated.',
        });
      }
      copyPayerId = second.id;
    }
    let program: { id: string; name: string; frequency: string; enrollmentId: string } | null = null;
    if (input.programId) {
      const enrolled = await trx
        .selectFrom('enrollments as e')
        .innerJoin('programs as pr', (j) => j.onRef('pr.business_id', '=', 'e.business_id').onRef('pr.id', '=', 'e.program_id'))
        .select(['pr.id', 'pr.name', 'pr.frequency', 'e.id as enrollmentId'])
        .where('e.business_id', '=', business.id)
        .where('e.student_id', '=', studentId)
        .where('e.program_id', '=', input.programId)
        .where('e.status', '=', 'active')
        .executeTakeFirst();
      if (!enrolled) {
        throw AppError.validation(`${name} is not enrolled in that program.`, { programId: 'Choose a program the student is enrolled in.' });
      }
      program = enrolled;
    }
    const period = periodOf(input.period);
    return {
      // A program and a calendar month bill that enrollment's period, once whichever way it is billed
      // (student_charges, ADR 036); the same period billed again is refused with the request that billed it.
      afterInsert: async (trx2, row) => {
        if (program && period?.start) {
          const month = monthPeriod(period.start);
          const [billed] = await claimCharges(trx2, business.id, [
            {
              studentId: student.id,
              programId: program.id,
              start: month.start,
              end: month.end,
              oneTime: program.frequency === 'one_time',
              enrollmentId: program.enrollmentId,
              requestId: row.id,
              amountCents: row.amount_cents,
            },
          ]);
          if (billed) {
            const ref = billed.number === null ? '' : ` (${referenceNumber(billed.number)})`;
            const what = program.frequency === 'one_time' ? '' : `, ${month.label}`;
            throw new AppError(ErrorCode.Conflict, `${name} was billed for ${program.name}${what} already${ref}.`, {
              period: `${program.frequency === 'one_time' ? program.name : month.label} is billed already${ref}.`,
            });
          }
        }
        await recordEvent(trx2, {
          businessId: business.id,
          actor: { userId: user.userId, label: user.email, ip: user.ip ?? null },
          action: 'student.request_created',
          details: {
            requestId: row.id,
            reference: referenceNumber(row.number),
            studentId,
            studentName: name,
            billTo: input.billTo,
            programId: program?.id ?? null,
            period: period?.label ?? null,
            mode: input.mode,
            amountCents: row.amount_cents,
          },
        });
      },
      payerId: first.id,
      source: studentSource({
        student: { studentId: student.id, name },
        program: program ? { programId: program.id, name: program.name } : null,
        period: period?.label ?? null,
        periodStart: period?.start ?? null,
        copyPayerId,
      }),
    };
  };
}

/** A request to pay for one student: the single request's draft / send / schedule, billed to the guardian or both. */
export async function createStudentRequest(
  ctx: RequestContext,
  { business, user, studentId, body }: { business: ScopedBusiness; user: ActingUser; studentId: string; body: StudentRequestValues },
): Promise<PaymentRequest> {
  const { billTo: _billTo, programId: _programId, period: _period, ...fields } = body;
  return createRequest(ctx, {
    business,
    user,
    // The payer is the student's first guardian, set by the attachment.
    body: { ...fields, payerId: '' },
    attach: studentAttachment(business, studentId, body, user),
  });
}
