import { describe, expect, it } from 'vitest';
import { cardBrand, checkBankAccount, checkCard, instrumentLabel, luhnValid } from './instruments';

const now = new Date('2027-03-15T12:00:00Z');
const card = (number: string, over: Partial<{ expMonth: number; expYear: number; cvc: string }> = {}) =>
  checkCard({ number, expMonth: 12, expYear: 2030, cvc: '123', ...over }, now);

describe('sandbox cards', () => {
  it('knows the Luhn checksum', () => {
    expect(luhnValid('4242424242424242')).toBe(true);
    expect(luhnValid('4242424242424241')).toBe(false);
    expect(luhnValid('79927398713')).toBe(false); // valid Luhn but too short for a card
    expect(luhnValid('5555555555554444')).toBe(true);
  });

  it('maps the documented test cards to their behaviour and keeps only brand and last 4', () => {
    expect(card('4242 4242 4242 4242')).toEqual({ ok: true, instrument: { kind: 'card', brand: 'Visa', last4: '4242', behaviour: 'succeed' } });
    expect(card('4000 0000 0000 0002')).toMatchObject({ ok: true, instrument: { behaviour: 'decline', last4: '0002' } });
    expect(card('4000-0000-0000-9995')).toMatchObject({ ok: true, instrument: { behaviour: 'insufficient_funds' } });
    expect(card('5555555555554444')).toMatchObject({ ok: true, instrument: { brand: 'Mastercard', behaviour: 'succeed' } });
  });

  it('names brands', () => {
    expect(cardBrand('378282246310005')).toBe('American Express');
    expect(cardBrand('6011111111111117')).toBe('Discover');
    expect(cardBrand('2223003122003222')).toBe('Mastercard');
    expect(cardBrand('3566002020360505')).toBe('Card');
  });

  it('refuses a bad number, a past expiry and a bad security code, field by field', () => {
    expect(card('4242424242424241')).toEqual({ ok: false, fields: { 'card.number': 'Your card number is invalid.' } });
    expect(card('4242424242424242', { expMonth: 2, expYear: 2027 })).toEqual({ ok: false, fields: { 'card.expYear': 'Your card has expired.' } });
    expect(card('4242424242424242', { expMonth: 3, expYear: 27 }).ok).toBe(true); // this month still counts
    expect(card('4242424242424242', { expMonth: 13 }).ok).toBe(false);
    expect(card('4242424242424242', { cvc: '12' }).ok).toBe(false);
    expect(card('378282246310005', { cvc: '123' }).ok).toBe(false);
    expect(card('378282246310005', { cvc: '1234' }).ok).toBe(true);
  });
});

describe('sandbox bank accounts', () => {
  const account = (accountNumber: string, routingNumber = '222096656') => checkBankAccount({ routingNumber, accountNumber, accountHolderName: 'Ana Lopez' });

  it('maps the documented test accounts and names the sandbox bank', () => {
    expect(account('000123456789')).toEqual({
      ok: true,
      instrument: { kind: 'bank_account', brand: 'Tay Sandbox Bank', last4: '6789', behaviour: 'settle_late' },
    });
    expect(account('000111111113')).toMatchObject({ instrument: { behaviour: 'return_after_settlement' } });
    expect(account('000222222227')).toMatchObject({ instrument: { behaviour: 'insufficient_funds' } });
    expect(account('987654321', '123456780')).toMatchObject({ instrument: { brand: 'Bank account', behaviour: 'settle_late' } });
  });

  it('checks the ABA routing checksum and the account number', () => {
    expect(account('000123456789', '222096657')).toEqual({ ok: false, fields: { 'bankAccount.routingNumber': 'The routing number is invalid.' } });
    expect(account('12')).toMatchObject({ ok: false, fields: { 'bankAccount.accountNumber': expect.any(String) } });
  });

  it('labels an instrument the way payments show it', () => {
    expect(instrumentLabel({ brand: 'Visa', last4: '4242' })).toBe('Visa •••• 4242');
  });
});
