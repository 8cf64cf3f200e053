import type { Kysely } from 'kysely';
import type { FieldErrors, PayerImportBody, PayerImportResult } from '@tay/contract';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { newId } from '../../lib/ids';
import { recordEvent, type Actor } from '../businesses/audit';
import { markExistingPayers, readImportFile } from './import-file';

const INSERT_CHUNK = 500;

/**
 * POST /api/businesses/:id/payers/import: all or nothing. Any row with an error refuses the whole
 * file (400, `fields` keyed `rows.<line>.<field>`) and nothing is saved. Rows whose payer exists
 * already — in the business or earlier in the file — are skipped and counted, so importing the
 * same file twice creates nothing the second time; a concurrent twin import is absorbed by the
 * unique indexes (ON CONFLICT DO NOTHING). Imported payers are unverified and not e-mailed
 * (ADR 005): the merchant sends the links with "Resend verification" when they choose to.
 */
export async function importPayers({
  db,
  businessId,
  actor,
  body,
}: {
  db: Kysely<DB>;
  businessId: string;
  actor: Actor & { userId: string };
  body: PayerImportBody;
}): Promise<PayerImportResult> {
  const file = readImportFile({ businessId, csv: body.csv, ...(body.mapping ? { mapping: body.mapping } : {}) });
  const bad = file.rows.filter((r) => r.status === 'error');
  if (bad.length > 0) {
    const fields: FieldErrors = {};
    for (const row of bad) for (const [field, message] of Object.entries(row.errors)) fields[`rows.${row.row}.${field}`] = message;
    const lines = bad.map((r) => r.row);
    const where = `${lines.slice(0, 10).join(', ')}${lines.length > 10 ? '…' : ''}`;
    throw AppError.validation(
      bad.length === 1
        ? `Line ${where} has errors, so nothing was imported. Fix it and import the file again.`
        : `${bad.length} rows have errors (lines ${where}), so nothing was imported. Fix them and import the file again.`,
      fields,
    );
  }

  return db.transaction().execute(async (trx) => {
    await markExistingPayers(trx, businessId, file.rows);
    const fresh = file.rows.filter((r) => r.status === 'new');
    let added = 0;
    for (let i = 0; i < fresh.length; i += INSERT_CHUNK) {
      const inserted = await trx
        .insertInto('payers')
        .values(
          fresh.slice(i, i + INSERT_CHUNK).map((r) => ({
            business_id: businessId,
            id: newId('pyr'),
            first_name: r.payer.firstName,
            last_name: r.payer.lastName,
            company_name: r.payer.companyName,
            display_name: r.payer.displayName,
            email: r.payer.email,
            mobile_number: r.payer.mobileNumber,
            reference: r.payer.reference,
            verification_token_hash: null,
            verification_sent_at: null,
            verified_at: null,
            import_batch_id: file.batchId,
          })),
        )
        .onConflict((oc) => oc.doNothing())
        .returning('id')
        .execute();
      added += inserted.length;
    }
    const skipped = file.rows.length - added;
    await recordEvent(trx, { businessId, actor, action: 'payers.imported', details: { batchId: file.batchId, rows: file.rows.length, added, skipped } });
    return { added, skipped, batchId: file.batchId };
  });
}
