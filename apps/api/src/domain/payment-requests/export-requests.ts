import type { Kysely, Selectable } from 'kysely';
import { csvRow, formatDateTime, formatDay } from '@tay/contract';
import type { DB } from '../../db/schema';
import { exportFilters, recordPatientExportEvent, recordPatientExportViews, viewActor } from '../patients/patient-views';
import { recordHistoryView, requestsList, type ListQuery } from './list-requests';
import { invoiceNumber, referenceNumber } from './request-record';

/** Times are in the business's time zone, as its date filters are; the header says which. */
const header = (timeZone: string, students: boolean, patients: boolean) => [
  'Reference',
  'Invoice',
  'Status',
  'Payer',
  'Payer e-mail',
  'Amount (USD)',
  'Paid (USD)',
  'Memo',
  'Your reference',
  'Due date',
  'Expires',
  `Created (${timeZone})`,
  `Sent (${timeZone})`,
  'QR code',
  // The student template's requests (ADR 036): whom, which program, which period.
  ...(students ? ['Student', 'Program', 'Period'] : []),
  // The healthcare template's statements (ADR 037): whose, and the date of service.
  ...(patients ? ['Patient', 'Date of service'] : []),
];
const BATCH = 2000;

const dollars = (cents: number) => (cents / 100).toFixed(2);

/**
 * The CSV of exactly what the list shows (same filters, search, sort and direction), produced in
 * batches by keyset on (sort column, id) so memory stays flat however many rows match. The filters
 * are checked before the header goes out.
 */
export async function* exportRequests({
  db,
  businessId,
  timeZone,
  query,
  students = false,
  patients = false,
  viewer,
}: {
  db: Kysely<DB>;
  businessId: string;
  timeZone: string;
  query: ListQuery;
  /** With the student, program and period columns (a student-template business). */
  students?: boolean;
  /** With the patient and date-of-service columns (a healthcare-template business). */
  patients?: boolean;
  /** Who is exporting: filtered to a patient (`clientId`), the export is a view of their statements (ADR 037). */
  viewer: { id: string; email: string; name: string | null; ip: string | null };
}): AsyncGenerator<string> {
  const batches = requestsList.batches<Selectable<DB['payment_requests']>>({ db, businessId, query, batchSize: BATCH });
  // The first batch checks the filters: a bad one throws before the header goes out.
  const first = await batches.next();
  // The view is on record before any of the patient's statements goes out.
  await recordHistoryView(db, { businessId, clientId: query.clientId, user: viewer });
  // Otherwise a healthcare business's history holds its patients' statements: an export of patient data.
  const statements = patients && !query.clientId ? statementExport(db, businessId, viewer, query) : null;
  try {
    yield `\ufeff${csvRow(header(timeZone, students, patients))}\r\n`;
    if (first.done) return;
    await statements?.before(first.value);
    yield lines(first.value, timeZone, students, patients);
    for await (const rows of batches) {
      await statements?.before(rows);
      yield lines(rows, timeZone, students, patients);
    }
  } finally {
    await statements?.end();
  }
}

/** The history's filters the audit log keeps of an export (a search as `true`). */
const HISTORY_FILTERS = [
  'view',
  'status',
  'payerId',
  'batchId',
  'qrId',
  'from',
  'to',
  'sentFrom',
  'sentTo',
  'paidFrom',
  'paidTo',
  'returnedFrom',
  'returnedTo',
  'minAmountCents',
  'maxAmountCents',
  'search',
] as const;

/**
 * The history's export as an export of patient data (ADR 037): before each batch goes out, an
 * `export` view of every patient whose statement it holds (once per export); when the export
 * ends, finished or cut off, the audit log's `patients.exported` with how many statements went
 * (none: no entry).
 */
function statementExport(db: Kysely<DB>, businessId: string, viewer: { id: string; email: string; name: string | null; ip: string | null }, query: ListQuery) {
  const seen = new Set<string>();
  let count = 0;
  const who = { businessId, userId: viewer.id, actor: viewActor(viewer), ipAddress: viewer.ip };
  return {
    async before(rows: Selectable<DB['payment_requests']>[]) {
      const fresh: string[] = [];
      for (const r of rows) {
        if (r.patient_id === null) continue;
        count++;
        if (!seen.has(r.patient_id)) fresh.push(r.patient_id);
        seen.add(r.patient_id);
      }
      await recordPatientExportViews(db, { ...who, patientIds: fresh });
    },
    async end() {
      if (count === 0) return; // no statement went: nothing of a patient's left
      await recordPatientExportEvent(db, {
        ...who,
        kind: 'history',
        count,
        patients: seen.size,
        filters: exportFilters(query as Record<string, unknown>, HISTORY_FILTERS),
      });
    },
  };
}

function lines(rows: Selectable<DB['payment_requests']>[], timeZone: string, students: boolean, patients: boolean): string {
  return rows
    .map(
      (r) =>
        `${csvRow([
          referenceNumber(r.number),
          r.invoice_number === null ? '' : invoiceNumber(r.invoice_number),
          r.state,
          r.payer_display_name,
          r.payer_email,
          dollars(r.amount_cents),
          dollars(r.amount_paid_cents),
          r.memo,
          r.reference,
          formatDay(r.due_date),
          formatDay(r.expires_on),
          formatDateTime(r.created_at, timeZone),
          r.sent_at ? formatDateTime(r.sent_at, timeZone) : '',
          r.qr_code_label ?? '',
          ...(students ? [r.student_name ?? '', r.program_name ?? '', r.period ?? ''] : []),
          ...(patients ? [r.patient_name ?? '', r.date_of_service ? formatDay(r.date_of_service) : ''] : []),
        ])}\r\n`,
    )
    .join('');
}
