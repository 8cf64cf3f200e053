// PostgreSQL pass: the import's rows stored and checked in SQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, get } from '../support/identity';
import { approvedBusiness, send, type ApprovedBusiness } from '../support/payers';
import { createTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
let owner: ApprovedBusiness;
beforeAll(async () => {
  t = await createTestApp({ SANDBOX_AUTO_APPROVE: 'false' });
  owner = await approvedBusiness(t.app, t.runtime, 'import-owner@example.com', 'Import Co');
  const existing = await send(t.app, 'POST', `/api/businesses/${owner.businessId}/payers`, owner.token, {
    firstName: 'Already',
    lastName: 'Here',
    email: 'already@example.com',
    reference: 'EXIST-1',
  });
  expect(existing.statusCode).toBe(201);
});
afterAll(async () => t?.close());

const url = (business: ApprovedBusiness, rest = '') => `/api/businesses/${business.businessId}/payers/import${rest}`;
const preview = (csv: string, mapping?: unknown, business = owner) =>
  send(t.app, 'POST', url(business, '/preview'), business.token, { csv, ...(mapping ? { mapping } : {}) });
const commit = (csv: string, mapping?: unknown, business = owner) =>
  send(t.app, 'POST', url(business), business.token, { csv, ...(mapping ? { mapping } : {}) });
const payerCount = async (businessId = owner.businessId) =>
  Number(
    (
      await t.runtime.database.db
        .selectFrom('payers')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('business_id', '=', businessId)
        .executeTakeFirstOrThrow()
    ).n,
  );

const GOOD = [
  '\uFEFFFirst Name,Last Name,E-mail,Mobile,Company,Reference',
  'Nora,Quinn,nora@example.com,(415) 555-2671,,N-1',
  ',,accounts@river.example,,"River, Stone & Co",N-2',
  'Omar,Said,"omar@example.com",+44 20 7946 0958,,',
  'Al,Ready,ALREADY@example.com,,,',
  'Nora,Twin,NORA@example.com,,,',
  'Ref,Clash,ref-clash@example.com,,,EXIST-1',
].join('\r\n');

const BAD = ['Email,First name,Last name', 'good@example.com,Good,Row', 'not-an-email,Bad,Row', 'fine@example.com,Fine,Row', 'nolast@example.com,Only,'].join(
  '\n',
);

describe('preview', () => {
  it('shows the headers, the suggested mapping and what each row would do, saving nothing', async () => {
    const before = await payerCount();
    const res = await preview(GOOD);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.headers).toEqual(['First Name', 'Last Name', 'E-mail', 'Mobile', 'Company', 'Reference']);
    expect(data.suggestedMapping).toEqual({
      firstName: 'First Name',
      lastName: 'Last Name',
      email: 'E-mail',
      mobileNumber: 'Mobile',
      companyName: 'Company',
      reference: 'Reference',
    });
    expect(data.mapping).toEqual(data.suggestedMapping);
    expect(data.rows.map((r: { row: number; status: string; note: string | null }) => [r.row, r.status, r.note])).toEqual([
      [2, 'new', null],
      [3, 'new', null],
      [4, 'new', null],
      [5, 'duplicate', 'A payer with this e-mail address already exists.'],
      [6, 'duplicate', 'Same e-mail address as line 2 of the file.'],
      [7, 'duplicate', 'A payer with this reference already exists.'],
    ]);
    expect(data.rows[0].payer).toEqual({
      firstName: 'Nora',
      lastName: 'Quinn',
      companyName: '',
      displayName: 'Nora Quinn',
      email: 'nora@example.com',
      mobileNumber: '+14155552671',
      reference: 'N-1',
    });
    expect(data.rows[1].payer).toMatchObject({ displayName: 'River, Stone & Co', mobileNumber: null });
    expect(data.rows[2].payer.mobileNumber).toBe('+442079460958');
    expect(data.counts).toEqual({ total: 6, new: 3, duplicate: 3, error: 0 });
    expect(await payerCount()).toBe(before);
  });

  it('shows every row error by line and field', async () => {
    const res = await preview(BAD);
    expect(res.statusCode).toBe(200);
    const rows = res.json().data.rows as { row: number; status: string; errors: Record<string, string> }[];
    expect(rows.filter((r) => r.status === 'error')).toEqual([
      expect.objectContaining({ row: 3, errors: { email: 'Enter a valid e-mail address.' } }),
      expect.objectContaining({ row: 5, errors: { firstName: 'Enter a first and last name, or a company name.' } }),
    ]);
    expect(res.json().data.counts).toEqual({ total: 4, new: 2, duplicate: 0, error: 2 });
  });

  it('reads the columns a mapping names', async () => {
    const res = await preview('Who,Contact,Org\nZed,zed@example.com,Zed Ltd\n', { email: 'Contact', companyName: 'Org' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.rows[0]).toMatchObject({ status: 'new', payer: { email: 'zed@example.com', displayName: 'Zed Ltd' } });
    expect(res.json().data.suggestedMapping).toEqual({});
  });
});

describe('import (commit)', () => {
  it('is all or nothing: one bad row refuses the file, listing every bad row, and saves nothing', async () => {
    const before = await payerCount();
    const res = await commit(BAD);
    expect(res.statusCode).toBe(400);
    expect(errorOf(res)).toEqual({
      code: 'VALIDATION_FAILED',
      message: '2 rows have errors (lines 3, 5), so nothing was imported. Fix them and import the file again.',
      fields: {
        'rows.3.email': 'Enter a valid e-mail address.',
        'rows.5.firstName': 'Enter a first and last name, or a company name.',
      },
    });
    expect(await payerCount()).toBe(before);
    const one = await commit('Email,Company\ngood@example.com,Good\nbad,Bad\n');
    expect(errorOf(one).message).toBe('Line 3 has errors, so nothing was imported. Fix it and import the file again.');
    expect(await payerCount()).toBe(before);
  });

  it('adds the new payers, skips the duplicates, and a second import of the same file adds nothing', async () => {
    const before = await payerCount();
    const res = await commit(GOOD);
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json().data;
    expect(result).toEqual({ added: 3, skipped: 3, batchId: expect.stringMatching(/^imp_[0-9a-f]{26}$/) });
    expect(await payerCount()).toBe(before + 3);

    const rows = await t.runtime.database.db
      .selectFrom('payers')
      .select(['email', 'display_name', 'mobile_number', 'reference', 'status', 'verification', 'verification_token_hash', 'import_batch_id'])
      .where('business_id', '=', owner.businessId)
      .where('import_batch_id', '=', result.batchId)
      .orderBy('email')
      .execute();
    expect(rows).toEqual([
      {
        email: 'accounts@river.example',
        display_name: 'River, Stone & Co',
        mobile_number: null,
        reference: 'N-2',
        status: 'active',
        verification: 'unverified',
        verification_token_hash: null,
        import_batch_id: result.batchId,
      },
      {
        email: 'nora@example.com',
        display_name: 'Nora Quinn',
        mobile_number: '+14155552671',
        reference: 'N-1',
        status: 'active',
        verification: 'unverified',
        verification_token_hash: null,
        import_batch_id: result.batchId,
      },
      {
        email: 'omar@example.com',
        display_name: 'Omar Said',
        mobile_number: '+442079460958',
        reference: null,
        status: 'active',
        verification: 'unverified',
        verification_token_hash: null,
        import_batch_id: result.batchId,
      },
    ]);
    // Imported payers are not e-mailed until the business chooses to (ADR 005).
    expect((await get(t.app, '/api/dev/outbox?to=nora@example.com')).json()).toEqual([]);

    const again = await commit(GOOD);
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toEqual({ added: 0, skipped: 6, batchId: result.batchId });
    expect(await payerCount()).toBe(before + 3);
    const secondPreview = (await preview(GOOD)).json().data;
    expect(secondPreview.counts).toEqual({ total: 6, new: 0, duplicate: 6, error: 0 });

    const audit = await t.runtime.database.db
      .selectFrom('business_events')
      .select(['action', 'actor', 'details'])
      .where('business_id', '=', owner.businessId)
      .where('action', '=', 'payers.imported')
      .orderBy('created_at')
      .execute();
    expect(audit.map((e) => e.details)).toEqual([
      { batchId: result.batchId, rows: 6, added: 3, skipped: 3 },
      { batchId: result.batchId, rows: 6, added: 0, skipped: 6 },
    ]);
    expect(audit[0]?.actor).toBe('import-owner@example.com');
  });

  it("reads the portal's own export back into another business", async () => {
    const exported = await send(t.app, 'GET', `/api/businesses/${owner.businessId}/payers/export.csv`, owner.token);
    const other = await approvedBusiness(t.app, t.runtime, 'import-other@example.com', 'Other Co');
    const res = await commit(exported.body, undefined, other);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ added: await payerCount(), skipped: 0 });
    const copied = (await send(t.app, 'GET', `/api/businesses/${other.businessId}/payers?search=nora`, other.token)).json().data.items;
    expect(copied).toEqual([expect.objectContaining({ displayName: 'Nora Quinn', mobileNumber: '+14155552671', reference: 'N-1' })]);
  });

  it('a concurrent twin import creates every payer once', async () => {
    const twin = await approvedBusiness(t.app, t.runtime, 'import-twin@example.com', 'Twin Co');
    const csv = `Email,Company\n${Array.from({ length: 50 }, (_, i) => `twin${i}@example.com,Twin ${i}`).join('\n')}\n`;
    const [first, second] = await Promise.all([commit(csv, undefined, twin), commit(csv, undefined, twin)]);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect(first.json().data.added + second.json().data.added).toBe(50);
    expect(await payerCount(twin.businessId)).toBe(50);
  });
});

