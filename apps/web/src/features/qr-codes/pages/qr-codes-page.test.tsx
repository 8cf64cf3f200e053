import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { QrCode } from '@tay/contract';
import { qrCode } from '../../../test/fixtures';
import { BUSINESS_ID, fakeApiPerTest, ok, renderAt, shownLocation } from '../../../test/page-harness';
import { QrCodesPage } from './qr-codes-page';

// Whole pages with typing, menus and modals: slower than a unit test on a busy machine.
const API = `/api/businesses/${BUSINESS_ID}/qr-codes`;
const PAGE = '/business/payment/qrcode';

const fake = fakeApiPerTest();
beforeEach(() => {
  URL.createObjectURL = vi.fn(() => 'blob:csv');
  URL.revokeObjectURL = vi.fn();
});

const listOf = (items: QrCode[], total = items.length, page = 1, pageSize = 25) => ok({ items, page, pageSize, total });
const open = (path = PAGE, business?: { role: 'viewer' }) =>
  renderAt(
    path,
    {
      [PAGE]: <QrCodesPage />,
      '/business/payment/qrcode/manage': <p>QR code form</p>,
      '/business/payment/qrcode/download': <p>QR code downloads</p>,
      '/business/payment/qrcode/transactions': <p>QR code payments</p>,
    },
    business ? { business } : {},
  );
const lastListQuery = () => Object.fromEntries(fake.callsTo('GET', API).at(-1)!.url.searchParams);
const rowOf = (label: string) => screen.getByRole('link', { name: label }).closest('tr')!;

async function menuOf(label: string) {
  const u = userEvent.setup();
  await screen.findByRole('link', { name: label });
  await u.click(within(rowOf(label)).getByRole('button', { name: 'Row actions' }));
  return { u, items: (await screen.findAllByRole('menuitem')).map((item) => item.textContent) };
}

