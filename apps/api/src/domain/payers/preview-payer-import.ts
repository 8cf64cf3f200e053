import type { Kysely } from 'kysely';
import type { PayerImportBody, PayerImportPreview } from '@tay/contract';
import type { DB } from '../../db/schema';
import { countRows, markExistingPayers, readImportFile } from './import-file';

/**
 * POST /api/businesses/:id/payers/import/preview: what importing the file would do, row by row,
 * changing nothing. Like the import itself it needs an Approved business.
 */
export async function previewPayerImport({ db, businessId, body }: { db: Kysely<DB>; businessId: string; body: PayerImportBody }): Promise<PayerImportPreview> {
  const file = readImportFile({ businessId, csv: body.csv, ...(body.mapping ? { mapping: body.mapping } : {}) });
  await markExistingPayers(db, businessId, file.rows);
  return { headers: file.headers, suggestedMapping: file.suggestedMapping, mapping: file.mapping, rows: file.rows, counts: countRows(file.rows) };
}
