import { describe, expect, it } from 'vitest';
import { isValidRoutingNumber, maskNumber } from '../common/bank-numbers';
import { AddBankAccountBody, BusinessState, Owners, UpdateBusinessBody } from './schemas';
import { BUSINESS_TRANSITIONS, canTransition, formatEin, isBusinessEditable, isNonProfitStructure } from './states';

const STATES = BusinessState.options;

describe('the business state machine', () => {
  // Every (from, to) pair, written out: a change to the table must change this list too.
  const ALLOWED = new Set(['Incomplete→Pending', 'Pending→Approved', 'Pending→Disabled', 'Approved→Disabled', 'Disabled→Approved']);

  it.each(STATES.flatMap((from) => STATES.map((to) => [from, to] as const)))('%s → %s', (from, to) => {
    expect(canTransition(from, to)).toBe(ALLOWED.has(`${from}→${to}`));
  });

  it('covers every state, and no state moves to itself', () => {
    expect(Object.keys(BUSINESS_TRANSITIONS).sort()).toEqual([...STATES].sort());
    for (const state of STATES) expect(BUSINESS_TRANSITIONS[state]).not.toContain(state);
  });

  it('nothing goes back to Incomplete, and Approved is reached only through review or re-enabling', () => {
    for (const state of STATES) expect(canTransition(state, 'Incomplete')).toBe(false);
    expect(STATES.filter((from) => canTransition(from, 'Approved'))).toEqual(['Pending', 'Disabled']);
  });

  it('details can change only while Incomplete or Approved', () => {
    expect(STATES.filter(isBusinessEditable)).toEqual(['Incomplete', 'Approved']);
  });
});

describe('isValidRoutingNumber', () => {
  it.each(['011000015', '021000021', '123456780', '222096656'])('accepts %s', (value) => {
    expect(isValidRoutingNumber(value)).toBe(true);
  });

  it.each([
    ['123456789', 'bad checksum'],
    ['011000016', 'last digit off by one'],
    ['000000000', 'all zeros'],
    ['12345678', 'eight digits'],
    ['1234567890', 'ten digits'],
    ['12345678a', 'a letter'],
    ['', 'empty'],
  ])('refuses %s (%s)', (value) => {
    expect(isValidRoutingNumber(value)).toBe(false);
  });
});

describe('maskNumber', () => {
  it('shows only the last four digits', () => {
    expect(maskNumber('000123456789')).toBe('••••6789');
    expect(maskNumber('123456780')).toBe('••••6780');
    expect(maskNumber('5555')).toBe('••••5555');
    expect(maskNumber('123456780', 2)).toBe('••••80');
  });
});

describe('formatEin', () => {
  it('formats 9 digits as NN-NNNNNNN and leaves anything else alone', () => {
    expect(formatEin('123456789')).toBe('12-3456789');
    expect(formatEin('12-3456789')).toBe('12-3456789');
  });
});

describe('isNonProfitStructure', () => {
  it('only the non-profit structure takes a non-profit code', () => {
    expect(isNonProfitStructure('non_profit')).toBe(true);
    for (const code of ['llc', 'government', '', null, undefined]) expect(isNonProfitStructure(code)).toBe(false);
  });
});

describe('request schemas', () => {
  const owner = { firstName: 'A', lastName: 'B', title: 'CEO', dateOfBirth: '1980-01-01', ssnLast4: '1234', email: 'a@example.com' };

  it('owners hold at most 100 % together', () => {
    expect(
      Owners.safeParse([
        { ...owner, ownershipPercent: 60 },
        { ...owner, ownershipPercent: 40 },
      ]).success,
    ).toBe(true);
    const over = Owners.safeParse([
      { ...owner, ownershipPercent: 60 },
      { ...owner, ownershipPercent: 41 },
    ]);
    expect(over.success).toBe(false);
    expect(over.error?.issues[0]?.message).toBe('Ownership adds up to more than 100 %.');
  });

  it('an update sends at least one section', () => {
    expect(UpdateBusinessBody.safeParse({}).success).toBe(false);
    expect(UpdateBusinessBody.safeParse({ businessName: 'X' }).success).toBe(true);
  });

  it('a bank account names its bank one way: directory or routing number', () => {
    const base = { accountNumber: '1234', confirmAccountNumber: '1234', accountType: 'checking', accountHolderName: 'X' };
    expect(AddBankAccountBody.safeParse({ ...base, routingNumber: '123456780' }).success).toBe(true);
    expect(AddBankAccountBody.safeParse({ ...base, directoryId: 'tay-sandbox-bank' }).success).toBe(true);
    expect(AddBankAccountBody.safeParse(base).success).toBe(false);
    expect(AddBankAccountBody.safeParse({ ...base, routingNumber: '123456780', directoryId: 'tay-sandbox-bank' }).success).toBe(false);
  });
});
