import { describe, expect, it } from 'vitest';
import { payHeadline, payRefundLine, payStatusTitle } from './words';

const base = { amountCents: 12_500, amountPaidCents: 0, remainingCents: 12_500, payments: [] };

describe('the pay page headline', () => {
  it('is what is left to pay while the page takes money, with what was already paid under it', () => {
    expect(payHeadline({ ...base, status: 'payable' })).toEqual({ title: '$125.00', caption: null });
    expect(payHeadline({ ...base, status: 'payable', amountPaidCents: 5_000, remainingCents: 7_500 })).toEqual({
      title: '$75.00',
      caption: '$50.00 of $125.00 already paid',
    });
  });

  it('is what was paid once the page takes no more, with what was not', () => {
    expect(payHeadline({ ...base, status: 'paid', amountPaidCents: 12_500, remainingCents: 0 })).toEqual({ title: '$125.00 paid', caption: null });
    expect(payHeadline({ ...base, status: 'expired', amountPaidCents: 5_000, remainingCents: 7_500 })).toEqual({
      title: '$50.00 paid',
      caption: 'of $125.00; $75.00 not paid',
    });
    const bank = {
      paymentId: 'pay_2',
      instrument: 'Bank •••• 6789',
      amountCents: 7_500,
      state: 'Pending' as const,
      failureReason: null,
      createdAt: '2026-05-01T10:00:00.000Z',
      refundedCents: 0,
    };
    expect(payHeadline({ ...base, status: 'processing', amountPaidCents: 5_000, remainingCents: 7_500, payments: [bank] })).toEqual({
      title: '$50.00 paid',
      caption: 'of $125.00; $75.00 more on its way',
    });
  });

  it('is the amount asked for when nothing was paid (expired, withdrawn, declined)', () => {
    expect(payHeadline({ ...base, status: 'withdrawn' })).toEqual({ title: '$125.00', caption: null });
  });
});

describe('what the pay page says of a refund', () => {
  const paid = { businessName: 'Acme Tutoring', status: 'paid' as const, amountPaidCents: 12_500 };

  it('says nothing when nothing was refunded', () => {
    expect(payRefundLine({ ...paid, refundedCents: 0 })).toBeNull();
    expect(payStatusTitle({ ...paid, refundedCents: 0 })).toBe('Paid in full');
  });

  it('names the part given back, and the page stays Paid in full', () => {
    expect(payRefundLine({ ...paid, refundedCents: 2_000 })).toBe('Acme Tutoring refunded $20.00 of the $125.00 you paid.');
    expect(payStatusTitle({ ...paid, refundedCents: 2_000 })).toBe('Paid in full');
  });

  it('says Refunded once everything paid was given back', () => {
    expect(payRefundLine({ ...paid, refundedCents: 12_500 })).toBe('Refunded in full: Acme Tutoring returned the $125.00 you paid.');
    expect(payStatusTitle({ ...paid, refundedCents: 12_500 })).toBe('Refunded');
    expect(payStatusTitle({ ...paid, status: 'expired', refundedCents: 0 })).toBe('This request has expired');
  });
});
