import { ErrorCode, statementLines, statementTotals, type PatientStatementValues, type PaymentRequest, type StatementLineValues } from '@tay/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { recordEvent } from '../businesses/audit';
import type { ScopedBusiness } from '../businesses/business-scope';
import type { ActingUser, RequestContext } from '../payment-requests/request-context';
import { referenceNumber, todayIn, toPaymentRequest } from '../payment-requests/request-record';
import { createRequest, type RequestAttachment } from '../payment-requests/save-request';
import { statementSource } from './statement-source';
import { patientName, selectPatient } from '../patients/patient-record';
import { recordPatientView, viewActor } from '../patients/patient-views';

/**
 * The dates of a statement, in the business's time zone: the date of service and each line's
 * service date are not in the future (a statement bills care already given).
 */
export function checkServiceDates(business: Pick<ScopedBusiness, 'timeZone'>, dateOfService: string, lines: readonly StatementLineValues[]): void {
  const today = todayIn(business.timeZone);
  if (dateOfService > today) {
    throw AppError.validation('The date of service cannot be in the future.', { dateOfService: 'Choose today or an earlier date.' });
  }
  const late = lines.findIndex((l) => l.serviceDate > today);
  if (late >= 0) {
    throw AppError.validation(`Line ${late + 1}: the service date cannot be in the future.`, {
      [`lines.${late}.serviceDate`]: `Line ${late + 1}: choose today or an earlier date.`,
    });
  }
}

/**
 * What a statement's request carries, checked in its transaction: the patient (this business's,
 * active; locked), the payer (the patient's guarantor, active), the statement's columns and the
 * audit entry.
 */
function statementAttachment(
  business: ScopedBusiness,
  patientId: string,
  lines: StatementLineValues[],
  input: PatientStatementValues,
  user: ActingUser,
): RequestAttachment {
  return async (trx) => {
    const patient = await selectPatient(trx, business.id, patientId, { lock: true });
    const name = patientName(patient);
    if (patient.status !== 'active') {
      throw new AppError(ErrorCode.Conflict, `${name} is deactivated; activate the patient before sending them a statement.`, {
        clientId: 'This patient is deactivated; activate them first.',
      });
    }
    const guarantor = await trx
      .selectFrom('payers')
      .select(['id', 'display_name', 'status'])
      .where('business_id', '=', business.id)
      .where('id', '=', patient.guarantor_payer_id)
      .executeTakeFirstOrThrow();
    if (guarantor.status !== 'active') {
      throw new AppError(
        ErrorCode.Conflict,
        `${guarantor.display_name}, the guarantor billed for ${name}, is deactivated; activate the payer or choose another guarantor first.`,
        { clientId: "The patient's guarantor is deactivated." },
      );
    }
    return {
      payerId: guarantor.id,
      source: statementSource({ id: patient.id, name, firstName: patient.first_name }, input.dateOfService, lines),
      afterInsert: async (trx2, row) => {
        await recordEvent(trx2, {
          businessId: business.id,
          actor: { userId: user.userId, label: user.email, ip: user.ip ?? null },
          action: 'patient.statement_created',
          details: {
            requestId: row.id,
            reference: referenceNumber(row.number),
            patientId: patient.id,
            dateOfService: input.dateOfService,
            lines: lines.length,
            mode: input.mode,
            amountCents: row.amount_cents,
          },
        });
      },
    };
  };
}

/**
 * A statement for one patient (ADR 037): a request to pay billed to the patient's guarantor for
 * the total of the lines' patient responsibility, saved as a draft, sent now or scheduled as the
 * single request is.
 */
export async function createPatientStatement(
  ctx: RequestContext,
  { business, user, patientId, body }: { business: ScopedBusiness; user: ActingUser; patientId: string; body: PatientStatementValues },
): Promise<PaymentRequest> {
  const { dateOfService: _date, lines: input, ...fields } = body;
  const lines = statementLines(input, body.dateOfService);
  checkServiceDates(business, body.dateOfService, lines);
  return createRequest(ctx, {
    business,
    user,
    // The payer is the patient's guarantor, set by the attachment; the amount is the lines' total.
    body: { ...fields, payerId: '', amountCents: statementTotals(lines).responsibilityCents },
    attach: statementAttachment(business, patientId, lines, body, user),
  });
}

/**
 * A patient's statements (their requests), newest first, a page at a time. Reading them is a view
 * of the patient's record: it is written to the record's views and the audit trail.
 */
export async function listPatientStatements(
  db: Kysely<DB>,
  {
    business,
    user,
    patientId,
    query,
  }: {
    business: ScopedBusiness;
    user: { id: string; email: string; name: string; ip?: string | undefined };
    patientId: string;
    query: { page: number; pageSize: number };
  },
): Promise<{ items: PaymentRequest[]; page: number; pageSize: number; total: number }> {
  return db.transaction().execute(async (trx) => {
    await selectPatient(trx, business.id, patientId);
    const [rows, count] = await Promise.all([
      trx
        .selectFrom('payment_requests')
        .selectAll()
        .where('business_id', '=', business.id)
        .where('source_kind', '=', 'patient')
        .where('source_id', '=', patientId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(query.pageSize)
        .offset((query.page - 1) * query.pageSize)
        .execute(),
      trx
        .selectFrom('payment_requests')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('business_id', '=', business.id)
        .where('source_kind', '=', 'patient')
        .where('source_id', '=', patientId)
        .executeTakeFirstOrThrow(),
    ]);
    await recordPatientView(trx, {
      businessId: business.id,
      patientId,
      userId: user.id,
      actor: viewActor(user),
      what: 'statements',
      ipAddress: user.ip ?? null,
    });
    return { items: rows.map(toPaymentRequest), page: query.page, pageSize: query.pageSize, total: Number(count.n) };
  });
}
