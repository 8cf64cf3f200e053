import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { monthOfLabel } from '../../features/student-requests/pages/billing-transactions-page';
import { request } from '../../test/fixtures';
import { BUSINESS_ID, fakeApiPerTest, ok, renderAt } from '../../test/page-harness';
import { BillingTransactionsRoute } from './billing-transactions-route';

const LIST = `/api/businesses/${BUSINESS_ID}/payment-requests`;

const fake = fakeApiPerTest();
beforeEach(() => {
  fake.on('GET', `/api/businesses/${BUSINESS_ID}/programs`, ok({ items: [{ programId: 'prg_piano', name: 'Piano' }], page: 1, pageSize: 100, total: 1 }));
  fake.on('GET', `/api/businesses/${BUSINESS_ID}/students`, ok({ items: [], page: 1, pageSize: 20, total: 0, grades: [] }));
  fake.on(
    'GET',
    LIST,
    ok({
      items: [
        request({
          payerName: 'Ana Lopez',
          student: { studentId: 'stu_mia', name: 'Mia Lopez' },
          program: { programId: 'prg_piano', name: 'Piano' },
          period: 'December 2026',
        }),
        request({ payerName: 'Pat Payer' }),
      ],
      page: 1,
      pageSize: 25,
      total: 2,
    }),
  );
});

const open = (path: string) => renderAt(path, { '/business/entity/billing/transactions': <BillingTransactionsRoute /> });

describe('Billing transactions', () => {
  it('lists each request with its student, program and period ("—" for none)', async () => {
    open('/business/entity/billing/transactions');
    const table = await screen.findByRole('table', { name: 'Billing transactions' });
    for (const header of ['Student', 'Program', 'Period']) expect(within(table).getByRole('columnheader', { name: header })).toBeInTheDocument();
    const mia = (await within(table).findByText('Mia Lopez')).closest('tr')!;
    expect(within(mia).getByText('Piano')).toBeInTheDocument();
    expect(within(mia).getByText('December 2026')).toBeInTheDocument();
    const plain = within(table).getByText('Pat Payer').closest('tr')!;
    expect(within(plain).getAllByText('—').length).toBeGreaterThanOrEqual(3);
  });

  it('?studentId= and ?programId= filter the history, and a month filters the period', async () => {
    open('/business/entity/billing/transactions?studentId=stu_mia&studentName=Mia%20Lopez&programId=prg_piano');
    await screen.findByRole('table', { name: 'Billing transactions' });
    await waitFor(() => {
      const last = fake.callsTo('GET', LIST).at(-1)!;
      expect(last.url.searchParams.get('studentId')).toBe('stu_mia');
      expect(last.url.searchParams.get('programId')).toBe('prg_piano');
    });
    expect(screen.getByLabelText('Student', { selector: 'input' })).toHaveValue('Mia Lopez');
    await userEvent.type(screen.getByLabelText('Period'), '2026-12');
    await waitFor(() => expect(fake.callsTo('GET', LIST).at(-1)!.url.searchParams.get('period')).toBe('December 2026'));
    // Clear filters drops them all.
    await userEvent.click(screen.getAllByRole('button', { name: 'Clear filters' })[0]!);
    await waitFor(() => {
      const last = fake.callsTo('GET', LIST).at(-1)!;
      expect(last.url.searchParams.get('studentId')).toBeNull();
      expect(last.url.searchParams.get('period')).toBeNull();
    });
  });

  it('reads a month label back for the month input', () => {
    expect(monthOfLabel('December 2026')).toBe('2026-12');
    expect(monthOfLabel('Term 1 2026–27')).toBeNull();
  });
});
