/** One record of a CSV file: its cells and the line of the file where it starts (1-based). */
export interface CsvRecord {
  line: number;
  cells: string[];
}

export class CsvParseError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
    this.name = 'CsvParseError';
  }
}

export type CsvDelimiter = ',' | ';' | '\t';

/**
 * The delimiter of the first line: commas unless the line has more semicolons or tabs (what
 * spreadsheets in some locales export). Quoted text does not count.
 */
export function detectDelimiter(text: string): CsvDelimiter {
  const counts: Record<CsvDelimiter, number> = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (const char of text.replace(/^\uFEFF/, '')) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && (char === ',' || char === ';' || char === '\t')) counts[char] += 1;
  }
  if (counts[';'] > counts[','] && counts[';'] >= counts['\t']) return ';';
  if (counts['\t'] > counts[',']) return '\t';
  return ',';
}

/**
 * RFC 4180 CSV: fields separated by the delimiter, records by CRLF, LF or CR; a field in double
 * quotes may hold delimiters, line breaks and doubled quotes (`""`). A leading byte-order mark is
 * dropped. Like spreadsheets, it tolerates a stray quote inside an unquoted field and text after
 * a closing quote (kept as written). A quoted field that never closes is an error naming the line
 * it starts on. The final line break is optional; a file with no text has no records.
 */
export function parseCsv(input: string, delimiter: CsvDelimiter = ','): CsvRecord[] {
  const text = input.startsWith('\uFEFF') ? input.slice(1) : input;
  const records: CsvRecord[] = [];
  let cells: string[] = [];
  let field = '';
  let line = 1;
  let recordLine = 1;
  let quoteLine = 0;
  let inQuotes = false;
  // Whether the current record has anything yet (so a final line break adds no empty record).
  let started = false;

  const endField = () => {
    cells.push(field);
    field = '';
  };
  const endRecord = () => {
    endField();
    records.push({ line: recordLine, cells });
    cells = [];
    started = false;
  };

  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (inQuotes) {
      if (char === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else {
          inQuotes = false;
        }
      } else {
        if (char === '\n' || (char === '\r' && text[i + 1] !== '\n')) line++;
        field += char;
      }
      continue;
    }
    if (char === '"' && field === '') {
      inQuotes = true;
      quoteLine = line;
      started = true;
    } else if (char === delimiter) {
      endField();
      started = true;
    } else if (char === '\r' || char === '\n') {
      if (char === '\r' && text[i + 1] === '\n') i++;
      endRecord();
      line++;
      recordLine = line;
    } else {
      field += char;
      started = true;
    }
  }
  if (inQuotes) {
    throw new CsvParseError(`a quoted value that starts on line ${quoteLine} is never closed (a " is missing)`, quoteLine);
  }
  if (started || field !== '' || cells.length > 0) endRecord();
  return records;
}

/** A record with nothing in any cell: a blank line, or a row of empty columns. */
export function isBlankRecord(record: CsvRecord): boolean {
  return record.cells.every((cell) => cell.trim() === '');
}
