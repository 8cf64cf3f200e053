import { createHash } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import { BATCH_SAMPLE_ROWS, csvRow, STUDENT_BILLING_BATCH_FIELDS, type BatchMapping } from '@tay/contract';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { newId } from '../../lib/ids';
import type { ScopedBusiness } from '../businesses/business-scope';
import { markRepeats } from './check-batch';
import { recordBatchEvent, recount } from './batch-record';
import { amountText, HIDDEN_FIELDS, studentBillingBatches } from './student-billing-rows';

/** One request to make for a student: what a cycle's run, Program Billing or a bulk request bills. */
export interface StudentBillingLine {
  studentId: string;
  programId: string | null;
  /** With `period`: the enrollment billed; its charge (student_charges) makes the period billed once. */
  enrollmentId: string | null;
  amountCents: number;
  period: { start: string; end: string; label: string } | null; // BillingPeriod from packages/contract/src/students/periods.ts
  memo: string;
  dueDate: string; // 'YYYY-MM-DD'
  billTo: 'guardian' | 'both';
}

/** The columns of the file a generated batch is written as: every field, by its label. */
const COLUMNS = STUDENT_BILLING_BATCH_FIELDS.map((f) => f.label);
const MAPPING: BatchMapping = { payer: 'existing', columns: Object.fromEntries(STUDENT_BILLING_BATCH_FIELDS.map((f) => [f.key, f.label])) };

/**
 * A Draft batch of kind 'student-billing' with its rows already checked (in review), in the
 * caller's transaction. It is written as the CSV file a person would upload (student id, program,
 * amount, period, memo, due date, bill), so it is reviewed, fixed, discarded and submitted like any
 * bulk batch; each row also keeps the enrollment and the period's dates (fields the file has no
 * column for), so submitting it bills that enrollment's period once. Lines naming a student or a
 * program of another business become rows with errors, never requests.
 */
export async function createStudentBillingBatch(
  trx: Transaction<DB>,
  business: ScopedBusiness,
  input: { lines: StudentBillingLine[]; fileName: string; billingRunId: string | null; user: { userId: string; email: string } },
): Promise<{ batchId: string; rows: number; valid: number; invalid: number; totalCents: number }> {
  const { lines, fileName, billingRunId, user } = input;
  if (lines.length === 0) throw AppError.validation('There is no one to bill: choose at least one student.', { studentIds: 'Choose at least one student.' });

  const studentIds = [...new Set(lines.map((l) => l.studentId))];
  const programIds = [...new Set(lines.map((l) => l.programId).filter((id): id is string => Boolean(id)))];
  const [students, programs] = await Promise.all([
    trx.selectFrom('students').select(['id', 'student_number']).where('business_id', '=', business.id).where('id', 'in', studentIds).execute(),
    programIds.length === 0
      ? Promise.resolve([])
      : trx.selectFrom('programs').select(['id', 'name']).where('business_id', '=', business.id).where('id', 'in', programIds).execute(),
  ]);
  const numberOf = new Map(students.map((s) => [s.id, s.student_number]));
  const nameOf = new Map(programs.map((p) => [p.id, p.name]));

  const rows = lines.map((l, i) => {
    const fields: Record<string, string> = {
      studentNumber: numberOf.get(l.studentId) ?? '',
      program: l.programId ? (nameOf.get(l.programId) ?? '') : '',
      amount: amountText(l.amountCents),
      period: l.period?.label ?? '',
      memo: l.memo,
      dueDate: l.dueDate,
      billTo: l.billTo,
    };
    // What the file cannot say: the student (even one of another business, so its row says so),
    // the program asked for, the enrollment and the period's dates.
    fields[HIDDEN_FIELDS.studentId] = l.studentId;
    if (l.programId) fields[HIDDEN_FIELDS.programId] = l.programId;
    if (l.enrollmentId) fields[HIDDEN_FIELDS.enrollmentId] = l.enrollmentId;
    if (l.period) {
      fields[HIDDEN_FIELDS.periodStart] = l.period.start;
      fields[HIDDEN_FIELDS.periodEnd] = l.period.end;
      fields[HIDDEN_FIELDS.periodLabel] = l.period.label;
    }
    return { line: i + 2, fields };
  });
  const cells = rows.map((r) => STUDENT_BILLING_BATCH_FIELDS.map((f) => r.fields[f.key] ?? ''));
  const bytes = Buffer.from(`${[csvRow(COLUMNS), ...cells.map((c) => csvRow(c))].join('\r\n')}\r\n`, 'utf8');

  const batchId = newId('bat');
  await trx
    .insertInto('batches')
    .values({
      business_id: business.id,
      id: batchId,
      kind: 'student-billing',
      billing_run_id: billingRunId,
      file_name: fileName,
      file_bytes: bytes.length,
      file_sha256: createHash('sha256').update(bytes).digest('hex'),
      encoding: 'utf-8',
      delimiter: ',',
      columns: JSON.stringify(COLUMNS) as never,
      sample: JSON.stringify(cells.slice(0, BATCH_SAMPLE_ROWS)) as never,
      file_rows: rows.length,
      mapping: JSON.stringify(MAPPING) as never,
      phase: 'validated',
      progress_done: rows.length,
      progress_total: rows.length,
      row_count: rows.length,
      heartbeat_at: null,
      send_mode: null,
      send_at: null,
      submitted_at: null,
      submitted_by_user_id: null,
      submitted_by: null,
      processed_at: null,
      created_by_user_id: user.userId,
      created_by: user.email,
    })
    .execute();
  await trx.insertInto('batch_files').values({ business_id: business.id, batch_id: batchId, content: bytes }).execute();

  const outcomes = await studentBillingBatches.checkRows(trx, business, MAPPING, rows);
  const stored = rows.map((r, i) => {
    const o = outcomes[i]!;
    return o.status === 'valid'
      ? {
          line: r.line,
          status: 'valid',
          fields: r.fields,
          errors: {},
          plan: o.plan,
          amount_cents: o.amountCents,
          payer_name: o.payerName,
          dedupe_key: o.dedupeKey,
        }
      : {
          line: r.line,
          status: 'invalid',
          fields: r.fields,
          errors: o.errors,
          plan: null,
          amount_cents: o.amountCents,
          payer_name: o.payerName,
          dedupe_key: null,
        };
  });
  await sql`
    INSERT INTO batch_rows (business_id, batch_id, line, status, fields, errors, plan, amount_cents, payer_name, dedupe_key)
    SELECT ${business.id}, ${batchId}, x.line, x.status, x.fields, x.errors, x.plan, x.amount_cents, x.payer_name, x.dedupe_key
    FROM jsonb_to_recordset(${JSON.stringify(stored)}::jsonb)
      AS x(line int, status text, fields jsonb, errors jsonb, plan jsonb, amount_cents bigint, payer_name text, dedupe_key text)`.execute(trx);
  await markRepeats(trx, business.id, batchId);
  await recount(trx, business.id, batchId);
  const batch = await trx
    .selectFrom('batches')
    .select(['row_count', 'valid_count', 'invalid_count', 'total_cents'])
    .where('business_id', '=', business.id)
    .where('id', '=', batchId)
    .executeTakeFirstOrThrow();
  await recordBatchEvent(trx, business.id, user, 'batch.created', {
    batchId,
    kind: 'student-billing',
    fileName,
    rows: batch.row_count,
    ...(billingRunId ? { billingRunId } : {}),
  });
  return { batchId, rows: batch.row_count, valid: batch.valid_count, invalid: batch.invalid_count, totalCents: Number(batch.total_cents) };
}
