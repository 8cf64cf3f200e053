import type { Kysely } from 'kysely';
import { csvRow, formatDateTime, formatDay } from '@tay/contract';
import type { DB } from '../../db/schema';
import { REQUEST_SOURCES } from '../request-sources';
import { recordHistoryRead, requestsList, type ListQuery } from './list-requests';
import { referenceNumber, type RequestRow } from './request-record';
import type { Reader, SourceExportColumn } from './request-source';

const BATCH = 2000;

const dollars = (cents: number) => (cents / 100).toFixed(2);

/** The sources' columns for a business of this template, where each goes. */
function sourceColumns(template: string, at: SourceExportColumn['at']): SourceExportColumn[] {
  return REQUEST_SOURCES.flatMap((s) => s.exportColumns ?? []).filter((c) => c.at === at && (c.template === undefined || c.template === template));
}

/**
 * The CSV's columns: the request's own, and each source's where it puts them (the invoice's number
 * after the reference, the QR code's label after the sent time, the student's and the patient's
 * at the end, for a business of their template). Times are in the business's time zone, as its
 * date filters are; the header says which.
 */
function columnsOf(timeZone: string, template: string): { header: string; value: (r: RequestRow) => string }[] {
  return [
    { header: 'Reference', value: (r) => referenceNumber(r.number) },
    ...sourceColumns(template, 'afterReference'),
    { header: 'Status', value: (r) => r.state },
    { header: 'Payer', value: (r) => r.payer_display_name },
    { header: 'Payer e-mail', value: (r) => r.payer_email },
    { header: 'Amount (USD)', value: (r) => dollars(r.amount_cents) },
    { header: 'Paid (USD)', value: (r) => dollars(r.amount_paid_cents) },
    { header: 'Memo', value: (r) => r.memo },
    { header: 'Your reference', value: (r) => r.reference },
    { header: 'Due date', value: (r) => formatDay(r.due_date) },
    { header: 'Expires', value: (r) => formatDay(r.expires_on) },
    { header: `Created (${timeZone})`, value: (r) => formatDateTime(r.created_at, timeZone) },
    { header: `Sent (${timeZone})`, value: (r) => (r.sent_at ? formatDateTime(r.sent_at, timeZone) : '') },
    ...sourceColumns(template, 'afterSent'),
    ...sourceColumns(template, 'end'),
  ];
}

/**
 * The CSV of exactly what the list shows (same filters, search, sort and direction), produced in
 * batches by keyset on (sort column, id) so memory stays flat however many rows match. The filters
 * are checked before the header goes out.
 */
export async function* exportRequests({
  db,
  businessId,
  timeZone,
  template,
  query,
  viewer,
}: {
  db: Kysely<DB>;
  businessId: string;
  timeZone: string;
  /** The business's template (`EntityType`): a source's columns may be for one template only. */
  template: string;
  query: ListQuery;
  /** Who is exporting: a source may keep a record of it (a patient's statements, ADR 037). */
  viewer: Reader;
}): AsyncGenerator<string> {
  const batches = requestsList.batches<RequestRow>({ db, businessId, query, batchSize: BATCH });
  // The first batch checks the filters: a bad one throws before the header goes out.
  const first = await batches.next();
  // A read the sources keep a record of is on record before any of its rows goes out.
  await recordHistoryRead(db, { businessId, query, user: viewer });
  // A source may count the export itself (a healthcare business's statements: an export of patient data).
  const trackers = REQUEST_SOURCES.flatMap((s) => s.exported?.(db, { businessId, user: viewer, query: query as Record<string, unknown> }) ?? []);
  const columns = columnsOf(timeZone, template);
  const lines = (rows: RequestRow[]) => rows.map((r) => `${csvRow(columns.map((c) => c.value(r)))}\r\n`).join('');
  try {
    yield `\ufeff${csvRow(columns.map((c) => c.header))}\r\n`;
    if (first.done) return;
    for (const t of trackers) await t.before(first.value);
    yield lines(first.value);
    for await (const rows of batches) {
      for (const t of trackers) await t.before(rows);
      yield lines(rows);
    }
  } finally {
    for (const t of trackers) await t.end();
  }
}
