import { describe, expect, it } from 'vitest';
import { checkQrAmount, qrAmountHelp } from './qr-amount';

const open = { minAmountCents: 500, maxAmountCents: 50_000 };
const none = { minAmountCents: null, maxAmountCents: null };

describe('the amount a payer enters on an open code', () => {
  it('says its bounds, whichever it has', () => {
    expect(qrAmountHelp(open)).toBe('Enter $5.00 to $500.00');
    expect(qrAmountHelp({ minAmountCents: 500, maxAmountCents: null })).toBe('Enter at least $5.00');
    expect(qrAmountHelp({ minAmountCents: null, maxAmountCents: 50_000 })).toBe('Enter up to $500.00');
    expect(qrAmountHelp(none)).toBeNull();
  });

  it('reads dollars and cents, bounds included', () => {
    expect(checkQrAmount('12.40', open)).toEqual({ cents: 1_240 });
    expect(checkQrAmount('$5', open)).toEqual({ cents: 500 });
    expect(checkQrAmount('500.00', open)).toEqual({ cents: 50_000 });
    expect(checkQrAmount('1,234.56', none)).toEqual({ cents: 123_456 });
  });

  it.each([
    ['', 'Enter the amount to pay.'],
    ['twelve', 'Enter an amount in dollars and cents, such as 12.40.'],
    ['12.345', 'Enter an amount in dollars and cents, such as 12.40.'],
    ['0', 'Enter an amount above $0.00.'],
    ['4.99', 'Enter at least $5.00.'],
    ['500.01', 'Enter at most $500.00.'],
  ])('refuses %j: %s', (text, error) => {
    expect(checkQrAmount(text, open)).toEqual({ error });
  });

  it('refuses more than the product takes in one payment', () => {
    expect(checkQrAmount('10000000.01', none)).toEqual({ error: 'The amount is above the $10,000,000.00 limit.' });
  });
});
