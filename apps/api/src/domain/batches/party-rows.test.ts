import { PARTY_TEMPLATES, type FieldErrors } from '@tay/contract';
import { describe, expect, it } from 'vitest';
import type { GuardianPayer } from '../students/guardians';
import { checkBirthDate, checkPayerColumns, inactivePayerFor, partyAlreadyExists, partyRowLabel } from './party-rows';

const columns = { email: 'guarantorEmail', firstName: 'guarantorFirstName', lastName: 'guarantorLastName', mobile: 'guarantorMobile' };
const options = (names: { firstName: string; lastName: string } | null = null) => ({
  whose: "guarantor's",
  missing: "Enter the guarantor's e-mail address.",
  names,
  emailMax: 254,
  inactive: inactivePayerFor(PARTY_TEMPLATES.healthCare),
});
const payer = (status: string): GuardianPayer => ({
  id: 'pay_1',
  display_name: 'Ada Lovelace',
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  mobile_number: null,
  status,
});

describe('the party rows of a template', () => {
  it('says a taken id and a deactivated payer in the words of each template', () => {
    expect(partyAlreadyExists(PARTY_TEMPLATES.student, 'S-7')).toBe('A student with the student id S-7 already exists. Change it, or drop the row.');
    expect(partyAlreadyExists(PARTY_TEMPLATES.healthCare, 'M-1')).toBe('A patient with the MRN M-1 already exists. Change it, or drop the row.');
    expect(inactivePayerFor(PARTY_TEMPLATES.student)({ display_name: 'Ada' })).toContain('cannot be a guardian');
  });

  it('takes an existing payer by e-mail (any case) and refuses one that is deactivated', () => {
    const errors: FieldErrors = {};
    const existing = new Map([['ada@example.com', payer('active')]]);
    expect(checkPayerColumns({ guarantorEmail: ' ADA@example.com ' }, columns, options(), errors, existing)).toEqual({
      email: 'ada@example.com',
      newPayer: null,
    });
    expect(errors).toEqual({});
    checkPayerColumns({ guarantorEmail: 'ada@example.com' }, columns, options(), errors, new Map([['ada@example.com', payer('inactive')]]));
    expect(errors.guarantorEmail).toBe('Ada Lovelace is a deactivated payer, so they cannot be a guarantor. Activate them in Manage Payers first.');
  });

  it('makes a new payer from the row, naming each missing or wrong column', () => {
    const errors: FieldErrors = {};
    expect(checkPayerColumns({ guarantorEmail: 'new@example.com', guarantorMobile: '12' }, columns, options(), errors, new Map())).not.toBeNull();
    expect(errors).toEqual({
      guarantorFirstName: "Enter the guarantor's first name: no payer has the e-mail new@example.com yet.",
      guarantorLastName: "Enter the guarantor's last name: no payer has the e-mail new@example.com yet.",
      guarantorMobile: '"12" is not a mobile number. Write it like +1 555 010 0000.',
    });
    const self: FieldErrors = {};
    const made = checkPayerColumns(
      { guarantorEmail: 'pat@example.com', guarantorMobile: '+1 (555) 010-0000' },
      columns,
      options({ firstName: 'Pat', lastName: 'Doe' }),
      self,
      new Map(),
    );
    expect(self).toEqual({});
    expect(made?.newPayer).toEqual({ firstName: 'Pat', lastName: 'Doe', email: 'pat@example.com', mobile: '+15550100000' });
  });

  it('refuses a blank e-mail only where the payer is required, and an e-mail that is not one', () => {
    const errors: FieldErrors = {};
    expect(checkPayerColumns({}, columns, { ...options(), missing: null }, errors, new Map())).toBeNull();
    expect(errors).toEqual({});
    checkPayerColumns({}, columns, options(), errors, new Map());
    expect(errors).toEqual({ guarantorEmail: "Enter the guarantor's e-mail address." });
    checkPayerColumns({ other: 'not-mail' }, { ...columns, email: 'other' }, options(), errors, new Map());
    expect(errors.other).toBe('"not-mail" is not a valid e-mail address.');
  });

  it('reads a date of birth and refuses one in the future, unreadable or (where required) blank', () => {
    const forms = 'as 1984-05-31';
    const check = (text: string | undefined, required = true) => {
      const errors: FieldErrors = {};
      const day = checkBirthDate(text === undefined ? {} : { dateOfBirth: text }, '2026-12-02', forms, required, errors);
      return { day, error: errors.dateOfBirth };
    };
    expect(check('05/31/1984')).toEqual({ day: '1984-05-31', error: undefined });
    expect(check('2030-01-01').error).toBe('The date of birth cannot be in the future.');
    expect(check('soon').error).toBe('"soon" is not a date we can read. Write it as 1984-05-31.');
    expect(check(undefined).error).toBe('Enter the date of birth.');
    expect(check(undefined, false)).toEqual({ day: null, error: undefined });
  });

  it('labels a row by its names and id', () => {
    expect(partyRowLabel('Ada', 'Lovelace', 'S-1')).toBe('Ada Lovelace (S-1)');
    expect(partyRowLabel('', '', 'S-1')).toBe('S-1');
    expect(partyRowLabel('', '', '')).toBeNull();
  });
});
