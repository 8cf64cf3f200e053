import { describe, expect, it } from 'vitest';
import { maskDateOfBirth, PatientInput, patientActions } from './patients';

const valid = {
  mrn: ' MRN-1 ',
  firstName: 'Ana',
  lastName: 'Lopez',
  dateOfBirth: '1984-05-31',
  guarantor: { relationship: 'self', email: ' Ana@Patients.Example ' },
};

const fieldsOf = (input: unknown) => {
  const parsed = PatientInput.safeParse(input);
  return parsed.success ? {} : Object.fromEntries(parsed.error.issues.map((i) => [i.path.join('.'), i.message]));
};

describe('maskDateOfBirth', () => {
  it('keeps the year only', () => {
    expect(maskDateOfBirth('1984-05-31')).toBe('••/••/1984');
    expect(maskDateOfBirth('not a date')).toBe('••/••/••••');
  });
});

describe('patientActions', () => {
  it('offers Request to Pay only while active, and Delete only while never billed', () => {
    expect(patientActions('active', 0)).toEqual(['Edit', 'Request to Pay', 'Transactions', 'Deactivate', 'Delete']);
    expect(patientActions('Disabled', 2)).toEqual(['Edit', 'Transactions', 'Activate']);
  });
});

describe('PatientInput', () => {
  it('trims, lower-cases the e-mail, and takes a self guarantor by e-mail alone', () => {
    const parsed = PatientInput.parse(valid);
    expect(parsed.mrn).toBe('MRN-1');
    expect(parsed.guarantor).toEqual({ relationship: 'self', email: 'ana@patients.example' });
  });

  it('takes an existing payer by id for any relationship', () => {
    expect(fieldsOf({ ...valid, guarantor: { relationship: 'spouse', payerId: 'pyr_1' } })).toEqual({});
  });

  it("asks for another person's names and e-mail when no payer is chosen", () => {
    expect(fieldsOf({ ...valid, guarantor: { relationship: 'parent' } })).toEqual({
      'guarantor.firstName': "Enter the guarantor's first name, or choose an existing payer.",
      'guarantor.lastName': "Enter the guarantor's last name, or choose an existing payer.",
      'guarantor.email': "Enter the guarantor's e-mail address, or choose an existing payer.",
    });
  });

  it('requires a date of birth, as YYYY-MM-DD, from 1900 on', () => {
    expect(fieldsOf({ ...valid, dateOfBirth: '' })).toEqual({ dateOfBirth: 'Enter the date of birth.' });
    expect(fieldsOf({ ...valid, dateOfBirth: '05/31/1984' })).toEqual({ dateOfBirth: 'Enter the date of birth as YYYY-MM-DD.' });
    expect(fieldsOf({ ...valid, dateOfBirth: '1899-12-31' }).dateOfBirth).toMatch(/1900/);
  });

  it('refuses an unknown relationship', () => {
    expect(fieldsOf({ ...valid, guarantor: { relationship: 'cousin', payerId: 'pyr_1' } })['guarantor.relationship']).toMatch(/Choose who pays/);
  });
});
