import { sql, type Kysely } from 'kysely';
import { csvRow, formatDateTime } from '@tay/contract';
import type { DB } from '../../db/schema';
import { filterPayers, sortExpression, type PayerQuery } from './payer-query';
import { selectPayers, toPayer } from './payer-record';

export const EXPORT_BATCH_SIZE = 500;

export const EXPORT_HEADERS = [
  'Payer ID',
  'First name',
  'Last name',
  'Company',
  'Display name',
  'E-mail',
  'Mobile number',
  'Reference',
  'Status',
  'Verification',
  'Verified at',
  // As the list's Requests column: the payer's transaction history, and the drafts beside it.
  'Requests',
  'Drafts',
  'Created at',
];

/** `YYYY-MM-DD` of `now` in the business's time zone. */
function localDate(now: Date, timeZone: string): string {
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
  } catch {
    return now.toISOString().slice(0, 10);
  }
}

/**
 * GET /api/businesses/:id/payers/export.csv: every payer the list's query matches (filters,
 * search, sort; not the page), as CSV lines safe against formula injection (`csvRow`), times as
 * `MMM dd, yyyy H:mm` in the business's time zone like the transactions export. Rows are
 * read in batches by keyset (the sort key, then id), so a large list never sits in memory and no
 * transaction stays open while the client downloads.
 */
export async function exportPayers({
  db,
  businessId,
  query,
  now = new Date(),
}: {
  db: Kysely<DB>;
  businessId: string;
  query: PayerQuery;
  now?: Date;
}): Promise<{ filename: string; lines: AsyncGenerator<string> }> {
  const business = await db.selectFrom('businesses').select('time_zone').where('id', '=', businessId).executeTakeFirstOrThrow();
  const filename = `payers-${localDate(now, business.time_zone)}.csv`;
  const asc = query.sortDirection === 'asc';
  const key = sortExpression(query.sortBy);
  const keyType = query.sortBy === 'createdAt' ? sql`timestamptz` : sql`text`;

  async function* lines(): AsyncGenerator<string> {
    // A byte-order mark, so spreadsheet programs read the file as UTF-8.
    yield `\uFEFF${csvRow(EXPORT_HEADERS)}\r\n`;
    let after: { key: string; id: string } | null = null;
    for (;;) {
      let batch = filterPayers(selectPayers(db).select(sql<string>`${key}::text`.as('sort_key')), businessId, query);
      if (after) {
        const last = after;
        batch = batch.where(sql<boolean>`(${key}, payers.id) ${asc ? sql`>` : sql`<`} (cast(${last.key} as ${keyType}), ${last.id})`);
      }
      const rows = await batch
        .orderBy(sql`${key} ${asc ? sql`asc` : sql`desc`}`)
        .orderBy(sql`payers.id ${asc ? sql`asc` : sql`desc`}`)
        .limit(EXPORT_BATCH_SIZE)
        .execute();
      let chunk = '';
      for (const row of rows) {
        const p = toPayer(row);
        chunk += `${csvRow([
          p.payerId,
          p.firstName,
          p.lastName,
          p.companyName,
          p.displayName,
          p.email,
          p.mobileNumber,
          p.reference,
          p.status,
          p.verification,
          p.verifiedAt ? formatDateTime(p.verifiedAt, business.time_zone) : '',
          p.historyCount,
          p.draftCount,
          formatDateTime(p.createdAt, business.time_zone),
        ])}\r\n`;
      }
      if (chunk) yield chunk;
      if (rows.length < EXPORT_BATCH_SIZE) return;
      const last = rows[rows.length - 1]!;
      after = { key: last.sort_key, id: last.id };
    }
  }
  return { filename, lines: lines() };
}
