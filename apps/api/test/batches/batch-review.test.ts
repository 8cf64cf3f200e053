import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvedBusiness, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { errorOf } from '../support/identity';
import { call, dayIn } from '../support/requests';
import { createTestApp, type TestApp } from '../support/test-app';
import { batchesApi, type Batch, type BatchesApi, type Row } from './batch-api';

/**
 * The review step: the rows page by page and by outcome, a row fixed (checked again at once, with
 * the repeats of the file), a row dropped, and the rows with errors as CSV.
 */

let t: TestApp;
let acme: ApprovedBusiness;
let api: BatchesApi;
const db = () => t.runtime.database.db;

beforeAll(async () => {
  t = await createTestApp();
  acme = await approvedBusiness(t.app, db(), 'review-owner@example.com');
  api = batchesApi(t.app, acme);
  await insertPayer(db(), acme.businessId, { email: 'ana@payers.example', displayName: 'Ana Lopez' });
  await insertPayer(db(), acme.businessId, { email: 'sam@payers.example', displayName: 'Sam Lee' });
}, 120_000);
afterAll(async () => t?.close());

const due = () => dayIn(15);
const columns = { email: 'Email', amount: 'Amount', dueDate: 'Due date', reference: 'Reference', memo: 'Memo' };

/**
 * Seven rows: 2 valid, 3 bad amount, 4 unknown payer, 5 valid, 6 a repeat of 2, 7 a past due date,
 * 8 valid.
 */
async function reviewed(fileName = 'review.csv'): Promise<Batch> {
  const csv = [
    'Email,Amount,Due date,Reference,Memo',
    `ana@payers.example,10,${due()},A-1,Books`,
    `ana@payers.example,ten,${due()},A-2,Pens`,
    `nobody@payers.example,12,${due()},A-3,Bus`,
    `sam@payers.example,13,${due()},S-1,Lunch`,
    `ana@payers.example,10,${due()},A-1,Books again`,
    `sam@payers.example,15,${dayIn(-3)},S-2,Trip`,
    `sam@payers.example,16,${due()},S-3,Gym`,
  ].join('\r\n');
  const up = await api.uploaded(csv, fileName);
  const b = await api.mapped(up.batchId, { columns });
  expect(b.counts).toEqual({ rows: 7, valid: 3, invalid: 4, sent: 0, failed: 0 });
  expect(b.totalCents).toBe(1000 + 1300 + 1600);
  return b;
}

describe('the rows', () => {
  let b: Batch;
  beforeAll(async () => {
    b = await reviewed();
  });

  it('in file order, a page at a time', async () => {
    const first = await api.rows(b.batchId, '?pageSize=3');
    expect(first).toMatchObject({ total: 7, page: 1, pageSize: 3 });
    expect(first.items.map((r) => r.row)).toEqual([2, 3, 4]);
    const third = await api.rows(b.batchId, '?pageSize=3&page=3');
    expect(third.items.map((r) => r.row)).toEqual([8]);
    const beyond = await api.rows(b.batchId, '?pageSize=3&page=4');
    expect(beyond).toMatchObject({ total: 7, items: [] });
  });

  it('by outcome', async () => {
    const invalid = await api.rows(b.batchId, '?status=invalid');
    expect(invalid.total).toBe(4);
    expect(invalid.items.map((r) => [r.row, Object.keys(r.errors)])).toEqual([
      [3, ['amount']],
      [4, ['email']],
      [6, ['row']],
      [7, ['dueDate']],
    ]);
    const valid = await api.rows(b.batchId, '?status=valid');
    expect(valid.items.map((r) => [r.row, r.amountCents, r.payerName, r.requestId, r.referenceNumber])).toEqual([
      [2, 1000, 'Ana Lopez', null, null],
      [5, 1300, 'Sam Lee', null, null],
      [8, 1600, 'Sam Lee', null, null],
    ]);
    expect((await api.rows(b.batchId, '?status=sent')).total).toBe(0);
  });

  it('an unknown outcome or page size is refused', async () => {
    expect((await api.rowsRes(b.batchId, '?status=broken')).statusCode).toBe(400);
    expect((await api.rowsRes(b.batchId, '?pageSize=1000')).statusCode).toBe(400);
    expect((await api.rowsRes(b.batchId, '?page=0')).statusCode).toBe(400);
  });

  it('of a batch that does not exist: 404', async () => {
    const res = await api.rowsRes('bat_nothing');
    expect(res.statusCode).toBe(404);
    expect(errorOf(res).code).toBe('NOT_FOUND');
  });
});

