import { MAX_BATCH_FILE_BYTES, MAX_BATCH_ROWS } from '@tay/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvedBusiness, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { errorOf } from '../support/identity';
import { dayIn } from '../support/requests';
import { createTestApp, type TestApp } from '../support/test-app';
import { batchCount, batchesApi, type Batch, type BatchesApi } from './batch-api';

/**
 * The upload step (POST /api/businesses/:id/batches): how a file is read (encodings, delimiters)
 * and every way a file is refused whole, with one message and nothing saved.
 */

let t: TestApp;
let acme: ApprovedBusiness;
let api: BatchesApi;
const db = () => t.runtime.database.db;

beforeAll(async () => {
  t = await createTestApp();
  acme = await approvedBusiness(t.app, db(), 'upload-owner@example.com');
  api = batchesApi(t.app, acme);
  await insertPayer(db(), acme.businessId, { email: 'ana@payers.example', displayName: 'Ana Lopez' });
}, 120_000);
afterAll(async () => t?.close());

const due = () => dayIn(20);
const mapping = { payer: 'existing' as const, columns: { email: 'Email', memo: 'Memo', amount: 'Amount', dueDate: 'Due date' } };

describe('reading a file', () => {
  it('UTF-8 with a byte-order mark: the mark is not part of the first column name, and accents come through', async () => {
    const csv = `\uFEFFEmail,Memo,Amount,Due date\nana@payers.example,Crème brûlée club,12.50,${due()}\n`;
    const b = await api.uploaded(Buffer.from(csv, 'utf8'));
    expect(b.columns).toEqual(['Email', 'Memo', 'Amount', 'Due date']);
    expect(b.mapping.columns).toMatchObject({ email: 'Email', memo: 'Memo', amount: 'Amount', dueDate: 'Due date' });
    expect(b.counts.rows).toBe(1);
    const checked = await api.mapped(b.batchId, mapping);
    expect(checked.counts).toMatchObject({ rows: 1, valid: 1 });
    expect((await api.row(b.batchId, 2)).fields).toEqual({ email: 'ana@payers.example', memo: 'Crème brûlée club', amount: '12.50', dueDate: due() });
  });

  it('Windows-1252 bytes (what older spreadsheets save): "Café" written as 0xE9, "€" as 0x80, read as those letters', async () => {
    const bytes = Buffer.concat([
      Buffer.from('Email,Memo,Amount,Due date\r\nana@payers.example,Caf', 'latin1'),
      Buffer.from([0xe9, 0x20, 0x80, 0x35]),
      Buffer.from(`,5.00,${due()}\r\n`, 'latin1'),
    ]);
    const b = await api.uploaded(bytes);
    expect(b.fileBytes).toBe(bytes.length);
    await api.mapped(b.batchId, mapping);
    const row = await api.row(b.batchId, 2);
    expect(row.fields.memo).toBe('Café €5');
    expect(row.status).toBe('valid');
  });

  it.each([
    ['semicolon', ';'],
    ['tab', '\t'],
  ])('a %s-separated file is read by its columns (a comma inside a cell stays in the cell)', async (_name, sep) => {
    const csv = [['Email', 'Memo', 'Amount', 'Due date'].join(sep), ['ana@payers.example', 'Books, pens', '$1,234.50', due()].join(sep), ''].join('\n');
    const b = await api.uploaded(csv);
    expect(b.columns).toEqual(['Email', 'Memo', 'Amount', 'Due date']);
    const checked = await api.mapped(b.batchId, mapping);
    expect(checked).toMatchObject({ counts: { rows: 1, valid: 1 }, totalCents: 123_450 });
    expect((await api.row(b.batchId, 2)).fields).toMatchObject({ memo: 'Books, pens', amount: '$1,234.50' });
  });

  it('old Mac line endings (CR only) and a last line without a line break', async () => {
    const b = await api.uploaded(`Email,Memo,Amount,Due date\rana@payers.example,one,1,${due()}\r\rana@payers.example,two,2,${due()}`);
    expect(b.counts.rows).toBe(2);
    await api.mapped(b.batchId, mapping);
    expect((await api.rows(b.batchId)).items.map((r) => [r.row, r.fields.memo, r.status])).toEqual([
      [2, 'one', 'valid'],
      [4, 'two', 'valid'],
    ]);
  });

  // The intended reading: a byte-order mark says UTF-8, but a file that has one and is not valid
  // UTF-8 is read as Windows-1252 with the mark's three bytes kept as "ï»¿" in the first column name.
  it('a byte-order mark before Windows-1252 text is not part of the first column name', async () => {
    const bytes = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(`Email,Memo,Amount,Due date\nana@payers.example,Caf`),
      Buffer.from([0xe9]),
      Buffer.from(`,1,${due()}\n`),
    ]);
    const b = await api.uploaded(bytes);
    expect(b.columns[0]).toBe('Email');
  });

  it('quoted cells with commas, doubled quotes and line breaks; blank lines are skipped but keep the line numbers', async () => {
    const csv = `Email,Memo,Amount,Due date\r\n\r\nana@payers.example,"Line one\r\nline ""two""",3,${due()}\r\nana@payers.example,"a, b",4,${due()}\r\n`;
    const b = await api.uploaded(csv);
    expect(b.counts.rows).toBe(2);
    await api.mapped(b.batchId, mapping);
    const { items } = await api.rows(b.batchId);
    expect(items.map((r) => [r.row, r.fields.memo])).toEqual([
      [3, 'Line one\r\nline "two"'],
      [5, 'a, b'],
    ]);
  });
});

