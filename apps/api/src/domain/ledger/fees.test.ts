import { describe, expect, it } from 'vitest';
import { basisPoints, computeFee } from './fees';

const schedule = { card: { bps: 290, fixedCents: 30 }, bankAccount: { bps: 80, capCents: 500 } };

describe('fees', () => {
  it('rounds half up in integer cents', () => {
    expect(basisPoints(50, 290)).toBe(1); // 1.45 → 1
    expect(basisPoints(1_000, 25)).toBe(3); // 2.5 → 3
    expect(basisPoints(1_000, 15)).toBe(2); // 1.5 → 2
    expect(basisPoints(1_000, 14)).toBe(1); // 1.4 → 1
    expect(basisPoints(1_000_000_000, 10_000)).toBe(1_000_000_000);
  });

  it('cards: 2.9% + 30¢', () => {
    expect(computeFee('card', 10_000, schedule)).toBe(320); // $100 → $3.20
    expect(computeFee('card', 1_234, schedule)).toBe(66); // 35.786 → 36, + 30
    expect(computeFee('card', 5_000, schedule)).toBe(175); // exactly 145 + 30
    expect(computeFee('card', 1_000_000_000, schedule)).toBe(29_000_030);
  });

  it('bank debits: 0.8% capped at $5', () => {
    expect(computeFee('bank_account', 10_000, schedule)).toBe(80);
    expect(computeFee('bank_account', 62_500, schedule)).toBe(500); // exactly the cap
    expect(computeFee('bank_account', 1_000_000, schedule)).toBe(500);
    expect(computeFee('bank_account', 63, schedule)).toBe(1); // 0.504 → 1
    expect(computeFee('bank_account', 62, schedule)).toBe(0); // 0.496 → 0
  });

  it('never takes the whole amount', () => {
    expect(computeFee('card', 1, schedule)).toBe(0);
    expect(computeFee('card', 30, schedule)).toBe(29);
    expect(computeFee('card', 31, schedule)).toBe(30);
    for (let amount = 1; amount <= 2_000; amount++) {
      for (const method of ['card', 'bank_account'] as const) {
        const fee = computeFee(method, amount, schedule);
        expect(Number.isInteger(fee) && fee >= 0 && fee < amount).toBe(true);
      }
    }
  });

  it('follows a configured schedule and refuses non-amounts', () => {
    expect(computeFee('card', 10_000, { card: { bps: 0, fixedCents: 0 }, bankAccount: { bps: 0, capCents: 0 } })).toBe(0);
    expect(computeFee('bank_account', 10_000, { ...schedule, bankAccount: { bps: 100, capCents: 50 } })).toBe(50);
    expect(() => computeFee('card', 0, schedule)).toThrow(RangeError);
    expect(() => computeFee('card', 1.5, schedule)).toThrow(RangeError);
  });
});