describe('fixing a row', () => {
  it('makes it valid: the counts and the total follow at once', async () => {
    const b = await reviewed();
    const res = await api.fix(b.batchId, 3, { amount: ' $20.50 ' });
    expect(res.statusCode, res.body).toBe(200);
    const { row, batch } = res.json().data as { row: Row; batch: Batch };
    expect(row).toMatchObject({ row: 3, status: 'valid', errors: {}, amountCents: 2050, payerName: 'Ana Lopez' });
    expect(row.fields).toEqual({ email: 'ana@payers.example', amount: '$20.50', dueDate: due(), reference: 'A-2', memo: 'Pens' });
    expect(batch).toMatchObject({ counts: { rows: 7, valid: 4, invalid: 3 }, totalCents: 1000 + 1300 + 1600 + 2050 });
    expect(await api.batch(b.batchId)).toMatchObject({ counts: { valid: 4, invalid: 3 }, totalCents: 5950 });
  });

  it('a fix that is still wrong keeps the row invalid with the new reason; one field is fixed, the others kept', async () => {
    const b = await reviewed();
    const res = await api.fix(b.batchId, 4, { email: 'still-nobody@payers.example' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.row).toMatchObject({
      status: 'invalid',
      fields: { email: 'still-nobody@payers.example', amount: '12' },
      errors: { email: expect.stringContaining('still-nobody@payers.example') },
    });
    const fixed = await api.fix(b.batchId, 4, { email: 'sam@payers.example' });
    expect(fixed.json().data.row).toMatchObject({ status: 'valid', payerName: 'Sam Lee', fields: { email: 'sam@payers.example', amount: '12' } });
    // A valid row can be made invalid too; line 6, which repeated it, is then no longer a repeat.
    const broken = await api.fix(b.batchId, 2, { dueDate: 'someday' });
    expect(broken.json().data).toMatchObject({ row: { status: 'invalid' }, batch: { counts: { valid: 4, invalid: 3 } } });
    expect((await api.row(b.batchId, 6)).status).toBe('valid');
  });

  it('fixing the first of a repeated pair frees the second; repeating again flags it again', async () => {
    const b = await reviewed();
    expect((await api.row(b.batchId, 6)).status).toBe('invalid');
    const res = await api.fix(b.batchId, 2, { reference: 'A-1-bis' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.batch).toMatchObject({ counts: { valid: 4, invalid: 3 }, totalCents: 1000 + 1000 + 1300 + 1600 });
    expect(await api.row(b.batchId, 6)).toMatchObject({ status: 'valid', errors: {} });
    // Now line 2 repeats nothing, but fixing line 6 back into line 2 makes line 6 the repeat.
    const again = await api.fix(b.batchId, 6, { reference: 'a-1-BIS' });
    expect(again.json().data.row).toMatchObject({
      status: 'invalid',
      errors: { row: 'Same payer, amount and reference as line 2 of the file. Change the reference, or drop one of them.' },
    });
  });

  it('fixing the later of a pair so it no longer repeats makes it valid', async () => {
    const b = await reviewed();
    const res = await api.fix(b.batchId, 6, { amount: '11' });
    expect(res.json().data.row).toMatchObject({ status: 'valid', amountCents: 1100 });
    expect((await api.row(b.batchId, 2)).status).toBe('valid');
  });

  it('a field the batch kind does not have: 400 naming it, and the row is unchanged', async () => {
    const b = await reviewed();
    const res = await api.fix(b.batchId, 3, { amount: '5', colour: 'red' });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res)).toEqual({ code: 'VALIDATION_FAILED', message: 'There is no field "colour" in this batch.', fields: { colour: 'Unknown field.' } });
    expect(await api.row(b.batchId, 3)).toMatchObject({ status: 'invalid', fields: { amount: 'ten' } });
  });

  it('a row that does not exist (or was dropped): 404', async () => {
    const b = await reviewed();
    const missing = await api.fix(b.batchId, 99, { amount: '1' });
    expect(missing.statusCode).toBe(404);
    expect(errorOf(missing).code).toBe('NOT_FOUND');
    // Line 1 is the header, not a row.
    expect((await api.fix(b.batchId, 1, { amount: '1' })).statusCode).toBe(404);
    expect((await api.drop(b.batchId, 3)).statusCode).toBe(200);
    expect((await api.fix(b.batchId, 3, { amount: '1' })).statusCode).toBe(404);
    expect((await api.fix(b.batchId, 0, { amount: '1' })).statusCode).toBe(400);
  });

  it('a body that is not a map of texts: 400', async () => {
    const b = await reviewed();
    expect((await api.fix(b.batchId, 3, { amount: 5 } as never)).statusCode).toBe(400);
    expect((await api.fix(b.batchId, 3, { amount: 'x'.repeat(2001) })).statusCode).toBe(400);
    // Text PostgreSQL cannot store is refused, not a failed statement.
    const nul = await api.fix(b.batchId, 3, { memo: 'a\u0000b' });
    expect(nul.statusCode, nul.body).toBe(400);
    expect(await api.row(b.batchId, 3)).toMatchObject({ fields: { memo: 'Pens' } });
  });
});

