import { describe, expect, it } from 'vitest';
import { CsvParseError, decodeCsvBytes, detectDelimiter, isBlankRecord, parseCsv, readCsvRecords } from './csv';

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

describe('readCsvRecords (streamed)', () => {
  const read = async (text: string, delimiter: ',' | ';' | '\t' = ',') => {
    const out = [];
    for await (const record of readCsvRecords(text, delimiter)) out.push(record);
    return out;
  };

  it('skips blank lines and numbers records by the line they start on', async () => {
    expect(await read('h,x\n\n"multi\nline",2\r\n\r\nlast,3')).toEqual([
      { line: 1, cells: ['h', 'x'] },
      { line: 3, cells: ['multi\nline', '2'] },
      { line: 6, cells: ['last', '3'] },
    ]);
  });

  it('reads a large text in slices, keeping records that cross a slice', async () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => `row${i},"quoted, ${i}"`);
    const records = await read(`a,b\n${rows.join('\n')}\n`);
    expect(records).toHaveLength(20_001);
    expect(records[12_345]).toEqual({ line: 12_346, cells: ['row12344', 'quoted, 12344'] });
  });

  it('ends when its reader stops early, by break or by an error, however much text is left', async () => {
    const text = `a,b\n${Array.from({ length: 50_000 }, (_, i) => `row${i},${i}`).join('\n')}\n`;
    let taken = 0;
    for await (const _record of readCsvRecords(text, ',')) if (++taken === 600) break;
    expect(taken).toBe(600);
    const failing = async () => {
      for await (const record of readCsvRecords(text, ',')) if (record.line === 1_000) throw new Error('the reader gave up');
    };
    await expect(failing()).rejects.toThrow('the reader gave up');
  });

  it('refuses a quoted value that never closes, naming the line it starts on', async () => {
    await expect(read('a,b\n1,2\n\n3,"open\n4,5\n')).rejects.toThrow('a quoted value that starts on line 4 is never closed');
  });
});

describe('decodeCsvBytes', () => {
  it('reads UTF-8, and Windows-1252 when the bytes are not UTF-8', () => {
    expect(decodeCsvBytes(Buffer.from('Café,1', 'utf8'))).toEqual({ text: 'Café,1', encoding: 'utf-8' });
    expect(decodeCsvBytes(Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x2c, 0x80]))).toEqual({ text: 'Café,€', encoding: 'windows-1252' });
  });
});
