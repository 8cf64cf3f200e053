import { NO_MOBILE_MESSAGE } from '@tay/contract';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvedBusiness, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { errorOf } from '../support/identity';
import { dayIn } from '../support/requests';
import { createTestApp, type TestApp } from '../support/test-app';
import { batchesApi, longDate, requestsOfBatch, usDate, type BatchesApi, type Row } from './batch-api';

/**
 * The map step (PATCH …/batches/:batchId) and the check of every row: each rule of a request
 * to pay with the exact sentence the review page shows (apps/api/src/domain/batches/request-rows.ts).
 */

let t: TestApp;
let acme: ApprovedBusiness;
let api: BatchesApi;
const db = () => t.runtime.database.db;
let samId: string;

beforeAll(async () => {
  t = await createTestApp();
  acme = await approvedBusiness(t.app, db(), 'checks-owner@example.com');
  api = batchesApi(t.app, acme);
  await insertPayer(db(), acme.businessId, { email: 'ana@payers.example', displayName: 'Ana Lopez', reference: 'FAM-1' });
  samId = await insertPayer(db(), acme.businessId, { email: 'sam@payers.example', displayName: 'Sam Lee', reference: 'FAM-2' });
  await db().updateTable('payers').set({ mobile_number: '+14155550123' }).where('id', '=', samId).execute();
  await insertPayer(db(), acme.businessId, { email: 'off@payers.example', displayName: 'Off Person', status: 'Disabled', reference: 'FAM-OFF' });
}, 120_000);
afterAll(async () => t?.close());

const due = () => dayIn(15);

/** Uploads `lines` under `header` and checks them with every column mapped by its own name. */
async function checked(header: string[], lines: string[], columns: Record<string, string>, payer: 'existing' | 'create' = 'existing') {
  const up = await api.uploaded([header.join(','), ...lines, ''].join('\n'));
  const batch = await api.mapped(up.batchId, { payer, columns });
  const { items } = await api.rows(up.batchId);
  return { batch, items, byLine: (line: number) => items.find((r) => r.row === line)! };
}