describe('a file that cannot be used is refused whole, with one message, and nothing is saved', () => {
  const refusals: [string, () => string | Buffer, string | RegExp][] = [
    ['an empty body', () => '', 'The file is empty. Choose a CSV file with a header row and one row per request.'],
    ['only blank lines', () => '\n\n  \n', 'The file is empty. Choose a CSV file with a header row and one row per request.'],
    ['a header row only', () => 'Email,Amount,Due date\n', 'The file has a header row but no rows under it. Add one row per request under the header.'],
    [
      'bytes with NUL (a spreadsheet saved in its own format)',
      () => Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00, 0x08, 0x00, 0x00, 0x00, 0x21, 0x00]),
      'This file is not a CSV text file. In your spreadsheet, choose "Save as" or "Export" → CSV (comma-separated values), then upload that file.',
    ],
    [
      'a PDF',
      () =>
        Buffer.concat([
          Buffer.from('%PDF-1.7\n%'),
          Buffer.from([0xe2, 0xe3, 0xcf, 0xd3]),
          Buffer.from('\n1 0 obj\n<< /Length 5 >>\nstream\n'),
          Buffer.from([0x00, 0x01, 0x02, 0xff, 0x10]),
        ]),
      'This file is not a CSV text file. In your spreadsheet, choose "Save as" or "Export" → CSV (comma-separated values), then upload that file.',
    ],
    [
      'a quoted value never closed (the message names the line where it starts)',
      () => `Email,Memo,Amount,Due date\nana@payers.example,ok,1,${due()}\n\nana@payers.example,"never closed,2,${due()}\nana@payers.example,x,3,${due()}\n`,
      'This file is not valid CSV: a quoted value that starts on line 4 is never closed (a " is missing).',
    ],
    [
      'a quoted value never closed after a value over two lines and a blank line (CRLF)',
      () =>
        `Email,Memo,Amount,Due date\r\nana@payers.example,"two\r\nlines",1,${due()}\r\n\r\nana@payers.example,"never closed,2,${due()}\r\nana@payers.example,x,3,${due()}\r\n`,
      'This file is not valid CSV: a quoted value that starts on line 5 is never closed (a " is missing).',
    ],
    [
      'the same column name twice (whatever its case)',
      () => `Email,Amount,Due date,email\nana@payers.example,1,${due()},x\n`,
      'The column "email" appears twice in the header row. Give every column its own name.',
    ],
    [
      `more than ${MAX_BATCH_ROWS.toLocaleString('en-US')} rows`,
      () => `Email,Amount,Due date\n${`a@b.example,1,${due()}\n`.repeat(MAX_BATCH_ROWS + 1)}`,
      'The file has more than 100,000 rows. Split it into files of at most 100,000 rows.',
    ],
  ];

  it.each(refusals)('%s: 400', async (_name, body, message) => {
    const before = await batchCount(db());
    const res = await api.upload(body());
    expect(res.statusCode, res.body).toBe(400);
    expect(errorOf(res)).toEqual({ code: 'VALIDATION_FAILED', message, fields: { file: message } });
    expect(await batchCount(db())).toBe(before);
  });

  // PostgreSQL's text and jsonb cannot hold U+0000: a NUL anywhere in the file, even after the
  // first megabyte, refuses the file at upload, before anything is stored.
  it('a NUL byte after the first megabyte: refused at upload, before anything is stored', async () => {
    const padding = 'p'.repeat(10_000);
    const lines = ['Email,Amount,Due date,Memo,Padding'];
    for (let i = 0; i < 110; i++) lines.push(`ana@payers.example,1,${due()},M${i},${padding}`);
    lines.push(`ana@payers.example,1,${due()},bad\u0000cell,x`);
    const before = await batchCount(db(), acme.businessId);
    const res = await api.upload(lines.join('\n'));
    expect(res.statusCode, res.body).toBe(400);
    expect(errorOf(res).message).toMatch(/^This file is not a CSV text file\./);
    expect(await batchCount(db(), acme.businessId)).toBe(before);
  });

  it(`exactly ${MAX_BATCH_ROWS.toLocaleString('en-US')} rows is taken`, async () => {
    const b = await api.uploaded(`Email,Amount,Due date\n${`a@b.example,1,${due()}\n`.repeat(MAX_BATCH_ROWS)}`);
    expect(b.counts.rows).toBe(MAX_BATCH_ROWS);
    expect((await api.discard(b.batchId)).statusCode).toBe(204);
  });

  it('a file over 50 MB: 413 with the message about 50 MB, nothing saved', async () => {
    const before = await batchCount(db());
    const line = `ana@payers.example,1,${due()}\n`;
    const big = Buffer.alloc(MAX_BATCH_FILE_BYTES + 1, line);
    big.write('Email,Amount,Due date\n');
    const res = await api.upload(big);
    expect(res.statusCode).toBe(413);
    expect(errorOf(res)).toEqual({
      code: 'PAYLOAD_TOO_LARGE',
      message: 'The file is larger than 50 MB. Split it into smaller files and upload them one by one.',
    });
    expect(await batchCount(db())).toBe(before);
  });

  it.each(['multipart/form-data; boundary=x', 'application/xml'])('a body sent as %s: 415, told to send CSV, nothing saved', async (contentType) => {
    const before = await batchCount(db());
    const res = await api.upload(`Email,Amount,Due date\nana@payers.example,1,${due()}\n`, { contentType });
    expect(res.statusCode, res.body).toBe(415);
    expect(errorOf(res)).toEqual({ code: 'BAD_REQUEST', message: 'Send the file as CSV (Content-Type: text/csv), the way a spreadsheet exports it.' });
    expect(await batchCount(db())).toBe(before);
  });

  it.each(['text/plain', 'application/vnd.ms-excel', 'application/octet-stream', 'text/csv; charset=windows-1252'])(
    'the types browsers and scripts send a .csv file with are taken: %s',
    async (contentType) => {
      const res = await api.upload(`Email,Amount,Due date\nana@payers.example,1,${due()}\n`, { contentType });
      expect(res.statusCode, res.body).toBe(201);
    },
  );

  // The intended answer (the contract lists 415 for the upload); today a JSON body is parsed as
  // JSON by the app-wide parser and refused by the handler with 400 and another message.
  it('a JSON body: 415, told to send CSV', async () => {
    const before = await batchCount(db());
    const res = await api.upload(JSON.stringify({ rows: [{ email: 'ana@payers.example' }] }), { contentType: 'application/json' });
    expect(await batchCount(db())).toBe(before);
    expect(res.statusCode, res.body).toBe(415);
    expect(errorOf(res).message).toBe('Send the file as CSV (Content-Type: text/csv), the way a spreadsheet exports it.');
  });

  it('a JSON body is refused, and nothing is saved', async () => {
    const before = await batchCount(db());
    const res = await api.upload(JSON.stringify({ rows: [{ email: 'ana@payers.example' }] }), { contentType: 'application/json' });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(errorOf(res).message).toMatch(/Content-Type: text\/csv/);
    expect(await batchCount(db())).toBe(before);
  });

  // The intended answer: upload-batch.ts words it, but a first line of empty names is skipped as
  // a blank line, so the next line (the first data row) is taken as the header instead.
  it('a header row of empty names: 400 "no column names"', async () => {
    const before = await batchCount(db());
    const res = await api.upload(`,,\nana@payers.example,1,${due()}\nana@payers.example,2,${due()}\n`);
    expect(await batchCount(db())).toBe(before);
    expect(res.statusCode, res.body).toBe(400);
    expect(errorOf(res).message).toBe('The first line of the file has no column names. Put a header row with a name for every column first.');
  });

  it.each([
    ['no fileName', 'kind=requests', 'fileName'],
    ['an empty fileName', 'kind=requests&fileName=%20%20', 'fileName'],
    ['a fileName with a control character', 'kind=requests&fileName=a%01b.csv', 'fileName'],
    ['a fileName over 255 characters', `kind=requests&fileName=${'a'.repeat(256)}.csv`, 'fileName'],
    ['no kind', 'fileName=x.csv', 'kind'],
    ['an unknown kind', 'kind=invoices&fileName=x.csv', 'kind'],
  ])('%s: 400 naming the parameter, nothing saved', async (_name, query, field) => {
    const before = await batchCount(db());
    const res = await api.upload(`Email,Amount,Due date\nana@payers.example,1,${due()}\n`, { query });
    expect(res.statusCode, res.body).toBe(400);
    expect(Object.keys(errorOf(res).fields ?? {})).toEqual([field]);
    expect(await batchCount(db())).toBe(before);
  });

  it('the messages for a file name say what to do', async () => {
    const empty = await api.upload('Email\nx\n', { query: 'kind=requests&fileName=' });
    expect(errorOf(empty).fields).toEqual({ fileName: 'Name the file (fileName).' });
    const control = await api.upload('Email\nx\n', { query: 'kind=requests&fileName=a%0Ab.csv' });
    expect(errorOf(control).fields).toEqual({ fileName: 'The file name cannot contain control characters.' });
  });
});

