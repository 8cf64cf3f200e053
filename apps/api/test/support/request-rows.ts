import type { Selectable } from 'kysely';
import type { PaymentRequest, RequestStatement } from '@tay/contract';
import type { PaymentRequestsTable } from '../../src/db/schema/payments';

type Row = Selectable<PaymentRequestsTable>;

/**
 * A request's row with what its source holds (ADR 045) read out under names of its own, for the
 * tests that look at the stored rows: the invoice, the QR code, the student, the patient.
 */
export function withSource<R extends Pick<Row, 'source_kind' | 'source_id' | 'source_number' | 'source'>>(row: R) {
  const list = row.source.list as Partial<PaymentRequest>;
  const statement = (list.statement ?? null) as RequestStatement | null;
  const of = (kind: string) => (row.source_kind === kind ? row.source_id : null);
  return {
    ...row,
    invoice_id: of('invoice'),
    invoice_number: row.source_kind === 'invoice' ? row.source_number : null,
    qr_code_id: of('qr'),
    qr_code_label: list.qrCodeLabel ?? null,
    payer_phone: (row.source.payerPhone as string | null | undefined) ?? null,
    payer_note: (row.source.payerNote as string | null | undefined) ?? null,
    student_id: of('student'),
    student_name: list.student?.name ?? null,
    program_id: list.program?.programId ?? null,
    program_name: list.program?.name ?? null,
    period: list.period ?? null,
    period_start: (row.source.periodStart as string | null | undefined) ?? null,
    copy_payer_id: (row.source.copyPayerId as string | null | undefined) ?? null,
    patient_id: of('patient'),
    patient_name: list.patientName ?? null,
    patient_first_name: (row.source.patientFirstName as string | null | undefined) ?? null,
    date_of_service: statement?.dateOfService ?? null,
    statement_lines: statement?.lines ?? null,
  };
}