const REQUEST_HEADER = ['Email', 'Amount', 'Due date', 'Expires', 'Partial', 'Channel', 'Reference', 'Memo'];
const REQUEST_COLUMNS = {
  email: 'Email',
  amount: 'Amount',
  dueDate: 'Due date',
  expiresOn: 'Expires',
  allowPartial: 'Partial',
  channel: 'Channel',
  reference: 'Reference',
  memo: 'Memo',
};
let serial = 0;
/** A request row for ana, each with its own reference (no two are repeats) unless one is given. */
function line(over: Partial<Record<'email' | 'amount' | 'due' | 'expires' | 'partial' | 'channel' | 'reference' | 'memo', string>> = {}) {
  serial += 1;
  const cells = [
    over.email ?? 'ana@payers.example',
    over.amount ?? '10',
    over.due ?? due(),
    over.expires ?? '',
    over.partial ?? '',
    over.channel ?? '',
    over.reference ?? `R-${serial}`,
    over.memo ?? '',
  ];
  return cells.map((c) => (/[",\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(',');
}

describe('the map step', () => {
  const file = `Email,Amount,Due date,First,Last,Ref\nana@payers.example,10,${dayIn(10)},Ana,Lopez,FAM-1\n`;

  it.each([
    [
      'no amount nor due date',
      { payer: 'existing' as const, columns: { email: 'Email' } },
      { 'mapping.amount': 'Choose the column with the amount.', 'mapping.dueDate': 'Choose the column with the due date.' },
    ],
    [
      'no payer e-mail nor reference',
      { payer: 'existing' as const, columns: { amount: 'Amount', dueDate: 'Due date' } },
      { 'mapping.email': "Choose the column with the payer's e-mail address or reference." },
    ],
    [
      'creating payers without their names and e-mail',
      { payer: 'create' as const, columns: { amount: 'Amount', dueDate: 'Due date' } },
      {
        'mapping.firstName': "Choose the column with the new payer's first name.",
        'mapping.lastName': "Choose the column with the new payer's last name.",
        'mapping.email': "Choose the column with the new payer's e-mail address.",
      },
    ],
    [
      'a column the file does not have',
      { payer: 'existing' as const, columns: { email: 'Email', amount: 'Amount', dueDate: 'Due date', memo: 'Notes' } },
      { 'mapping.memo': 'The file has no column "Notes".' },
    ],
    [
      'a field that does not exist',
      { payer: 'existing' as const, columns: { email: 'Email', amount: 'Amount', dueDate: 'Due date', colour: 'Ref' } },
      { 'mapping.colour': 'There is no field "colour".' },
    ],
  ])('%s: 400 with a message per field, and the batch stays as it was', async (_name, mapping, fields) => {
    const up = await api.uploaded(file);
    const res = await api.map(up.batchId, mapping);
    expect(res.statusCode, res.body).toBe(400);
    expect(errorOf(res)).toEqual({ code: 'VALIDATION_FAILED', message: Object.values(fields)[0], fields });
    expect(await api.batch(up.batchId)).toMatchObject({ phase: 'uploaded', mapping: up.mapping, counts: { rows: 1, valid: 0, invalid: 0 } });
    expect((await api.rows(up.batchId)).total).toBe(0);
  });

  it('a mapping is checked in the background: 202 validating with its progress, then validated with every row', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => `ana@payers.example,${i + 1},${dayIn(10)},Ana,Lopez,P-${i}`);
    const up = await api.uploaded([`Email,Amount,Due date,First,Last,Ref`, ...rows].join('\n'));
    expect(up).toMatchObject({ phase: 'uploaded', progress: { done: 0, total: 0 } });
    const res = await api.map(up.batchId, { columns: { email: 'Email', amount: 'Amount', dueDate: 'Due date', reference: 'Ref' } });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().data).toMatchObject({
      state: 'Draft',
      phase: 'validating',
      progress: { done: 0, total: 30 },
      mapping: { payer: 'existing', columns: { email: 'Email', amount: 'Amount', dueDate: 'Due date', reference: 'Ref' } },
    });
    const done = await api.until(up.batchId, (b) => b.phase === 'validated');
    expect(done).toMatchObject({ counts: { rows: 30, valid: 30, invalid: 0, sent: 0, failed: 0 }, totalCents: (30 * 31 * 100) / 2 });
    // Progress is of work under way; once checked there is none.
    expect(done.progress).toEqual({ done: 0, total: 0 });
  });

  it('mapping again replaces the rows: another column for a field, blank columns dropped from the mapping', async () => {
    const up = await api.uploaded(`Email,Amount,Other amount,Due date\nana@payers.example,10,abc,${dayIn(10)}\nsam@payers.example,20,30,${dayIn(10)}\n`);
    const first = await api.mapped(up.batchId, { columns: { email: 'Email', amount: 'Amount', dueDate: 'Due date' } });
    expect(first).toMatchObject({ counts: { rows: 2, valid: 2, invalid: 0 }, totalCents: 3000 });
    const second = await api.mapped(up.batchId, { columns: { email: 'Email', amount: 'Other amount', dueDate: 'Due date', memo: '' } });
    expect(second.mapping.columns).toEqual({ email: 'Email', amount: 'Other amount', dueDate: 'Due date' });
    expect(second).toMatchObject({ counts: { rows: 2, valid: 1, invalid: 1 }, totalCents: 3000 });
    const { items, total } = await api.rows(up.batchId);
    expect(total).toBe(2);
    expect(items.map((r) => [r.row, r.status, r.fields.amount])).toEqual([
      [2, 'invalid', 'abc'],
      [3, 'valid', '30'],
    ]);
  });

  it('two mappings in a row: only the last one is checked', async () => {
    const up = await api.uploaded(`Email,A,B,Due date\n${Array.from({ length: 50 }, (_, i) => `ana@payers.example,${i + 1},x,${dayIn(10)}`).join('\n')}\n`);
    expect((await api.map(up.batchId, { columns: { email: 'Email', amount: 'A', dueDate: 'Due date' } })).statusCode).toBe(202);
    const last = await api.mapped(up.batchId, { columns: { email: 'Email', amount: 'B', dueDate: 'Due date' } });
    expect(last.counts).toMatchObject({ rows: 50, valid: 0, invalid: 50 });
    // The first run's rows are gone whether it finished or was stopped.
    const { items } = await api.rows(up.batchId, '?pageSize=100');
    expect(items.every((r) => r.fields.amount === 'x' && r.status === 'invalid')).toBe(true);
  });
});