describe('an earlier upload of the same file', () => {
  it('duplicateOf names the first batch with identical bytes; different bytes are not a duplicate', async () => {
    const csv = `Email,Amount,Due date\nana@payers.example,77,${due()}\n`;
    const first = await api.uploaded(csv, 'march.csv');
    const second = await api.uploaded(csv, 'march (1).csv');
    const third = await api.uploaded(csv, 'march (2).csv');
    const other = await api.uploaded(`${csv}ana@payers.example,78,${due()}\n`, 'march.csv');
    expect(first.duplicateOf).toBeNull();
    expect(second.duplicateOf).toBe(first.batchId);
    expect(third.duplicateOf).toBe(first.batchId);
    expect(other.duplicateOf).toBeNull();
    // Said again on every read of the batch; the first one is the original, not a duplicate.
    expect((await api.batch(second.batchId)).duplicateOf).toBe(first.batchId);
    expect((await api.batch(first.batchId)).duplicateOf).toBeNull();
    // And in the list, each row with its own answer.
    const listed = (await api.list('?pageSize=100')).json().data.items as { batchId: string; duplicateOf: string | null }[];
    const twinOf = new Map(listed.map((b) => [b.batchId, b.duplicateOf]));
    expect([first, second, third, other].map((b) => twinOf.get(b.batchId))).toEqual([null, first.batchId, first.batchId, null]);
  });

  it("another business's identical file is not a duplicate", async () => {
    const csv = `Email,Amount,Due date\nana@payers.example,91,${due()}\n`;
    const mine = await api.uploaded(csv);
    const someone = await approvedBusiness(t.app, db(), 'upload-someone@example.com');
    const theirs = await batchesApi(t.app, someone).uploaded(csv);
    expect(theirs.duplicateOf).toBeNull();
    expect(mine.duplicateOf).toBeNull();
  });
});

describe('the list', () => {
  it('newest first, with the uploader and the file name', async () => {
    const b: Batch = await api.uploaded(`Email,Amount,Due date\nana@payers.example,5,${due()}\n`, 'newest.csv');
    const res = await api.list('?pageSize=2');
    expect(res.statusCode, res.body).toBe(200);
    const { items, total } = res.json().data as { items: Batch[]; total: number };
    expect(total).toBe(await batchCount(db(), acme.businessId));
    expect(items).toHaveLength(2);
    expect(items[0]).toMatchObject({ batchId: b.batchId, fileName: 'newest.csv', uploadedBy: 'upload-owner@example.com', kind: 'requests', state: 'Draft' });
  });
});