describe('dropping a row', () => {
  it('leaves it out: the counts and the total follow, and the rows list no longer has it', async () => {
    const b = await reviewed();
    const res = await api.drop(b.batchId, 5);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ batchId: b.batchId, counts: { rows: 6, valid: 2, invalid: 4 }, totalCents: 1000 + 1600 });
    const { items } = await api.rows(b.batchId);
    expect(items.map((r) => r.row)).toEqual([2, 3, 4, 6, 7, 8]);
    const again = await api.drop(b.batchId, 5);
    expect(again.statusCode).toBe(404);
  });

  it('dropping the first of a repeated pair frees the second', async () => {
    const b = await reviewed();
    const res = await api.drop(b.batchId, 2);
    expect(res.json().data).toMatchObject({ counts: { rows: 6, valid: 3, invalid: 3 }, totalCents: 1000 + 1300 + 1600 });
    expect(await api.row(b.batchId, 6)).toMatchObject({ status: 'valid', errors: {} });
  });

  it('dropping every invalid row leaves only valid rows to submit', async () => {
    const b = await reviewed();
    for (const line of [3, 4, 6, 7]) expect((await api.drop(b.batchId, line)).statusCode).toBe(200);
    expect(await api.batch(b.batchId)).toMatchObject({ counts: { rows: 3, valid: 3, invalid: 0 } });
    expect((await api.rows(b.batchId, '?status=invalid')).total).toBe(0);
    const csv = await api.errorsCsv(b.batchId);
    expect(parse(csv.body)).toEqual([['Line', 'Email', 'Amount', 'Memo', 'Reference', 'Due date', 'Errors']]);
  });
});

describe('dropping rows together', () => {
  const dropMany = (batchId: string, body: unknown) => call(t.app, 'POST', `${api.base}/${batchId}/rows/drop`, acme.token, body);

  it('every row with errors in one call, on the audit trail; then nothing is left to drop (409)', async () => {
    const b = await reviewed();
    const res = await dropMany(b.batchId, { status: 'invalid' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ counts: { rows: 3, valid: 3, invalid: 0 } });
    expect((await api.rows(b.batchId, '?status=invalid')).total).toBe(0);
    const audit = await db().selectFrom('business_events').select('details').where('action', '=', 'batch.rows_dropped').execute();
    expect(audit.at(-1)!.details).toMatchObject({ batchId: b.batchId, count: 4, which: 'invalid' });
    const again = await dropMany(b.batchId, { status: 'invalid' });
    expect(again.statusCode).toBe(409);
  });

  it('chosen lines, all or none: a line not in the batch drops nothing (404); no lines is 400', async () => {
    const b = await reviewed();
    expect((await dropMany(b.batchId, { rows: [3, 99] })).statusCode).toBe(404);
    expect((await api.batch(b.batchId)).counts.rows).toBe(7);
    const res = await dropMany(b.batchId, { rows: [3, 4] });
    expect(res.json().data).toMatchObject({ counts: { rows: 5 } });
    expect((await dropMany(b.batchId, { rows: [] })).statusCode).toBe(400);
  });
});

