import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { PaymentReceipt } from '@tay/contract';
import { fakeApiPerTest, ok, renderAt } from '../../../test/page-harness';
import { wrapsAnywhere } from '../../../test/text-wrap';
import { ReceiptPage } from './receipt-page';

const receipt: PaymentReceipt = {
  paymentId: 'pay_01jdq7x3m9v2k8c4r6t0w5y1zh',
  businessName: 'Harbor Music and Arts Academy of the Greater Bay Area',
  referenceNumber: 'TRX-10001',
  method: 'card',
  methodLabel: 'Visa •••• 4242',
  amountCents: 12_500,
  paymentState: 'Processed',
  paidAt: '2026-05-01T10:00:00.000Z',
  requestAmountCents: 12_500,
  remainingCents: 0,
};

const fake = fakeApiPerTest();

/**
 * The rules Mantine writes for an element's responsive style props (`w={{ base, sm }}`): jsdom
 * applies no media query, so the test reads what each width would get.
 */
function responsiveRules(element: HTMLElement): string {
  const name = [...element.classList].find((c) => c.startsWith('__m__-'));
  if (!name) return '';
  return [...document.querySelectorAll('style')]
    .map((s) => s.textContent ?? '')
    .filter((text) => text.includes(`.${name}{`))
    .join('\n');
}

describe('the payer’s receipt on a phone (390 px)', () => {
  it('gives its labels a narrower column below the small breakpoint, 180 px only from it, and breaks the receipt number', async () => {
    fake.on('GET', '/api/public/pay/tok_1/receipt/pay_1', ok(receipt));
    renderAt('/pay/tok_1/receipt/pay_1', { '/pay/:token/receipt/:paymentId': <ReceiptPage /> });
    const table = (await screen.findByText('Amount paid')).closest('table')!;
    expect(within(table).getByText('Visa •••• 4242')).toBeInTheDocument();

    const label = within(table).getByText('Amount paid');
    // No fixed 180 px on every screen: 120 px (7.5rem) by default, 180 px (11.25rem) from 48em.
    expect(label.style.width).toBe('');
    const rules = responsiveRules(label);
    expect(rules).toMatch(/^\.__m__-[^{]+\{width:calc\(7\.5rem \* var\(--mantine-scale\)\);\}/);
    expect(rules).toContain('@media(min-width: 48em){');
    expect(rules).toMatch(/@media\(min-width: 48em\)\{\.__m__-[^{]+\{width:calc\(11\.25rem/);

    // The 30-character receipt number, in a monospace font, breaks rather than widening the page.
    const id = within(table).getByText(receipt.paymentId);
    expect(id).toHaveStyle({ overflowWrap: 'anywhere' });
    // As does a long business name in the heading.
    expect(wrapsAnywhere(screen.getByText(`${receipt.businessName} · TRX-10001`))).toBe(true);
    expect(screen.getByRole('button', { name: 'Print or save as PDF' })).toBeInTheDocument();
  });
});
