import { describe, expect, it } from 'vitest';
import { amountInWords, formatMoney, parseMoney } from './money';

describe('formatMoney', () => {
  it('formats cents as US dollars, en-US', () => {
    expect(formatMoney(0)).toBe('$0.00');
    expect(formatMoney(7)).toBe('$0.07');
    expect(formatMoney(123456)).toBe('$1,234.56');
    expect(formatMoney(-2500)).toBe('-$25.00');
    expect(formatMoney(10n)).toBe('$0.10');
  });

  it('writes what Intl writes for US dollars, to the largest amount and beyond', () => {
    const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
    const samples = [1, 99, 100, 101, 999_99, 1_000_00, 12_345_678, 99_999_999_99, 1_000_000_000, 123_456_789_012];
    for (let cents = 0; cents < 2_000; cents += 37) samples.push(cents);
    for (const cents of samples) {
      expect(formatMoney(cents)).toBe(usd.format(cents / 100));
      expect(formatMoney(-cents)).toBe(cents === 0 ? '$0.00' : usd.format(-cents / 100));
    }
  });

  it('refuses fractional cents', () => {
    expect(() => formatMoney(1.5)).toThrow(RangeError);
  });
});

describe('parseMoney', () => {
  it.each([
    ['12', 1200],
    ['12.3', 1230],
    ['12.34', 1234],
    ['$1,234.56', 123456],
    [' 0.07 ', 7],
    ['0', 0],
    ['12.', 1200],
    ['1,000,000', 100000000],
  ])('%s → %i cents', (input, cents) => {
    expect(parseMoney(input)).toBe(cents);
  });

  it.each(['', 'abc', '1.234', '-5', '1e3', '1,2,3', '12,34.00', '.', '9999999999999'])('refuses %j', (input) => {
    expect(parseMoney(input)).toBeNull();
  });

  it('never loses a cent to floating point (0.1 + 0.2 style inputs)', () => {
    for (let cents = 0; cents < 10_000; cents += 7) {
      const text = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
      expect(parseMoney(text)).toBe(cents);
    }
  });
});

describe('amountInWords', () => {
  it('writes an amount as a cheque does', () => {
    expect(amountInWords(1_000_000_000)).toBe('ten million dollars');
    expect(amountInWords(1_000_050)).toBe('ten thousand dollars and fifty cents');
    expect(amountInWords(123_456_789)).toBe('one million two hundred thirty-four thousand five hundred sixty-seven dollars and eighty-nine cents');
    expect(amountInWords(101)).toBe('one dollar and one cent');
    expect(amountInWords(7)).toBe('zero dollars and seven cents');
    expect(amountInWords(2_000_000)).toBe('twenty thousand dollars');
  });
});
