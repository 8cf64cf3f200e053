import type { Kysely, Selectable } from 'kysely';
import { BATCH_FIELDS, csvRow, type Batch, type BatchKind, type BatchListQuery, type BatchRow, type BatchRowsQuery } from '@tay/contract';
import type { DB } from '../../db/schema';
import { recordPatientExportEvent, viewActor } from '../patients/patient-views';
import { referenceNumber } from '../payment-requests/request-record';

/** How a payout is named to people: PAY-1000. */
export const payoutNumber = (n: number) => `PAY-${n}`;
import { hidesBirthDates, maskedBirthDate } from './batch-privacy';
import { selectBatch, toBatch, type BatchRecord } from './batch-record';
import { plainPage } from '../../db/plain-list';

type RowRecord = Selectable<DB['batch_rows']>;

/** A row as the API answers it; given its batch, with what the batch's state must not show masked. */
export function rowOf(row: RowRecord, number: number | null, batch?: Pick<BatchRecord, 'kind' | 'state'>): BatchRow {
  const { fields, errors } = batch && hidesBirthDates(batch) ? maskedBirthDate(row.fields, row.errors) : row;
  return {
    row: row.line,
    status: row.status,
    fields,
    errors,
    amountCents: row.amount_cents === null ? null : Number(row.amount_cents),
    payerName: row.payer_name,
    requestId: row.request_id,
    referenceNumber: number === null ? null : referenceNumber(number),
  };
}

type Query = { page: number; pageSize: number };

/** GET /api/businesses/:id/batches: newest first, with the kind filter. */
export async function listBatches(db: Kysely<DB>, businessId: string, query: Query & Pick<BatchListQuery, 'kind'>) {
  let q = db.selectFrom('batches').where('business_id', '=', businessId);
  if (query.kind) q = q.where('kind', '=', query.kind);
  return plainPage(
    query,
    q
      .selectAll('batches')
      // Each batch's earlier twin (duplicateOf) in the same statement, not one query per row.
      .select((eb) =>
        eb
          .selectFrom('batches as twin')
          .select('twin.id')
          .whereRef('twin.business_id', '=', 'batches.business_id')
          .whereRef('twin.file_sha256', '=', 'batches.file_sha256')
          .whereRef('twin.id', '!=', 'batches.id')
          .whereRef('twin.created_at', '<=', 'batches.created_at')
          .orderBy('twin.created_at')
          .orderBy('twin.id')
          .limit(1)
          .as('duplicate_of'),
      )
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc'),
    q,
    (rows): Batch[] => rows.map(({ duplicate_of, ...row }) => toBatch(row, duplicate_of ?? null)),
  );
}

/** GET …/rows: in file order, filtered by outcome; each sent row with the reference of its request. */
export async function listRows(db: Kysely<DB>, businessId: string, batchId: string, query: Query & { status: NonNullable<BatchRowsQuery['status']> }) {
  const batch = await selectBatch(db, businessId, batchId);
  let q = db.selectFrom('batch_rows as r').where('r.business_id', '=', businessId).where('r.batch_id', '=', batchId);
  if (query.status !== 'all') q = q.where('r.status', '=', query.status);
  return plainPage(
    query,
    q
      .leftJoin('payment_requests as p', (join) => join.onRef('p.business_id', '=', 'r.business_id').onRef('p.id', '=', 'r.request_id'))
      .leftJoin('payouts as o', (join) => join.onRef('o.business_id', '=', 'r.business_id').onRef('o.id', '=', 'r.request_id'))
      .selectAll('r')
      .select(['p.number', 'o.number as payout_number'])
      .orderBy('r.line'),
    q,
    (rows) =>
      rows.map(({ payout_number, ...r }) =>
        payout_number !== null
          ? { ...rowOf(r, null, batch), referenceNumber: payoutNumber(Number(payout_number)) }
          : rowOf(r, r.number === null ? null : Number(r.number), batch),
      ),
  );
}

const EXPORT_CHUNK = 2000;

/** The batch kinds whose rows are patients' data (ADR 037). */
const PATIENT_KINDS: ReadonlySet<string> = new Set<BatchKind>(['patients', 'patient-billing']);

/**
 * GET …/errors.csv: the rows with errors (and those that failed to send) as the file had them,
 * each with its line and what is wrong — to fix in the spreadsheet and upload again. Cells that
 * a spreadsheet would run as a formula are written as text (`csvCell`). A submitted patient
 * import writes the date of birth masked (`hidesBirthDates`). The rows of a patient batch are
 * patient data: the export is on the audit log (`patients.exported`, how many rows) before the
 * header goes out.
 */
export async function* errorRowsCsv(
  db: Kysely<DB>,
  businessId: string,
  batchId: string,
  viewer: { userId: string; email: string; name?: string | null; ip?: string | undefined },
): AsyncGenerator<string> {
  const batch = await selectBatch(db, businessId, batchId);
  if (PATIENT_KINDS.has(batch.kind)) {
    const { n } = await db
      .selectFrom('batch_rows')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('business_id', '=', businessId)
      .where('batch_id', '=', batchId)
      .where('status', 'in', ['invalid', 'failed'])
      .executeTakeFirstOrThrow();
    await recordPatientExportEvent(db, {
      businessId,
      kind: 'batch-errors',
      userId: viewer.userId,
      actor: viewActor(viewer),
      ipAddress: viewer.ip ?? null,
      count: Number(n),
      filters: {},
      details: { batchId, batchKind: batch.kind, fileName: batch.file_name },
    });
  }
  const fields = BATCH_FIELDS[batch.kind].filter((f) => batch.mapping.columns[f.key]);
  const masked = hidesBirthDates(batch);
  const labelOf = (key: string) => BATCH_FIELDS[batch.kind].find((f) => f.key === key)?.label ?? (key === 'row' ? 'Row' : key);
  yield `${csvRow(['Line', ...fields.map((f) => batch.mapping.columns[f.key]!), 'Errors'])}\r\n`;
  let after = 0;
  for (;;) {
    const rows = await db
      .selectFrom('batch_rows')
      .select(['line', 'fields', 'errors'])
      .where('business_id', '=', businessId)
      .where('batch_id', '=', batchId)
      .where('status', 'in', ['invalid', 'failed'])
      .where('line', '>', after)
      .orderBy('line')
      .limit(EXPORT_CHUNK)
      .execute();
    if (rows.length === 0) return;
    yield rows
      .map((stored) => ({ line: stored.line, ...(masked ? maskedBirthDate(stored.fields, stored.errors) : stored) }))
      .map((r) =>
        csvRow([
          r.line,
          ...fields.map((f) => r.fields[f.key] ?? ''),
          Object.entries(r.errors)
            .map(([key, message]) => `${labelOf(key)}: ${message}`)
            .join(' '),
        ]),
      )
      .join('\r\n')
      .concat('\r\n');
    after = rows.at(-1)!.line;
  }
}