describe('files that cannot be imported: 400 with a sentence', () => {
  it.each([
    ['an empty file', '', 'The file is empty. Choose a CSV file with a header row and one payer per line.'],
    ['a header without rows', 'Email,Name\r\n', 'The file has a header row but no payers. Add one payer per line under the header.'],
    [
      'a binary file',
      '%PDF-1.7\n\u0001\u0002binary',
      'This file is not a CSV text file. In your spreadsheet, choose "Save as" or "Export" → CSV (comma-separated values), then import that file.',
    ],
    // U+0000 is refused before the import sees the file, naming the line (ADR 023).
    [
      'a binary file with U+0000',
      '%PDF-1.7\n\u0000\u0001\u0002binary',
      'This is not a text file: line 2 has a NUL character (U+0000), which cannot be saved. If it is a spreadsheet, choose "Save as" or "Export" → CSV (comma-separated values) in it and use that file; if you typed it, remove the character.',
    ],
    ['an unclosed quote', 'Email\n"broken@example.com\n', 'This file is not valid CSV: a quoted value that starts on line 2 is never closed (a " is missing).'],
    [
      'no e-mail column',
      'Name,Phone\nAna,123\n',
      'We could not find an e-mail column in the file. Name the column "Email", or choose the column that holds the e-mail addresses.',
    ],
    [
      'over 5,000 rows',
      `Email\n${Array.from({ length: 5001 }, (_, i) => `p${i}@example.com`).join('\n')}\n`,
      'The file has 5,001 payers; import at most 5,000 at a time. Split it into smaller files.',
    ],
  ])('%s', async (_name, csv, message) => {
    const before = await payerCount();
    for (const res of [await preview(csv), await commit(csv)]) {
      expect(res.statusCode).toBe(400);
      expect(errorOf(res).message).toBe(message);
    }
    expect(await payerCount()).toBe(before);
  });

  it('over 2 MB', async () => {
    const csv = `Email\n${'x'.repeat(2 * 1024 * 1024)}\n`;
    const res = await commit(csv);
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).fields).toEqual({ csv: 'The file is larger than 2 MB; split it into smaller files and import them one by one.' });
  });

  it('a mapping naming a column the file does not have', async () => {
    const res = await preview('Email\na@example.com\n', { email: 'Mail' });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res)).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'The mapping names columns the file does not have. Choose them again.',
      fields: { 'mapping.email': 'The file has no column "Mail".' },
    });
  });
});
