import { parse, CsvError, type Options } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';

/**
 * Reading CSV files people upload (the payer import, the bulk batches): `csv-parse` does the
 * RFC 4180 parsing; this module adds what a person's spreadsheet needs — the encoding, the
 * delimiter, the line each record starts on, and a sentence for a file that cannot be read.
 */

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
  const end = Math.min(text.length, 64 * 1024);
  for (let i = text.charCodeAt(0) === 0xfeff ? 1 : 0; i < end; i++) {
    const char = text[i]!;
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && (char === ',' || char === ';' || char === '\t')) counts[char] += 1;
  }
  if (counts[';'] > counts[','] && counts[';'] >= counts['\t']) return ';';
  if (counts['\t'] > counts[',']) return '\t';
  return ',';
}

/**
 * The parser's options: like spreadsheets, a stray quote inside an unquoted field and text after
 * a closing quote are kept as written, rows may have more or fewer cells than the header, and
 * CRLF, LF and CR all end a record, mixed in one file. Each record comes with its raw text,
 * from which {@link LineCounter} numbers the lines.
 */
function options(delimiter: CsvDelimiter, skipEmptyLines: boolean): Options {
  return {
    delimiter,
    bom: true,
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: skipEmptyLines,
    raw: true,
    record_delimiter: ['\r\n', '\n', '\r'],
  };
}

const unclosed = (line: number) => new CsvParseError(`a quoted value that starts on line ${line} is never closed (a " is missing)`, line);

const BREAKS = /\r\n|\r|\n/g;
const LEADING_BREAKS = /^(?:\r\n|\r|\n)*/;
const countBreaks = (text: string) => text.match(BREAKS)?.length ?? 0;

/**
 * Numbers records by the line they start on, from each record's raw text: the blank lines
 * skipped before a record lead its raw text, and its own line breaks move the count on.
 */
class LineCounter {
  /** The line the next record's raw text starts on. */
  next = 1;
  constructor(private readonly skipsEmptyLines: boolean) {}
  start(raw: string): number {
    const line = this.next + (this.skipsEmptyLines ? countBreaks(LEADING_BREAKS.exec(raw)![0]) : 0);
    this.next += countBreaks(raw);
    return line;
  }
}

type Parsed = { record: string[]; raw: string };

function translate(error: unknown, lines: LineCounter, text: string): never {
  if (error instanceof CsvError && error.code === 'CSV_QUOTE_NOT_CLOSED') {
    // The record that never closed starts on the first line after the last record with text.
    let line = lines.next;
    let at = 0;
    for (let n = 1; n < line; n++) at = nextLineStart(text, at);
    while (at < text.length && (text[at] === '\n' || text[at] === '\r')) {
      at = nextLineStart(text, at);
      line++;
    }
    throw unclosed(line);
  }
  if (error instanceof CsvError) throw new CsvParseError(error.message, lines.next);
  throw error;
}

function nextLineStart(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    if (text[i] === '\n') return i + 1;
    if (text[i] === '\r') return text[i + 1] === '\n' ? i + 2 : i + 1;
  }
  return text.length;
}

/**
 * Parses a whole text (a payer import of at most a few MB). Blank lines are records with one
 * empty cell (see {@link isBlankRecord}), so every record keeps the line it starts on. A leading
 * byte-order mark is dropped; a text with no characters has no records.
 */
export function parseCsv(input: string, delimiter: CsvDelimiter = ','): CsvRecord[] {
  const lines = new LineCounter(false);
  const records: CsvRecord[] = [];
  try {
    parseSync(input, {
      ...options(delimiter, false),
      on_record: (parsed: unknown) => {
        const { record, raw } = parsed as Parsed;
        records.push({ line: lines.start(raw), cells: record });
        return null;
      },
    } as Options);
  } catch (error) {
    return translate(error, lines, input.replace(/^\uFEFF/, ''));
  }
  return records;
}

/**
 * The records of a large text one by one, blank lines skipped, yielding to the event loop as
 * the parser streams (`csv-parse`'s stream API): a 50 MB file never holds the server up.
 */
export async function* readCsvRecords(text: string, delimiter: CsvDelimiter): AsyncGenerator<CsvRecord> {
  const lines = new LineCounter(true);
  // Lines are counted as the parser reads (not as records are taken), so an error names its line.
  const parser = parse({
    ...options(delimiter, true),
    on_record: (parsed: unknown) => {
      const { record, raw } = parsed as Parsed;
      return { line: lines.start(raw), cells: record };
    },
  } as unknown as Options);
  const CHUNK = 64 * 1024;
  // Feed the text in slices, so parsing interleaves with other work.
  // A reader that stops early (an error in its loop, a superseded check) destroys the parser: the
  // feed stops too, rather than wait for a drain that will never come.
  const drained = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        parser.off('drain', done);
        parser.off('close', done);
        resolve();
      };
      parser.once('drain', done);
      parser.once('close', done);
    });
  const feed = async () => {
    for (let i = 0; i < text.length && !parser.destroyed; i += CHUNK) {
      if (!parser.write(text.slice(i, i + CHUNK))) await drained();
      // Parsing a slice, and taking its records, is synchronous or microtasks only (a drain comes
      // as the records are read): other requests get their turn between slices.
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (!parser.destroyed) parser.end();
  };
  const feeding = feed().catch((error: unknown) => parser.destroy(error as Error));
  try {
    for await (const record of parser as AsyncIterable<CsvRecord>) yield record;
  } catch (error) {
    translate(error, lines, text.replace(/^\uFEFF/, ''));
  } finally {
    parser.destroy();
    await feeding;
  }
}

/** A line with nothing on it but spaces (not a row of empty columns, which has delimiters). */
export function isBlankLine(record: CsvRecord): boolean {
  return record.cells.length <= 1 && isBlankRecord(record);
}

/** A record with nothing in any cell: a blank line, or a row of empty columns. */
export function isBlankRecord(record: CsvRecord): boolean {
  return record.cells.every((cell) => cell.trim() === '');
}

/**
 * Control characters other than tab and line breaks mean a binary file (a spreadsheet, a PDF…),
 * anywhere in the text: a NUL the database could not store must not pass at the end of a file.
 */
// eslint-disable-next-line no-control-regex -- control characters are what this looks for
const BINARY = /[\x00-\x08\x0b\x0c\x0e-\x1f]/;
export function looksBinary(text: string): boolean {
  return BINARY.test(text);
}

/**
 * The text of an uploaded file: UTF-8 (with or without a byte-order mark) when it is valid
 * UTF-8, otherwise Windows-1252, what older spreadsheets save ("Café" as one byte per letter).
 */
export function decodeCsvBytes(bytes: Uint8Array): { text: string; encoding: 'utf-8' | 'windows-1252' } {
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
    return { text, encoding: 'utf-8' };
  } catch {
    // A byte-order mark before text that is not UTF-8 after all (a spreadsheet that wrote both) is dropped.
    const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
    return { text: decodeWindows1252(bom ? bytes.subarray(3) : bytes), encoding: 'windows-1252' };
  }
}

/** Windows-1252's letters at 0x80–0x9F (€, ‘ ’ “ ”, –, —, Š…); elsewhere it is Latin-1. */
const CP1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

function decodeWindows1252(bytes: Uint8Array): string {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  return text.replace(/[\x80-\x9f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80]!);
}