describe('the QR codes list', () => {
  it('shows each code’s amount, scans, payments, total collected and status, and "Showing 1 to N of M Results"', async () => {
    const counter = qrCode({ label: 'Front counter', scans: 1_204, payments: 37, collectedCents: 44_400 });
    const tips = qrCode({ label: 'Tip jar', amountMode: 'open', amountCents: null, minAmountCents: 100, maxAmountCents: 50_000 });
    const donations = qrCode({ label: 'Donations', amountMode: 'open', amountCents: null, status: 'Disabled' });
    const fair = qrCode({ label: 'Spring fair', displayStatus: 'Expired', expiresOn: '2026-04-30' });
    fake.on('GET', API, listOf([counter, tips, donations, fair], 30));
    open();
    expect(await screen.findByText('Showing 1 to 25 of 30 Results')).toBeInTheDocument();
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Label',
      'Amount',
      'Scans',
      'Payments',
      'Total collected',
      'Status',
      'Created',
      'Actions',
    ]);
    const cells = (label: string) =>
      within(rowOf(label))
        .getAllByRole('cell')
        .slice(0, 6)
        .map((c) => c.textContent);
    expect(cells('Front counter')).toEqual(['Front counter', '$12.00', '1,204', '37', '$444.00', 'Active']);
    expect(cells('Tip jar')).toEqual(['Tip jar', 'Payer enters, $1.00 to $500.00', '0', '0', '$0.00', 'Active']);
    expect(cells('Donations')).toEqual(['Donations', 'Payer enters', '0', '0', '$0.00', 'Disabled']);
    expect(cells('Spring fair')).toEqual(['Spring fairExpired after Apr 30, 2026', '$12.00', '0', '0', '$0.00', 'Expired']);
    expect(screen.getByRole('link', { name: 'Front counter' })).toHaveAttribute('href', `${PAGE}/download?qrcodeid=${counter.qrId}`);
    expect(lastListQuery()).toEqual({ page: '1', pageSize: '25', sortBy: 'createdAt', sortDirection: 'desc' });
  });

  it('asks the API for the search, status and sort chosen, and keeps them in the URL; Export CSV asks for the same without the paging', async () => {
    fake.on('GET', API, listOf([qrCode({ label: 'Front counter' })], 60));
    fake.on('GET', `${API}/export`, {
      text: 'Label\r\n',
      headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="qr-codes.csv"' },
    });
    const u = userEvent.setup();
    open();
    await screen.findByText('Showing 1 to 25 of 60 Results');

    await u.click(screen.getByRole('combobox', { name: 'Status' }));
    await u.click(await screen.findByRole('option', { name: 'Disabled' }));
    await u.type(screen.getByRole('textbox', { name: 'Search' }), 'front');
    await waitFor(() => expect(lastListQuery().search).toBe('front'));
    await u.click(screen.getByRole('button', { name: 'Sort by Total collected' }));
    await waitFor(() =>
      expect(lastListQuery()).toEqual({ page: '1', pageSize: '25', sortBy: 'collected', sortDirection: 'desc', search: 'front', status: 'Disabled' }),
    );
    expect(shownLocation()).toContain('status=Disabled');

    await u.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(fake.callsTo('GET', `${API}/export`)).toHaveLength(1));
    expect(Object.fromEntries(fake.callsTo('GET', `${API}/export`)[0]!.url.searchParams)).toEqual({
      sortBy: 'collected',
      sortDirection: 'desc',
      search: 'front',
      status: 'Disabled',
    });
  });

  it('offers each code the actions the API gives it: Delete only while it has taken no payment', async () => {
    fake.on('GET', API, listOf([qrCode({ label: 'Front counter', payments: 3 }), qrCode({ label: 'Spare', status: 'Disabled' })]));
    open();
    const used = await menuOf('Front counter');
    expect(used.items).toEqual(['Edit', 'Disable', 'View/Download', 'Transactions']);
    await used.u.keyboard('{Escape}');
    const spare = await menuOf('Spare');
    expect(spare.items).toEqual(['Edit', 'Enable', 'Delete', 'View/Download', 'Transactions']);
  });

  it('Delete asks first; confirmed, it deletes the code and says so', async () => {
    const spare = qrCode({ label: 'Spare' });
    fake.on('GET', API, listOf([spare]));
    fake.on('DELETE', `${API}/${spare.qrId}`, { status: 204 });
    open();
    const { u } = await menuOf('Spare');
    await u.click(screen.getByRole('menuitem', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete “Spare”?' });
    expect(within(dialog).getByText(/Printed copies stop working/)).toBeInTheDocument();
    expect(fake.callsTo('DELETE', `${API}/${spare.qrId}`)).toHaveLength(0);

    await u.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fake.callsTo('DELETE', `${API}/${spare.qrId}`)).toHaveLength(0);

    await u.click(within(rowOf('Spare')).getByRole('button', { name: 'Row actions' }));
    await u.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    await u.click(within(await screen.findByRole('dialog', { name: 'Delete “Spare”?' })).getByRole('button', { name: 'Yes, delete' }));
    await waitFor(() => expect(fake.callsTo('DELETE', `${API}/${spare.qrId}`)).toHaveLength(1));
    expect(await screen.findByText('QR code deleted')).toBeInTheDocument();
  });

  it('Disable and Enable happen at once and say so; a refusal says why', async () => {
    const counter = qrCode({ label: 'Front counter' });
    const spare = qrCode({ label: 'Spare', status: 'Disabled' });
    fake.on('GET', API, listOf([counter, spare]));
    fake.on('POST', `${API}/${counter.qrId}/disable`, ok(qrCode({ ...counter, status: 'Disabled' })));
    fake.on('POST', `${API}/${spare.qrId}/enable`, {
      status: 409,
      json: { status: 'Error', errorDetails: { code: 'CONFLICT', message: 'This code has expired: change its expiry date first.' } },
    });
    open();
    const first = await menuOf('Front counter');
    await first.u.click(screen.getByRole('menuitem', { name: 'Disable' }));
    expect(await screen.findByText('QR code disabled')).toBeInTheDocument();
    expect(fake.callsTo('POST', `${API}/${counter.qrId}/disable`)).toHaveLength(1);

    const second = await menuOf('Spare');
    await second.u.click(screen.getByRole('menuitem', { name: 'Enable' }));
    expect(await screen.findByText('“Spare” was not enabled')).toBeInTheDocument();
    expect(screen.getByText('This code has expired: change its expiry date first.')).toBeInTheDocument();
  });

  it.each([
    ['Edit', 'manage'],
    ['View/Download', 'download'],
    ['Transactions', 'transactions'],
  ])('%s opens the code’s %s page', async (action, page) => {
    const counter = qrCode({ label: 'Front counter', payments: 2 });
    fake.on('GET', API, listOf([counter]));
    open();
    const { u } = await menuOf('Front counter');
    await u.click(screen.getByRole('menuitem', { name: action }));
    await waitFor(() => expect(shownLocation()).toBe(`${PAGE}/${page}?qrcodeid=${counter.qrId}`));
  });

  it('a viewer sees the codes, may open and download them, and is told why nothing else', async () => {
    fake.on('GET', API, listOf([qrCode({ label: 'Front counter' })]));
    open(PAGE, { role: 'viewer' });
    expect((await menuOf('Front counter')).items).toEqual(['View/Download', 'Transactions']);
    expect(
      screen.getByText('Your role in this business is view only: you can read, download and export QR codes, not create or change them.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'New QR code' })).toBeDisabled();
  });

  it('says when there are none (with the way to a first one), and when none match', async () => {
    fake.on('GET', API, listOf([]));
    const u = userEvent.setup();
    open(`${PAGE}?status=Expired`);
    expect(await screen.findByText('No QR codes match')).toBeInTheDocument();
    await u.click(screen.getAllByRole('button', { name: 'Clear filters' })[0]!);
    expect(await screen.findByText('No QR codes yet')).toBeInTheDocument();
    const buttons = screen.getAllByRole('button', { name: 'New QR code' });
    expect(buttons).toHaveLength(2);
    await u.click(buttons[1]!);
    await waitFor(() => expect(shownLocation()).toBe(`${PAGE}/manage`));
  });

  it('a list that fails to load says so and offers to try again', async () => {
    fake.on('GET', API, { status: 500, json: { status: 'Error', errorDetails: { code: 'INTERNAL_ERROR', message: 'The database is away.' } } });
    open();
    expect(await screen.findByText('This list could not be loaded', undefined, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByText('The database is away.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
