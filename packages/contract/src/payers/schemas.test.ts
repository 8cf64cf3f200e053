import { describe, expect, it } from 'vitest';
import { PayerImportBody, payerDisplayName, PayerUpdateBody, suggestPayerMapping } from './schemas';

describe('suggestPayerMapping (import header names)', () => {
  it('recognises the usual names in any case, spacing or punctuation', () => {
    expect(suggestPayerMapping(['First Name', 'Last Name', 'E-mail', 'Mobile', 'Company', 'Reference'])).toEqual({
      firstName: 'First Name',
      lastName: 'Last Name',
      email: 'E-mail',
      mobileNumber: 'Mobile',
      companyName: 'Company',
      reference: 'Reference',
    });
    expect(suggestPayerMapping(['EMAIL ADDRESS', 'given_name', 'Surname', 'Phone number', 'Organisation', 'Account #'])).toEqual({
      email: 'EMAIL ADDRESS',
      firstName: 'given_name',
      lastName: 'Surname',
      mobileNumber: 'Phone number',
      companyName: 'Organisation',
      reference: 'Account #',
    });
    expect(suggestPayerMapping(['email'])).toEqual({ email: 'email' });
  });

  it("reads the portal's own export back", () => {
    const exported = ['Payer ID', 'First name', 'Last name', 'Company', 'Display name', 'E-mail', 'Mobile number', 'Reference', 'Status'];
    expect(suggestPayerMapping(exported)).toEqual({
      firstName: 'First name',
      lastName: 'Last name',
      companyName: 'Company',
      email: 'E-mail',
      mobileNumber: 'Mobile number',
      reference: 'Reference',
    });
  });

  it('uses each column once, the first match winning, and leaves unknown columns alone', () => {
    expect(suggestPayerMapping(['Email', 'E-mail', 'Notes', 'Name'])).toEqual({ email: 'Email' });
    expect(suggestPayerMapping(['Notes', 'Amount'])).toEqual({});
    expect(suggestPayerMapping([])).toEqual({});
  });
});

describe('payerDisplayName', () => {
  it('is the company, or "First Last"', () => {
    expect(payerDisplayName({ firstName: 'Ana', lastName: 'Lopez', companyName: '' })).toBe('Ana Lopez');
    expect(payerDisplayName({ firstName: 'Ana', lastName: 'Lopez', companyName: ' Acme ' })).toBe('Acme');
    expect(payerDisplayName({ firstName: 'Ana' })).toBe('Ana');
  });
});

describe('payer request bodies', () => {
  it('an update needs at least one field; null clears an optional one', () => {
    expect(PayerUpdateBody.safeParse({}).success).toBe(false);
    expect(PayerUpdateBody.parse({ mobileNumber: null, email: ' A@B.co ' })).toEqual({ mobileNumber: null, email: 'a@b.co' });
    expect(PayerUpdateBody.safeParse({ mobileNumber: '555' }).error?.issues[0]?.message).toBe('Enter a valid mobile number.');
  });

  it('an import file is at most 2 MB of text', () => {
    expect(PayerImportBody.safeParse({ csv: 'x'.repeat(2 * 1024 * 1024) }).success).toBe(true);
    expect(PayerImportBody.safeParse({ csv: 'x'.repeat(2 * 1024 * 1024 + 1) }).error?.issues[0]?.message).toBe(
      'The file is larger than 2 MB; split it into smaller files and import them one by one.',
    );
  });
});