describe('each row is checked with the rules of a single request', () => {
  it('amounts', async () => {
    const { batch, byLine } = await checked(
      REQUEST_HEADER,
      [
        line({ amount: '125.5' }),
        line({ amount: '$1,234.50' }),
        line({ amount: '0' }),
        line({ amount: '-5' }),
        line({ amount: 'abc' }),
        line({ amount: '10000000.01' }),
        line({ amount: '10,000,000.00' }),
        line({ amount: '' }),
        line({ amount: '1.999' }),
      ],
      REQUEST_COLUMNS,
    );
    expect([byLine(2).amountCents, byLine(2).status]).toEqual([12_550, 'valid']);
    expect([byLine(3).amountCents, byLine(3).status]).toEqual([123_450, 'valid']);
    expect(byLine(4).errors).toEqual({ amount: 'Enter an amount above $0.00.' });
    expect(byLine(5).errors).toEqual({ amount: 'Enter an amount above $0.00.' });
    expect(byLine(6).errors).toEqual({ amount: '"abc" is not an amount. Write it like 125.50 or $1,234.50.' });
    expect(byLine(7).errors).toEqual({ amount: 'The amount is above the $10,000,000.00 limit.' });
    expect([byLine(8).amountCents, byLine(8).status]).toEqual([1_000_000_000, 'valid']);
    expect(byLine(9).errors).toEqual({ amount: 'Enter an amount.' });
    expect(byLine(10).errors).toEqual({ amount: '"1.999" is not an amount. Write it like 125.50 or $1,234.50.' });
    expect(batch.counts).toMatchObject({ rows: 9, valid: 3, invalid: 6 });
    expect(batch.totalCents).toBe(12_550 + 123_450 + 1_000_000_000);
  });

  it('dates: ISO, MM/DD/YYYY and "MMM d, yyyy"; an impossible day, a past due date, an expiry before the due date', async () => {
    const d = dayIn(40);
    const readAs = 'is not a date we can read. Write it as 2026-12-31, 12/31/2026 or Dec 31, 2026.';
    const { byLine } = await checked(
      REQUEST_HEADER,
      [
        line({ due: d }),
        line({ due: usDate(d) }),
        line({ due: longDate(d) }),
        line({ due: '02/30/2027' }),
        line({ due: '2027-13-01' }),
        line({ due: 'next week' }),
        line({ due: dayIn(-1) }),
        line({ due: d, expires: dayIn(39) }),
        line({ due: d, expires: usDate(dayIn(60)) }),
        line({ due: d, expires: 'soon' }),
        line({ due: '' }),
      ],
      REQUEST_COLUMNS,
    );
    for (const l of [2, 3, 4]) expect(byLine(l), `line ${l}`).toMatchObject({ status: 'valid', errors: {} });
    expect(byLine(5).errors).toEqual({ dueDate: `"02/30/2027" ${readAs}` });
    expect(byLine(6).errors).toEqual({ dueDate: `"2027-13-01" ${readAs}` });
    expect(byLine(7).errors).toEqual({ dueDate: `"next week" ${readAs}` });
    expect(byLine(8).errors).toEqual({ dueDate: 'The due date cannot be in the past.' });
    expect(byLine(9).errors).toEqual({ expiresOn: 'The expiry cannot be before the due date.' });
    expect(byLine(10).status).toBe('valid');
    expect(byLine(11).errors).toEqual({ expiresOn: `"soon" ${readAs}` });
    expect(byLine(12).errors).toEqual({ dueDate: 'Enter the due date.' });
  });

  it('what the requests are made with: the dates as read, the default expiry, partial payment and the channel', async () => {
    const d = dayIn(40);
    const up = await api.uploaded(
      [
        REQUEST_HEADER.join(','),
        line({ due: usDate(d), partial: 'yes', reference: 'WHAT-1' }),
        line({ due: longDate(d), expires: usDate(dayIn(70)), partial: 'N', channel: 'E-mail', reference: 'WHAT-2' }),
        line({ email: 'sam@payers.example', due: d, channel: 'SMS', reference: 'WHAT-3' }),
      ].join('\n'),
    );
    await api.mapped(up.batchId, { columns: REQUEST_COLUMNS });
    await api.sent(up.batchId);
    const made = await requestsOfBatch(db(), acme.businessId, up.batchId);
    const full = await db()
      .selectFrom('payment_requests')
      .select(['reference', 'due_date', 'expires_on'])
      .where('batch_id', '=', up.batchId)
      .orderBy('number')
      .execute();
    const expiryDays = (await db().selectFrom('businesses').select('default_expiry_days').where('id', '=', acme.businessId).executeTakeFirstOrThrow())
      .default_expiry_days;
    const plus = (iso: string, n: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
    expect(full.map((r) => [r.reference, String(r.due_date).slice(0, 10), String(r.expires_on).slice(0, 10)])).toEqual([
      ['WHAT-1', d, plus(d, expiryDays)],
      ['WHAT-2', d, dayIn(70)],
      ['WHAT-3', d, plus(d, expiryDays)],
    ]);
    expect(made.map((r) => [r.reference, r.allow_partial, r.channel])).toEqual([
      ['WHAT-1', true, 'email'],
      ['WHAT-2', false, 'email'],
      ['WHAT-3', false, 'sms'],
    ]);
  });

  it('allow partial: yes/no and their short forms; anything else is refused', async () => {
    const { byLine } = await checked(
      REQUEST_HEADER,
      [line({ partial: 'yes' }), line({ partial: 'No' }), line({ partial: 'Y' }), line({ partial: '' }), line({ partial: 'true' }), line({ partial: 'maybe' })],
      REQUEST_COLUMNS,
    );
    for (const l of [2, 3, 4, 5, 6]) expect(byLine(l).status, `line ${l}`).toBe('valid');
    expect(byLine(7).errors).toEqual({ allowPartial: '"maybe" is not yes or no.' });
  });

  it('channel: email, sms (only to a payer with a mobile number), anything else refused', async () => {
    const { byLine } = await checked(
      REQUEST_HEADER,
      [
        line({ channel: 'email' }),
        line({ channel: '' }),
        line({ email: 'sam@payers.example', channel: 'sms' }),
        line({ email: 'sam@payers.example', channel: 'Text' }),
        line({ channel: 'sms' }),
        line({ channel: 'fax' }),
      ],
      REQUEST_COLUMNS,
    );
    for (const l of [2, 3, 4, 5]) expect(byLine(l).status, `line ${l}`).toBe('valid');
    expect(byLine(6).errors).toEqual({ channel: NO_MOBILE_MESSAGE });
    expect(byLine(7).errors).toEqual({ channel: '"fax" is not a channel. Write email or sms.' });
  });

  it('the payer: by e-mail (any case), by reference, unknown, deactivated, or not given', async () => {
    const { byLine } = await checked(
      ['Email', 'Payer ref', 'Amount', 'Due date', 'Reference'],
      [
        `ANA@Payers.Example,,10,${due()},P1`,
        `,FAM-2,10,${due()},P2`,
        `nobody@payers.example,,10,${due()},P3`,
        `,NOPE-9,10,${due()},P4`,
        `off@payers.example,,10,${due()},P5`,
        `,FAM-OFF,10,${due()},P6`,
        `,,10,${due()},P7`,
      ],
      { email: 'Email', payerReference: 'Payer ref', amount: 'Amount', dueDate: 'Due date', reference: 'Reference' },
    );
    expect(byLine(2)).toMatchObject({ status: 'valid', payerName: 'Ana Lopez' });
    expect(byLine(3)).toMatchObject({ status: 'valid', payerName: 'Sam Lee' });
    expect(byLine(4).errors).toEqual({
      email: 'No payer of yours has the e-mail address nobody@payers.example. Add the payer first, or choose "Create payers" on the map step.',
    });
    expect(byLine(5).errors).toEqual({ payerReference: 'No payer of yours has the reference NOPE-9.' });
    expect(byLine(6)).toMatchObject({ status: 'invalid', errors: { email: 'Off Person is deactivated; activate them first.' } });
    expect(byLine(7).errors).toEqual({ email: 'Off Person is deactivated; activate them first.' });
    expect(byLine(8).errors).toEqual({ email: "Enter the payer's e-mail address or reference." });
  });

  it('a payer mapped by reference only', async () => {
    const { batch, byLine } = await checked(['Customer ID', 'Amount', 'Due date'], [`FAM-1,10,${due()}`, `FAM-2,11,${due()}`, `,12,${due()}`], {
      payerReference: 'Customer ID',
      amount: 'Amount',
      dueDate: 'Due date',
    });
    expect(batch.counts).toMatchObject({ valid: 2, invalid: 1 });
    expect(byLine(2).payerName).toBe('Ana Lopez');
    expect(byLine(4).errors).toEqual({ payerReference: "Enter the payer's e-mail address or reference." });
  });

  it('a row with more values than the header has columns', async () => {
    const { byLine } = await checked(
      ['Email', 'Amount', 'Due date'],
      [`ana@payers.example,1,234.50,${due()}`, `ana@payers.example,7,${due()},`, `ana@payers.example,8,${due()}`],
      { email: 'Email', amount: 'Amount', dueDate: 'Due date' },
    );
    expect(byLine(2)).toMatchObject({ status: 'invalid' });
    expect(byLine(2).errors.row).toBe('This row has 4 values but the header has 3 columns. A value with a comma must be in double quotes.');
    // A trailing empty cell is not a value.
    expect(byLine(3)).toMatchObject({ status: 'valid', errors: {} });
    expect(byLine(4).status).toBe('valid');
  });

  it('a repeated row (same payer, amount and reference) is flagged, naming the first', async () => {
    const { batch, byLine } = await checked(
      ['Email', 'Amount', 'Due date', 'Reference', 'Memo'],
      [
        `ana@payers.example,10,${due()},INV-1,first`,
        `sam@payers.example,10,${due()},INV-1,other payer`,
        `ANA@payers.example,10.00,${dayIn(30)},inv-1,same payer amount reference`,
        `ana@payers.example,11,${due()},INV-1,other amount`,
        `ana@payers.example,10,${due()},INV-2,other reference`,
        `ana@payers.example,$10,${due()},INV-1,third time`,
      ],
      { email: 'Email', amount: 'Amount', dueDate: 'Due date', reference: 'Reference', memo: 'Memo' },
    );
    const repeat = 'Same payer, amount and reference as line 2 of the file. Change the reference, or drop one of them.';
    expect(byLine(4)).toMatchObject({ status: 'invalid', errors: { row: repeat } });
    expect(byLine(7)).toMatchObject({ status: 'invalid', errors: { row: repeat } });
    for (const l of [2, 3, 5, 6]) expect(byLine(l).status, `line ${l}`).toBe('valid');
    expect(batch.counts).toMatchObject({ rows: 6, valid: 4, invalid: 2 });
  });

  it('memo and reference lengths', async () => {
    const { byLine } = await checked(
      REQUEST_HEADER,
      [line({ memo: 'm'.repeat(501) }), line({ reference: 'r'.repeat(65) }), line({ memo: 'm'.repeat(500), reference: 'r'.repeat(64) })],
      REQUEST_COLUMNS,
    );
    expect(byLine(2).errors).toEqual({ memo: 'The memo is 501 characters; at most 500 fit.' });
    expect(byLine(3).errors).toEqual({ reference: 'The reference is 65 characters; at most 64 fit.' });
    expect(byLine(4).status).toBe('valid');
  });

  it('a row with several problems has a message for each field', async () => {
    const { byLine } = await checked(
      REQUEST_HEADER,
      [line({ email: 'nobody@payers.example', amount: 'x', due: 'y', partial: 'z', channel: 'w' })],
      REQUEST_COLUMNS,
    );
    expect(Object.keys(byLine(2).errors).sort()).toEqual(['allowPartial', 'amount', 'channel', 'dueDate', 'email']);
  });
});

describe('cells that a spreadsheet would run as formulas', () => {
  it('are kept as text in the rows, and written with an apostrophe in errors.csv (a column name too)', async () => {
    const { byLine, batch } = await checked(
      ['Email', 'Amount', 'Due date', 'Reference', '=Memo'],
      [
        `ana@payers.example,-5,${due()},@SUM(A1),=HYPERLINK("http://evil.example")`,
        `ana@payers.example,+7,${due()},-R1,"=1+2"`,
        `ana@payers.example,abc,${due()},R3,+cmd|' /C calc'!A0`,
      ],
      { email: 'Email', amount: 'Amount', dueDate: 'Due date', reference: 'Reference', memo: '=Memo' },
    );
    expect(byLine(2).fields).toMatchObject({ amount: '-5', reference: '@SUM(A1)', memo: '=HYPERLINK("http://evil.example")' });
    expect(byLine(3).fields).toMatchObject({ amount: '+7', reference: '-R1', memo: '=1+2' });
    const res = await api.errorsCsv(batch.batchId);
    expect(res.statusCode, res.body).toBe(200);
    const cells = parse(res.body) as string[][];
    expect(cells).toEqual([
      ['Line', 'Email', 'Amount', "'=Memo", 'Reference', 'Due date', 'Errors'],
      ['2', 'ana@payers.example', "'-5", '\'=HYPERLINK("http://evil.example")', "'@SUM(A1)", due(), 'Amount: Enter an amount above $0.00.'],
      ['3', 'ana@payers.example', "'+7", "'=1+2", "'-R1", due(), 'Amount: "+7" is not an amount. Write it like 125.50 or $1,234.50.'],
      ['4', 'ana@payers.example', 'abc', "'+cmd|' /C calc'!A0", 'R3', due(), 'Amount: "abc" is not an amount. Write it like 125.50 or $1,234.50.'],
    ]);
    // No cell a spreadsheet opens starts like a formula.
    for (const row of cells) for (const cell of row) expect(cell).not.toMatch(/^[=+\-@]/);
  });
});

describe('payers the file creates (payer mode "create")', () => {
  const header = ['First name', 'Last name', 'Email', 'Amount', 'Due date', 'Reference'];
  const columns = { firstName: 'First name', lastName: 'Last name', email: 'Email', amount: 'Amount', dueDate: 'Due date', reference: 'Reference' };

  it('checks the new payer fields', async () => {
    const { byLine } = await checked(
      header,
      [`,Doe,new1@payers.example,10,${due()},C1`, `Jo,,new2@payers.example,10,${due()},C2`, `Jo,Doe,not-an-email,10,${due()},C3`, `Jo,Doe,,10,${due()},C4`],
      columns,
      'create',
    );
    expect(byLine(2).errors).toHaveProperty('firstName');
    expect(byLine(3).errors).toHaveProperty('lastName');
    expect(byLine(4).errors).toEqual({ email: 'Enter a valid e-mail address.' });
    expect(byLine(5).errors).toHaveProperty('email');
    for (const l of [2, 3, 4, 5]) expect(byLine(l).status).toBe('invalid');
  });

  it('two rows with the same new e-mail make one payer; an existing e-mail uses that payer, never a second one', async () => {
    const before = await db().selectFrom('payers').select(['id', 'email']).where('business_id', '=', acme.businessId).execute();
    const { batch, byLine } = await checked(
      header,
      [
        `Nia,Park,nia.park@payers.example,10,${due()},N1`,
        `Nia,Park,Nia.Park@payers.example,20,${due()},N2`,
        `Ana,Other-Name,ana@payers.example,30,${due()},N3`,
        `Zed,Ray,zed.ray@payers.example,40,${due()},N4`,
      ],
      columns,
      'create',
    );
    expect(batch.counts).toMatchObject({ rows: 4, valid: 4 });
    expect(byLine(2).payerName).toBe('Nia Park');
    // The existing payer is who pays (and keeps their name).
    expect(byLine(4).payerName).toBe('Ana Lopez');
    // Nothing is created before the batch is submitted.
    expect(await db().selectFrom('payers').select('id').where('business_id', '=', acme.businessId).execute()).toHaveLength(before.length);

    const done = await api.sent(batch.batchId);
    expect(done).toMatchObject({ state: 'Processed', counts: { sent: 4, failed: 0 } });
    const after = await db()
      .selectFrom('payers')
      .select(['id', 'email', 'display_name', 'import_batch_id'])
      .where('business_id', '=', acme.businessId)
      .execute();
    const created = after.filter((p) => !before.some((b) => b.id === p.id));
    expect(created.map((p) => [p.email, p.display_name, p.import_batch_id]).sort()).toEqual([
      ['nia.park@payers.example', 'Nia Park', batch.batchId],
      ['zed.ray@payers.example', 'Zed Ray', batch.batchId],
    ]);
    expect(after.filter((p) => p.email === 'ana@payers.example')).toHaveLength(1);
    const made = await requestsOfBatch(db(), acme.businessId, batch.batchId);
    const nia = created.find((p) => p.email === 'nia.park@payers.example')!.id;
    const ana = before.find((p) => p.email === 'ana@payers.example')!.id;
    expect(made.map((r) => [r.reference, r.payer_id])).toEqual([
      ['N1', nia],
      ['N2', nia],
      ['N3', ana],
      ['N4', created.find((p) => p.email === 'zed.ray@payers.example')!.id],
    ]);
  });

  it('a payer the same file creates twice in two batches is created once', async () => {
    const file = (ref: string) => [header.join(','), `Lee,Moss,lee.moss@payers.example,10,${due()},${ref}`].join('\n');
    const a = await api.uploaded(file('M1'));
    const b = await api.uploaded(file('M2'));
    await api.mapped(a.batchId, { payer: 'create', columns });
    await api.mapped(b.batchId, { payer: 'create', columns });
    await api.sent(a.batchId);
    expect((await api.sent(b.batchId)).counts).toMatchObject({ sent: 1, failed: 0 });
    expect(
      await db().selectFrom('payers').select('id').where('business_id', '=', acme.businessId).where('email', '=', 'lee.moss@payers.example').execute(),
    ).toHaveLength(1);
  });
});

describe('rows read from the file', () => {
  it('fields are trimmed, unmapped columns are left out, and each row keeps its line', async () => {
    const { items } = await checked(
      ['Email', 'Amount', 'Due date', 'Ignored'],
      [`  ana@payers.example  , 10 ,${due()},secret`, '', `ana@payers.example,12,${due()},x`],
      { email: 'Email', amount: 'Amount', dueDate: 'Due date' },
    );
    expect(items.map((r: Row) => [r.row, r.fields])).toEqual([
      [2, { email: 'ana@payers.example', amount: '10', dueDate: due() }],
      [4, { email: 'ana@payers.example', amount: '12', dueDate: due() }],
    ]);
  });
});