describe('while the rows are still being checked', () => {
  it('fix, drop and submit are refused (409)', async () => {
    const b = await reviewed();
    // As a check under way leaves it: the mapping's run has not finished.
    await db().updateTable('batches').set({ phase: 'validating' }).where('id', '=', b.batchId).execute();
    const still = 'The rows of this batch are still being checked. Wait for the check to finish.';
    for (const res of [await api.fix(b.batchId, 3, { amount: '1' }), await api.drop(b.batchId, 3), await api.submit(b.batchId)]) {
      expect(res.statusCode, res.body).toBe(409);
      expect(errorOf(res)).toEqual({ code: 'CONFLICT', message: still });
    }
    expect(await api.row(b.batchId, 3)).toMatchObject({ fields: { amount: 'ten' } });
  });

  it('before any mapping, fix and drop are refused (409), and there are no rows', async () => {
    const up = await api.uploaded(`Email,Amount,Due date\nana@payers.example,1,${due()}\n`);
    expect((await api.fix(up.batchId, 2, { amount: '2' })).statusCode).toBe(409);
    expect((await api.drop(up.batchId, 2)).statusCode).toBe(409);
    expect((await api.rows(up.batchId)).total).toBe(0);
  });
});

describe('errors.csv', () => {
  it('the header of the mapped columns, then each row with errors: its line, its values and every reason', async () => {
    const b = await reviewed('Term 2 (Spring).csv');
    const res = await api.errorsCsv(b.batchId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="Term-2-Spring-errors\.csv"$/);
    expect(parse(res.body)).toEqual([
      ['Line', 'Email', 'Amount', 'Memo', 'Reference', 'Due date', 'Errors'],
      ['3', 'ana@payers.example', 'ten', 'Pens', 'A-2', due(), 'Amount: "ten" is not an amount. Write it like 125.50 or $1,234.50.'],
      [
        '4',
        'nobody@payers.example',
        '12',
        'Bus',
        'A-3',
        due(),
        'Payer e-mail: No payer of yours has the e-mail address nobody@payers.example. Add the payer first, or choose "Create payers" on the map step.',
      ],
      [
        '6',
        'ana@payers.example',
        '10',
        'Books again',
        'A-1',
        due(),
        'Row: Same payer, amount and reference as line 2 of the file. Change the reference, or drop one of them.',
      ],
      ['7', 'sam@payers.example', '15', 'Trip', 'S-2', dayIn(-3), 'Due date: The due date cannot be in the past.'],
    ]);
  });

  it('a row with several errors lists each; the export follows the fixes', async () => {
    const up = await api.uploaded(`Email,Amount,Due date\nnobody@payers.example,x,y\nana@payers.example,1,${due()}\n`);
    await api.mapped(up.batchId, { columns: { email: 'Email', amount: 'Amount', dueDate: 'Due date' } });
    const rows = parse((await api.errorsCsv(up.batchId)).body) as string[][];
    expect(rows).toHaveLength(2);
    expect(rows[1]![4]).toMatch(/^Payer e-mail: .+ Amount: "x" is not an amount\..+ Due date: "y" is not a date we can read\./);
    await api.fix(up.batchId, 2, { email: 'ana@payers.example', amount: '2', dueDate: due() });
    expect(parse((await api.errorsCsv(up.batchId)).body)).toHaveLength(1);
  });

  it('of a batch that does not exist: 404 (JSON, not a cut-off file)', async () => {
    const res = await api.errorsCsv('bat_nothing');
    expect(res.statusCode).toBe(404);
    expect(errorOf(res).code).toBe('NOT_FOUND');
  });
});
