import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/app-error';
import { normalizeMobileNumber, readImportFile } from './import-file';

const read = (csv: string, mapping?: Parameters<typeof readImportFile>[0]['mapping']) =>
  readImportFile({ businessId: 'biz_1', csv, ...(mapping ? { mapping } : {}) });

function refusal(csv: string, mapping?: Parameters<typeof readImportFile>[0]['mapping']): AppError {
  try {
    read(csv, mapping);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('the file was accepted');
}

describe('normalizeMobileNumber', () => {
  it.each([
    ['(415) 555-2671', '+14155552671'],
    ['415.555.2671', '+14155552671'],
    ['1 415 555 2671', '+14155552671'],
    ['+44 20 7946 0958', '+442079460958'],
    ['0044 20 7946 0958', '+442079460958'],
    ["'+14155552671", '+14155552671'],
    ['', null],
    ['  ', null],
    ['555-1234', '555-1234'],
  ])('%s → %s', (input, output) => expect(normalizeMobileNumber(input)).toBe(output));
});

describe('readImportFile', () => {
  it('maps columns by their header names and validates every row with PayerInput', () => {
    const file = read(
      'First Name,Last Name,Email,Phone,Ref\r\n' + 'Ana,Lopez,ANA@example.com,(415) 555-2671,A-1\r\n' + 'Ben,,ben@example.com,,\r\n' + ',,not-an-email,12,\r\n',
    );
    expect(file.headers).toEqual(['First Name', 'Last Name', 'Email', 'Phone', 'Ref']);
    expect(file.mapping).toEqual({ firstName: 'First Name', lastName: 'Last Name', email: 'Email', mobileNumber: 'Phone', reference: 'Ref' });
    expect(file.rows[0]).toEqual({
      row: 2,
      status: 'new',
      errors: {},
      note: null,
      payer: {
        firstName: 'Ana',
        lastName: 'Lopez',
        companyName: '',
        displayName: 'Ana Lopez',
        email: 'ana@example.com',
        mobileNumber: '+14155552671',
        reference: 'A-1',
      },
    });
    expect(file.rows[1]).toMatchObject({ row: 3, status: 'error', errors: { firstName: 'Enter a first and last name, or a company name.' } });
    expect(file.rows[2]).toMatchObject({
      row: 4,
      status: 'error',
      errors: {
        email: 'Enter a valid e-mail address.',
        mobileNumber: 'Enter a valid mobile number.',
        firstName: 'Enter a first and last name, or a company name.',
      },
    });
    expect(file.batchId).toMatch(/^imp_[0-9a-f]{26}$/);
    expect(read('First Name,Last Name,Email,Phone,Ref\nA,B,a@b.co,,\n').batchId).not.toBe(file.batchId);
  });

  it('marks rows that repeat an earlier e-mail or reference of the file as duplicates', () => {
    const file = read('Email,Company,Reference\na@x.co,A,R1\nA@X.CO,A again,R2\nb@x.co,B,R1\nc@x.co,C,\n');
    expect(file.rows.map((r) => [r.row, r.status, r.note])).toEqual([
      [2, 'new', null],
      [3, 'duplicate', 'Same e-mail address as line 2 of the file.'],
      [4, 'duplicate', 'Same reference as line 2 of the file.'],
      [5, 'new', null],
    ]);
  });

  it('follows a mapping that names the columns, whatever their names', () => {
    const file = read('Contact,Who,Org\nx@y.co,,Xylo\n', { email: 'Contact', companyName: 'Org' });
    expect(file.rows[0]).toMatchObject({ status: 'new', payer: { email: 'x@y.co', companyName: 'Xylo', displayName: 'Xylo' } });
    expect(file.suggestedMapping).toEqual({});
  });

  it('reads quoted commas and line breaks, a BOM, semicolons, and numbers rows by their first line', () => {
    const file = read('\uFEFFEmail;Company\n"a@x.co";"Smith; Sons\nLtd"\n\nb@x.co;B\n');
    expect(file.rows.map((r) => [r.row, r.payer.companyName])).toEqual([
      [2, 'Smith; Sons\nLtd'],
      [5, 'B'],
    ]);
  });

  it('flags a row with more values than columns (an unquoted comma)', () => {
    const file = read('Email,Company\na@x.co,Smith, Inc\n');
    expect(file.rows[0]?.errors).toEqual({ row: 'This row has 3 values but the header has 2 columns. A value with a comma must be in double quotes.' });
  });

  it('refuses whole files that cannot be imported, with a sentence', () => {
    expect(refusal('').message).toBe('The file is empty. Choose a CSV file with a header row and one payer per line.');
    expect(refusal('\n\n').message).toBe('The file is empty. Choose a CSV file with a header row and one payer per line.');
    expect(refusal('Email,Name\n').message).toBe('The file has a header row but no payers. Add one payer per line under the header.');
    expect(refusal('\u0089PNG\r\n\u001a\n\u0000\u0000').message).toMatch(/^This file is not a CSV text file\./);
    expect(refusal('Email\n"a@x.co\n').message).toBe('This file is not valid CSV: a quoted value that starts on line 2 is never closed (a " is missing).');
    const noEmail = refusal('Name,Phone\nAna,1\n');
    expect(noEmail.message).toBe(
      'We could not find an e-mail column in the file. Name the column "Email", or choose the column that holds the e-mail addresses.',
    );
    expect(noEmail.fields).toEqual({ 'mapping.email': 'Choose the column that holds the e-mail addresses.' });
    expect(refusal('Email,email\na,b\n').message).toBe('The column "email" appears twice in the header row. Give every column its own name.');
    const unknown = refusal('Email\na@x.co\n', { email: 'Mail', reference: 'Ref' });
    expect(unknown.fields).toEqual({ 'mapping.email': 'The file has no column "Mail".', 'mapping.reference': 'The file has no column "Ref".' });
    const tooMany = `Email\n${Array.from({ length: 5001 }, (_, i) => `p${i}@x.co`).join('\n')}\n`;
    expect(refusal(tooMany).message).toBe('The file has 5,001 payers; import at most 5,000 at a time. Split it into smaller files.');
    expect(read(`Email,Company\n${Array.from({ length: 5000 }, (_, i) => `p${i}@x.co,C${i}`).join('\n')}\n`).rows).toHaveLength(5000);
  });
});
