import { describe, expect, it } from 'vitest';
import { qrAmountProblem, qrBoundsText } from './amount-rules';
import { qrCodeActions, QrCodeInput } from './schemas';

const open = { amountMode: 'open' as const, amountCents: null, minAmountCents: 500, maxAmountCents: 5_000 };

describe('QR code amounts', () => {
  it('a fixed code takes its amount only; an open one anything within its bounds', () => {
    const fixed = { amountMode: 'fixed' as const, amountCents: 1_500, minAmountCents: null, maxAmountCents: null };
    expect(qrAmountProblem(1_500, fixed)).toBeNull();
    expect(qrAmountProblem(1_000, fixed)).toBe('This code takes $15.00.');
    expect(qrAmountProblem(500, open)).toBeNull();
    expect(qrAmountProblem(5_000, open)).toBeNull();
    expect(qrAmountProblem(499, open)).toBe('Enter at least $5.00.');
    expect(qrAmountProblem(5_001, open)).toBe('Enter at most $50.00.');
    expect(qrAmountProblem(0, { ...open, minAmountCents: null })).toBe('Enter an amount above $0.00.');
  });

  it('says the bounds it has', () => {
    expect(qrBoundsText(open)).toBe('$5.00 to $50.00');
    expect(qrBoundsText({ minAmountCents: 500, maxAmountCents: null })).toBe('at least $5.00');
    expect(qrBoundsText({ minAmountCents: null, maxAmountCents: 5_000 })).toBe('up to $50.00');
    expect(qrBoundsText({ minAmountCents: null, maxAmountCents: null })).toBeNull();
  });

  it('a fixed code needs an amount and no bounds; an open one no amount and ordered bounds', () => {
    const fields = (input: unknown) => (QrCodeInput.safeParse(input).error?.issues ?? []).map((i) => i.path.join('.'));
    expect(fields({ label: 'A', amountMode: 'fixed' })).toEqual(['amountCents']);
    expect(fields({ label: 'A', amountMode: 'fixed', amountCents: 100, minAmountCents: 50 })).toEqual(['minAmountCents']);
    expect(fields({ label: 'A', amountMode: 'open', amountCents: 100 })).toEqual(['amountCents']);
    expect(fields({ label: 'A', amountMode: 'open', minAmountCents: 900, maxAmountCents: 100 })).toEqual(['maxAmountCents']);
    expect(fields({ label: ' ', amountMode: 'open' })).toEqual(['label']);
    expect(fields({ label: 'A', amountMode: 'open' })).toEqual([]);
  });

  it('offers Delete only while no payment came through, and Enable or Disable by status', () => {
    expect(qrCodeActions('active', 0)).toEqual(['Edit', 'Disable', 'Delete', 'View/Download', 'Transactions']);
    expect(qrCodeActions('Disabled', 3)).toEqual(['Edit', 'Enable', 'View/Download', 'Transactions']);
  });
});
