import { describe, expect, it } from 'vitest';
import { studentActions, StudentInput } from './students';

const issues = (input: unknown) => {
  const parsed = StudentInput.safeParse(input);
  return parsed.success ? {} : Object.fromEntries(parsed.error.issues.map((i) => [i.path.join('.'), i.message]));
};

const good = { studentNumber: ' S-1 ', firstName: 'Mia', lastName: 'Lopez', guardians: [{ payerId: 'pyr_1' }] };

describe('StudentInput', () => {
  it('trims, defaults the grade, and takes a blank date of birth as none', () => {
    const parsed = StudentInput.parse({ ...good, dateOfBirth: '' });
    expect(parsed).toMatchObject({ studentNumber: 'S-1', grade: '', dateOfBirth: null });
  });

  it('takes an existing payer, or a new guardian with names and an e-mail (lower-cased)', () => {
    const parsed = StudentInput.parse({
      ...good,
      guardians: [{ payerId: 'pyr_1' }, { firstName: 'Kim', lastName: 'Lee', email: ' Kim@Families.Example ', mobile: '' }],
    });
    expect(parsed.guardians[1]).toEqual({ firstName: 'Kim', lastName: 'Lee', email: 'kim@families.example' });
  });

  it('names each missing or wrong field', () => {
    expect(issues({ guardians: [{}] })).toMatchObject({
      studentNumber: 'Enter the student id.',
      firstName: 'Enter the first name.',
      lastName: 'Enter the last name.',
      'guardians.0.firstName': expect.stringMatching(/first name/),
      'guardians.0.lastName': expect.stringMatching(/last name/),
      'guardians.0.email': expect.stringMatching(/e-mail/),
    });
    expect(issues({ ...good, dateOfBirth: '2016-02-30' })).toEqual({ dateOfBirth: 'Enter the date of birth as YYYY-MM-DD.' });
    expect(issues({ ...good, dateOfBirth: '1899-12-31' })).toEqual({ dateOfBirth: 'The date of birth must be on or after Jan 01, 1900.' });
    expect(issues({ ...good, guardians: [] })).toEqual({ guardians: 'Add at least one guardian: the payer billed for the student.' });
    expect(issues({ ...good, guardians: [{ payerId: 'a' }, { payerId: 'b' }, { payerId: 'c' }] })).toEqual({
      guardians: 'A student has at most two guardians.',
    });
    expect(
      issues({
        ...good,
        guardians: [
          { email: 'a@b.example', firstName: 'A', lastName: 'B' },
          { email: 'A@b.example', firstName: 'C', lastName: 'D' },
        ],
      }),
    ).toEqual({
      'guardians.1.email': 'The second guardian is the same as the first.',
    });
  });
});

describe('studentActions', () => {
  it('offers Request to Pay to active students only, and Delete while no request names them', () => {
    expect(studentActions('active', 0)).toEqual(['Edit', 'Request to Pay', 'Enrollment', 'Transactions', 'Deactivate', 'Delete']);
    expect(studentActions('Disabled', 2)).toEqual(['Edit', 'Enrollment', 'Transactions', 'Activate']);
  });
});
