import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { payer } from '../../../test/fixtures';
import { BUSINESS_ID, fakeApiPerTest, ok, renderAt, shownLocation } from '../../../test/page-harness';
import { PayersPage } from './payers-page';

const LIST = `/api/businesses/${BUSINESS_ID}/payers`;
const PAYERS = '/business/payment/payers';

const fake = fakeApiPerTest();

describe('the payers list', () => {
  it('labels its filters where they can be read, as the history does', async () => {
    fake.on('GET', LIST, ok({ items: [payer('Fran First')], page: 1, pageSize: 25, total: 1 }));
    renderAt(PAYERS, { [PAYERS]: <PayersPage /> });
    const filters = await screen.findByRole('group', { name: 'Filters' });
    expect(within(filters).getByText('Status', { selector: 'label' })).toBeVisible();
    expect(within(filters).getByText('Verification', { selector: 'label' })).toBeVisible();
  });

  it('deleting the last payer on the last page moves to the page before, instead of "No payers yet"', async () => {
    const first = Array.from({ length: 25 }, () => payer('Fran First'));
    const last = payer('Lou Last');
    let deleted = false;
    fake.on('GET', LIST, (call) => {
      const total = deleted ? 25 : 26;
      if (call.url.searchParams.get('page') === '2') return ok({ items: deleted ? [] : [last], page: 2, pageSize: 25, total });
      return ok({ items: first, page: 1, pageSize: 25, total });
    });
    fake.on('DELETE', `${LIST}/${last.payerId}`, () => {
      deleted = true;
      return ok({ payerId: last.payerId });
    });
    const u = userEvent.setup();
    renderAt(`${PAYERS}?page=2`, { [PAYERS]: <PayersPage /> });
    const row = (await screen.findByText('Lou Last')).closest('tr')!;
    expect(screen.getByText('Showing 26 to 26 of 26 Results')).toBeInTheDocument();
    await u.click(within(row).getByRole('button', { name: 'Row actions' }));
    await u.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    await u.click(await screen.findByRole('button', { name: 'Delete payer' }));

    expect(await screen.findAllByText('Fran First')).toHaveLength(25);
    expect(screen.getByText('Showing 1 to 25 of 25 Results')).toBeInTheDocument();
    expect(shownLocation()).toBe(`${PAYERS}?page=1`);
    expect(fake.callsTo('GET', LIST).at(-1)!.url.searchParams.get('page')).toBe('1');
    expect(screen.queryByText('No payers yet')).toBeNull();
  });
});

describe('who may change payers', () => {
  async function rowMenu(name: string) {
    const u = userEvent.setup();
    const row = (await screen.findByText(name)).closest('tr')!;
    await u.click(within(row).getByRole('button', { name: 'Row actions' }));
    return (await screen.findAllByRole('menuitem')).map((item) => item.textContent);
  }

  it('an owner of an Approved business gets every action docs/product.md §4 gives the payer', async () => {
    fake.on('GET', LIST, ok({ items: [payer('Pat Payer')], page: 1, pageSize: 25, total: 1 }));
    renderAt(PAYERS, { [PAYERS]: <PayersPage /> });
    expect(await rowMenu('Pat Payer')).toEqual(['Edit', 'Request to Pay', 'Transactions', 'Deactivate', 'Re-verify', 'Delete']);
    expect(screen.getByRole('button', { name: 'Add a payer' })).toBeEnabled();
  });

  it('a viewer sees the payers and their Transactions, and is told their role is view only', async () => {
    fake.on('GET', LIST, ok({ items: [payer('Pat Payer')], page: 1, pageSize: 25, total: 1 }));
    renderAt(PAYERS, { [PAYERS]: <PayersPage /> }, { business: { role: 'viewer' } });
    expect(await rowMenu('Pat Payer')).toEqual(['Transactions']);
    expect(screen.getByText('Your role in this business is view only: you can read and export payers, not add or change them.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add a payer' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Import payers' })).toBeDisabled();
  });
});
