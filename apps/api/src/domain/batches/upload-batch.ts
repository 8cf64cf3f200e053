import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { BATCH_SAMPLE_ROWS, MAX_BATCH_FILE_BYTES, MAX_BATCH_ROWS, suggestBatchMapping, type Batch, type BatchKind } from '@tay/contract';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { CsvParseError, decodeCsvBytes, detectDelimiter, isBlankLine, isBlankRecord, looksBinary, readCsvRecords } from '../../lib/csv';
import { newId } from '../../lib/ids';
import type { ScopedBusiness } from '../businesses/business-scope';
import { duplicateOf, recordBatchEvent, toBatch } from './batch-record';

export const TOO_LARGE = `The file is larger than ${MAX_BATCH_FILE_BYTES / 1024 / 1024} MB. Split it into smaller files and upload them one by one.`;

const refuse = (message: string) => AppError.validation(message, { file: message });

/** What reading a whole file found: its text, how it was read, its header and how many rows. */
export interface ReadFile {
  text: string;
  encoding: 'utf-8' | 'windows-1252';
  delimiter: ',' | ';' | '\t';
  header: string[];
  rows: number;
  sample: string[][];
}

/**
 * Reads an uploaded file from end to end, streaming, and refuses it whole with one sentence when
 * it cannot be used: not text, empty, no header, a quoted value that never closes (with its
 * line), a repeated column name, more than MAX_BATCH_ROWS rows.
 */
export async function readBatchFile(bytes: Buffer): Promise<ReadFile> {
  if (bytes.length === 0) throw refuse('The file is empty. Choose a CSV file with a header row and one row per request.');
  if (bytes.length > MAX_BATCH_FILE_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', TOO_LARGE, undefined, 413);
  const { text, encoding } = decodeCsvBytes(bytes);
  if (looksBinary(text)) {
    throw refuse('This file is not a CSV text file. In your spreadsheet, choose "Save as" or "Export" → CSV (comma-separated values), then upload that file.');
  }
  const delimiter = detectDelimiter(text);
  let header: string[] | null = null;
  let rows = 0;
  const sample: string[][] = [];
  try {
    for await (const record of readCsvRecords(text, delimiter)) {
      // The first line with anything on it is the header, even if all its names are empty.
      if (!header) {
        if (!isBlankLine(record)) header = record.cells.map((c) => c.trim());
      } else if (isBlankRecord(record)) continue;
      else if (++rows <= BATCH_SAMPLE_ROWS) sample.push(record.cells);
      else if (rows > MAX_BATCH_ROWS) {
        throw refuse(
          `The file has more than ${MAX_BATCH_ROWS.toLocaleString('en-US')} rows. Split it into files of at most ${MAX_BATCH_ROWS.toLocaleString('en-US')} rows.`,
        );
      }
    }
  } catch (error) {
    if (error instanceof CsvParseError) throw refuse(`This file is not valid CSV: ${error.message}.`);
    throw error;
  }
  if (!header) throw refuse('The file is empty. Choose a CSV file with a header row and one row per request.');
  if (header.every((h) => h === '')) throw refuse('The first line of the file has no column names. Put a header row with a name for every column first.');
  const seen = new Set<string>();
  for (const h of header) {
    if (h === '') continue;
    if (seen.has(h.toLowerCase())) throw refuse(`The column "${h}" appears twice in the header row. Give every column its own name.`);
    seen.add(h.toLowerCase());
  }
  if (rows === 0) throw refuse('The file has a header row but no rows under it. Add one row per request under the header.');
  return { text, encoding, delimiter, header, rows, sample };
}

/**
 * POST /api/businesses/:id/batches: reads the file whole (nothing is saved when it cannot be
 * used) and stores it as a Draft batch with the mapping its headers suggest. Its rows are read
 * and checked when the mapping is set (`mapBatch`).
 */
export async function uploadBatch({
  db,
  business,
  user,
  kind,
  fileName,
  bytes,
}: {
  db: Kysely<DB>;
  business: ScopedBusiness;
  user: { userId: string; email: string; ip?: string | undefined };
  kind: BatchKind;
  fileName: string;
  bytes: Buffer;
}): Promise<Batch> {
  const file = await readBatchFile(bytes);
  const id = newId('bat');
  const sha = createHash('sha256').update(bytes).digest('hex');
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('batches')
      .values({
        business_id: business.id,
        id,
        kind,
        file_name: fileName,
        file_bytes: bytes.length,
        file_sha256: sha,
        encoding: file.encoding,
        delimiter: file.delimiter,
        columns: JSON.stringify(file.header) as never,
        sample: JSON.stringify(file.sample) as never,
        file_rows: file.rows,
        mapping: JSON.stringify(suggestBatchMapping(kind, file.header)) as never,
        row_count: file.rows,
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
      .returningAll()
      .executeTakeFirstOrThrow();
    await trx.insertInto('batch_files').values({ business_id: business.id, batch_id: id, content: bytes }).execute();
    await recordBatchEvent(trx, business.id, user, 'batch.uploaded', { batchId: id, kind, fileName, rows: file.rows });
    return toBatch(row, await duplicateOf(trx, row));
  });
}
