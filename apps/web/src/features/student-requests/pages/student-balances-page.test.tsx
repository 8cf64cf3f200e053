import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { StudentBalances } from '@tay/contract';
import { BUSINESS_ID, fakeApiPerTest, ok, renderAt, shownLocation } from '../../../test/page-harness';
import { StudentBalancesPage } from './student-balances-page';

const BALANCES = `/api/businesses/${BUSINESS_ID}/students/balances`;

const data = (over: Partial<StudentBalances> = {}): StudentBalances => ({
  from: '2026-12',
  to: '2026-12',
  label: 'December 2026',
  items: [
    {
      studentId: 'stu_mia',
      studentNumber: 'S-1',
      name: 'Mia Lopez',
      grade: 'Year 5',
      status: 'active',
      requests: 2,
      billedCents: 15_500,
      paidCents: 4_000,
      refundedCents: 1_500,
      outstandingCents: 11_500,
    },
  ],
  page: 1,
  pageSize: 25,
  total: 1,
  totals: { billedCents: 15_500, paidCents: 4_000, refundedCents: 1_500, outstandingCents: 11_500 },
  ...over,
});

const fake = fakeApiPerTest();
beforeEach(() => {
  fake.on('GET', BALANCES, ok(data()));
  fake.on('GET', `/api/businesses/${BUSINESS_ID}/students`, ok({ items: [], page: 1, pageSize: 1, total: 0, grades: ['Year 5', 'Year 6'] }));
});

const open = (path = '/business/billing/students') =>
  renderAt(path, { '/business/billing/students': <StudentBalancesPage />, '/business/entity/billing/transactions': <p>Billing transactions</p> });

describe('Students’ balances', () => {
  it('shows each student’s billed, paid, refunded and outstanding, and the totals for the month', async () => {
    open();
    const table = await screen.findByRole('table', { name: 'Students’ balances' });
    const row = (await within(table).findByText('Mia Lopez')).closest('tr')!;
    for (const text of ['S-1', 'Year 5', '$155.00', '$40.00', '$15.00', '$115.00']) expect(within(row).getByText(text)).toBeInTheDocument();
    const totals = screen.getByLabelText('Totals');
    expect(within(totals).getByText('$115.00')).toBeInTheDocument();
    expect(within(within(totals).getByText('Refunded').parentElement!).getByText('$15.00')).toBeInTheDocument();
    expect(within(totals).getByText(/December 2026/)).toBeInTheDocument();
  });

  it('asks for another month and a grade', async () => {
    open();
    await screen.findByRole('table', { name: 'Students’ balances' });
    // A month picker sets the whole value at once.
    fireEvent.change(screen.getByLabelText('Month'), { target: { value: '2026-11' } });
    await waitFor(() => expect(fake.callsTo('GET', BALANCES).at(-1)!.url.searchParams.get('period')).toBe('2026-11'));
    await userEvent.click(screen.getByLabelText('Grade', { selector: 'input' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Year 6' }));
    await waitFor(() => expect(fake.callsTo('GET', BALANCES).at(-1)!.url.searchParams.get('grade')).toBe('Year 6'));
  });

  it('says so when no student matches, with a way back', async () => {
    fake.on('GET', BALANCES, ok(data({ items: [], total: 0, totals: { billedCents: 0, paidCents: 0, refundedCents: 0, outstandingCents: 0 } })));
    open('/business/billing/students?search=zzz');
    expect(await screen.findByText('No students match these filters')).toBeInTheDocument();
    await userEvent.click(screen.getAllByRole('button', { name: 'Clear filters' }).at(-1)!);
    await waitFor(() => expect(shownLocation()).toBe('/business/billing/students'));
  });
});
