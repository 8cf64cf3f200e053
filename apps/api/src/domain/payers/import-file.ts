import { createHash } from 'node:crypto';
import {
  MAX_PAYER_IMPORT_ROWS,
  PAYER_IMPORT_FIELDS,
  payerDisplayName,
  suggestPayerMapping,
  type FieldErrors,
  type PayerImportMapping,
  type PayerImportRow,
  type SuggestedPayerMapping,
} from '@tay/contract';
import type { Executor } from '../../db/executor';
import { AppError } from '../../lib/app-error';
import { CsvParseError, detectDelimiter, isBlankRecord, looksBinary, parseCsv } from '../../lib/csv';
import { validatePayerFields } from './payer-input';

/**
 * A mobile number as written in a spreadsheet → E.164, US by default: `(415) 555-2671` →
 * `+14155552671`, `+44 20 7946 0958` → `+442079460958`. A leading apostrophe (how our own export
 * protects `+…` from spreadsheets) is dropped. Anything else is left for validation to refuse.
 */
export function normalizeMobileNumber(input: string): string | null {
  const text = input.trim().replace(/^'/, '');
  if (text === '') return null;
  const digits = text.replace(/[\s().\-/]/g, '');
  if (/^\+\d+$/.test(digits)) return digits;
  if (/^00\d+$/.test(digits)) return `+${digits.slice(2)}`;
  if (/^\d{10}$/.test(digits)) return `+1${digits}`;
  if (/^1\d{10}$/.test(digits)) return `+${digits}`;
  return text;
}

export interface ReadFile {
  headers: string[];
  suggestedMapping: SuggestedPayerMapping;
  mapping: PayerImportMapping;
  rows: PayerImportRow[];
  /** The same file and mapping always give the same id: re-importing a file is recognisable. */
  batchId: string;
}

const badFile = (message: string, fields?: FieldErrors) => AppError.validation(message, fields);

/**
 * Reads an import file: parses it, maps its columns to payer fields (the mapping sent, or the one
 * the header names suggest) and validates every row with `PayerInput`. Rows that repeat an
 * earlier row's e-mail or reference are duplicates. Whole-file problems (not CSV text, empty, no
 * e-mail column, too many rows, an unknown column in the mapping) are a 400 with a sentence.
 */
export function readImportFile({ businessId, csv, mapping }: { businessId: string; csv: string; mapping?: PayerImportMapping }): ReadFile {
  if (looksBinary(csv)) {
    throw badFile('This file is not a CSV text file. In your spreadsheet, choose "Save as" or "Export" → CSV (comma-separated values), then import that file.');
  }
  let records;
  try {
    records = parseCsv(csv, detectDelimiter(csv)).filter((r) => !isBlankRecord(r));
  } catch (error) {
    if (error instanceof CsvParseError) throw badFile(`This file is not valid CSV: ${error.message}.`);
    throw error;
  }
  const [headerRecord, ...data] = records;
  if (!headerRecord) throw badFile('The file is empty. Choose a CSV file with a header row and one payer per line.');
  const headers = headerRecord.cells.map((h) => h.trim());
  if (data.length === 0) throw badFile('The file has a header row but no payers. Add one payer per line under the header.');
  if (data.length > MAX_PAYER_IMPORT_ROWS) {
    throw badFile(
      `The file has ${data.length.toLocaleString('en-US')} payers; import at most ${MAX_PAYER_IMPORT_ROWS.toLocaleString('en-US')} at a time. Split it into smaller files.`,
    );
  }
  const seenHeaders = new Set<string>();
  for (const h of headers) {
    if (h === '') continue;
    if (seenHeaders.has(h.toLowerCase())) throw badFile(`The column "${h}" appears twice in the header row. Give every column its own name.`);
    seenHeaders.add(h.toLowerCase());
  }

  const suggestedMapping = suggestPayerMapping(headers);
  const chosen = mapping ?? suggestedMapping;
  const unknown: FieldErrors = {};
  for (const field of PAYER_IMPORT_FIELDS) {
    const column = chosen[field];
    if (column && !headers.includes(column)) unknown[`mapping.${field}`] = `The file has no column "${column}".`;
  }
  if (Object.keys(unknown).length > 0) throw badFile('The mapping names columns the file does not have. Choose them again.', unknown);
  if (!chosen.email) {
    throw badFile('We could not find an e-mail column in the file. Name the column "Email", or choose the column that holds the e-mail addresses.', {
      'mapping.email': 'Choose the column that holds the e-mail addresses.',
    });
  }
  const used: PayerImportMapping = { ...chosen, email: chosen.email };
  const columnOf = (field: (typeof PAYER_IMPORT_FIELDS)[number]) => (used[field] ? headers.indexOf(used[field]!) : -1);
  const indexes = Object.fromEntries(PAYER_IMPORT_FIELDS.map((f) => [f, columnOf(f)])) as Record<(typeof PAYER_IMPORT_FIELDS)[number], number>;

  const byEmail = new Map<string, number>();
  const byReference = new Map<string, number>();
  const rows = data.map((record): PayerImportRow => {
    const cell = (field: (typeof PAYER_IMPORT_FIELDS)[number]) => {
      const index = indexes[field];
      return index >= 0 ? (record.cells[index] ?? '').trim() : '';
    };
    const raw = {
      firstName: cell('firstName'),
      lastName: cell('lastName'),
      companyName: cell('companyName'),
      email: cell('email'),
      mobileNumber: normalizeMobileNumber(cell('mobileNumber')),
      reference: cell('reference') || null,
    };
    const checked = validatePayerFields(raw);
    const errors: FieldErrors = checked.ok ? {} : { ...checked.fields };
    const extra = record.cells.slice(headers.length).filter((c) => c.trim() !== '');
    if (extra.length > 0) {
      errors.row = `This row has ${record.cells.length} values but the header has ${headers.length} columns. A value with a comma must be in double quotes.`;
    }
    const payer = checked.ok ? checked.value : { ...raw, email: raw.email.toLowerCase(), displayName: payerDisplayName(raw) };
    if (Object.keys(errors).length > 0) return { row: record.line, status: 'error', errors, note: null, payer };

    const sameEmail = byEmail.get(payer.email);
    const sameReference = payer.reference ? byReference.get(payer.reference) : undefined;
    if (sameEmail !== undefined || sameReference !== undefined) {
      const note = sameEmail !== undefined ? `Same e-mail address as line ${sameEmail} of the file.` : `Same reference as line ${sameReference} of the file.`;
      return { row: record.line, status: 'duplicate', errors: {}, note, payer };
    }
    byEmail.set(payer.email, record.line);
    if (payer.reference) byReference.set(payer.reference, record.line);
    return { row: record.line, status: 'new', errors: {}, note: null, payer };
  });

  const batchId = `imp_${createHash('sha256')
    .update(`${businessId}\n${JSON.stringify(used)}\n${csv}`)
    .digest('hex')
    .slice(0, 26)}`;
  return { headers, suggestedMapping, mapping: used, rows, batchId };
}

const LOOKUP_CHUNK = 1000;

/** Marks the rows whose e-mail or reference a payer of the business already has as duplicates. */
export async function markExistingPayers(executor: Executor, businessId: string, rows: PayerImportRow[]): Promise<void> {
  const fresh = rows.filter((r) => r.status === 'new');
  const emails = new Set<string>();
  const references = new Set<string>();
  for (let i = 0; i < fresh.length; i += LOOKUP_CHUNK) {
    const chunk = fresh.slice(i, i + LOOKUP_CHUNK);
    const chunkEmails = chunk.map((r) => r.payer.email);
    const chunkReferences = chunk.map((r) => r.payer.reference).filter((r): r is string => Boolean(r));
    const found = await executor
      .selectFrom('payers')
      .select(['email', 'reference'])
      .where('business_id', '=', businessId)
      .where((eb) =>
        chunkReferences.length > 0 ? eb.or([eb('email', 'in', chunkEmails), eb('reference', 'in', chunkReferences)]) : eb('email', 'in', chunkEmails),
      )
      .execute();
    for (const f of found) {
      emails.add(f.email);
      if (f.reference) references.add(f.reference);
    }
  }
  for (const row of fresh) {
    if (emails.has(row.payer.email)) {
      row.status = 'duplicate';
      row.note = 'A payer with this e-mail address already exists.';
    } else if (row.payer.reference && references.has(row.payer.reference)) {
      row.status = 'duplicate';
      row.note = 'A payer with this reference already exists.';
    }
  }
}

export function countRows(rows: PayerImportRow[]) {
  return {
    total: rows.length,
    new: rows.filter((r) => r.status === 'new').length,
    duplicate: rows.filter((r) => r.status === 'duplicate').length,
    error: rows.filter((r) => r.status === 'error').length,
  };
}
