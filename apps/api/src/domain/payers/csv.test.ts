import { describe, expect, it } from 'vitest';
import { CsvParseError, detectDelimiter, isBlankRecord, parseCsv } from './csv';

const cells = (text: string) => parseCsv(text).map((r) => r.cells);

describe('parseCsv (RFC 4180)', () => {
  it('splits records and fields', () => {
    expect(cells('a,b,c\n1,2,3\n')).toEqual([
      ['a', 'b', 'c'],
      ['1', '2', '3'],
    ]);
  });

  it('accepts CRLF, LF and CR line breaks, and a missing final line break', () => {
    expect(cells('a,b\r\n1,2\r\n3,4')).toEqual([
      ['a', 'b'],
      ['1', '2'],
      ['3', '4'],
    ]);
    expect(cells('a\r1\r')).toEqual([['a'], ['1']]);
  });

  it('keeps delimiters, line breaks and doubled quotes inside quoted fields', () => {
    const records = parseCsv('name,note\r\n"Smith, Inc","line one\r\nline two"\n"say ""hi""",x\n');
    expect(records).toEqual([
      { line: 1, cells: ['name', 'note'] },
      { line: 2, cells: ['Smith, Inc', 'line one\r\nline two'] },
      { line: 4, cells: ['say "hi"', 'x'] },
    ]);
  });

  it('drops a byte-order mark and keeps empty fields', () => {
    expect(cells('\uFEFFEmail,Name\n,\n"",""\n')).toEqual([
      ['Email', 'Name'],
      ['', ''],
      ['', ''],
    ]);
  });

  it('numbers records by the line they start on, counting blank lines', () => {
    const records = parseCsv('h\n\n"multi\nline"\nlast');
    expect(records.map((r) => r.line)).toEqual([1, 2, 3, 5]);
    expect(records.filter((r) => !isBlankRecord(r)).map((r) => r.cells[0])).toEqual(['h', 'multi\nline', 'last']);
  });

  it('tolerates a stray quote inside an unquoted field, as spreadsheets do', () => {
    expect(cells('5" pipe,ok')).toEqual([['5" pipe', 'ok']]);
  });

  it('refuses a quoted field that never closes, naming its line', () => {
    expect(() => parseCsv('a,b\n1,"open\n2,3\n')).toThrow(CsvParseError);
    try {
      parseCsv('a,b\n1,"open\n2,3\n');
    } catch (error) {
      expect((error as CsvParseError).line).toBe(2);
      expect((error as Error).message).toBe('a quoted value that starts on line 2 is never closed (a " is missing)');
    }
  });

  it('has no records for an empty text', () => {
    expect(parseCsv('')).toEqual([]);
    expect(parseCsv('\uFEFF')).toEqual([]);
  });

  it('reads other delimiters', () => {
    expect(parseCsv('a;b\n"x;y";2', ';').map((r) => r.cells)).toEqual([
      ['a', 'b'],
      ['x;y', '2'],
    ]);
  });
});

describe('detectDelimiter', () => {
  it('picks the delimiter of the header line, ignoring quoted text', () => {
    expect(detectDelimiter('Email,First name,Last name\n')).toBe(',');
    expect(detectDelimiter('Email;First name;Last name\n')).toBe(';');
    expect(detectDelimiter('Email\tFirst name\n')).toBe('\t');
    expect(detectDelimiter('"a;b;c",d\n')).toBe(',');
    expect(detectDelimiter('Email\n')).toBe(',');
  });
});
