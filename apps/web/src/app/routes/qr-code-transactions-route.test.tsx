import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { detail, listOf, qrCode, qrPayment } from '../../test/fixtures';
import { BUSINESS_ID, fakeApiPerTest, ok, renderAt, shownLocation } from '../../test/page-harness';
import { QrCodeTransactionsRoute } from './qr-code-transactions-route';

const LIST = `/api/businesses/${BUSINESS_ID}/payment-requests`;
const PAGE = '/business/payment/qrcode/transactions';

const fake = fakeApiPerTest();

const counter = qrCode({ qrId: 'qr_counter', label: 'Front counter', payments: 2, scans: 9 });
const open = (search = '') => renderAt(`${PAGE}${search}`, { [PAGE]: <QrCodeTransactionsRoute />, '/business/payment/qrcode': <p>QR codes</p> });
const lastListQuery = () => Object.fromEntries(fake.callsTo('GET', LIST).at(-1)!.url.searchParams);

describe('the payments through QR codes', () => {
  it('of one code: a heading naming it, a way back, and the history list of its payments with the code’s label', async () => {
    const walkIn = qrPayment();
    fake.on('GET', `/api/businesses/${BUSINESS_ID}/qr-codes/qr_counter`, ok(counter));
    fake.on('GET', LIST, listOf([walkIn]));
    open('?qrcodeid=qr_counter');
    expect(await screen.findByRole('heading', { name: 'Payments through “Front counter”' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'QR codes' })).toHaveAttribute('href', '/business/payment/qrcode');
    expect(screen.getByRole('link', { name: 'View/Download' })).toHaveAttribute('href', '/business/payment/qrcode/download?qrcodeid=qr_counter');
    expect(screen.getByText('$12.00 · 2 payments from 9 scans')).toBeInTheDocument();

    const row = (await screen.findByRole('link', { name: `View ${walkIn.referenceNumber}` })).closest('tr')!;
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Reference',
      'Payer',
      'QR code',
      'Amount',
      'Paid',
      'Status',
      'Date',
      'Actions',
    ]);
    expect(
      within(row)
        .getAllByRole('cell')
        .slice(1, 6)
        .map((c) => c.textContent),
    ).toEqual(['Walk-in payer', 'Front counter', '$12.00', '$12.00', 'Paid']);
    expect(lastListQuery()).toMatchObject({ view: 'history', qrId: 'qr_counter' });
  });

  it('of every code, when none is named: `qrId=any`, each payment with the code it came through', async () => {
    const a = qrPayment();
    const b = qrPayment({ qrCodeId: 'qr_tips', qrCodeLabel: 'Tip jar', payerName: 'Sam Scan', payerEmail: 'sam@payers.example' });
    fake.on('GET', LIST, listOf([a, b]));
    open();
    expect(await screen.findByRole('heading', { name: 'Payments through QR codes' })).toBeInTheDocument();
    await screen.findByText('Showing 1 to 2 of 2 Results');
    expect(lastListQuery()).toMatchObject({ view: 'history', qrId: 'any' });
    expect(screen.getByRole('link', { name: 'Paid through QR code Tip jar' })).toHaveAttribute('href', `${PAGE}?qrcodeid=qr_tips`);
    expect(screen.getByRole('link', { name: 'Paid through QR code Front counter' })).toHaveAttribute('href', `${PAGE}?qrcodeid=qr_counter`);
  });

  it('a payment’s row offers its receipt and a refund only, and its details open in place', async () => {
    const paid = qrPayment();
    fake.on('GET', LIST, listOf([paid]));
    fake.on('GET', `${LIST}/${paid.transactionId}`, ok(detail(paid)));
    const u = userEvent.setup();
    open();
    const row = (await screen.findByRole('link', { name: `View ${paid.referenceNumber}` })).closest('tr')!;
    await u.click(within(row).getByRole('button', { name: 'Row actions' }));
    expect((await screen.findAllByRole('menuitem')).map((m) => m.textContent)).toEqual(['View/Download receipt', 'Refund']);
    await u.keyboard('{Escape}');
    await u.click(within(row).getByRole('link', { name: `View ${paid.referenceNumber}` }));
    expect(await screen.findByRole('dialog', { name: `Request ${paid.referenceNumber}` })).toBeInTheDocument();
    await waitFor(() => expect(shownLocation()).toBe(`${PAGE}?transid=${paid.transactionId}`));
  });

  it('says when a code has taken no payment yet', async () => {
    fake.on('GET', `/api/businesses/${BUSINESS_ID}/qr-codes/qr_counter`, ok(counter));
    fake.on('GET', LIST, listOf([]));
    open('?qrcodeid=qr_counter');
    expect(await screen.findByText('No payments yet')).toBeInTheDocument();
    expect(await screen.findByText('Payments made by scanning “Front counter” show here with their status.')).toBeInTheDocument();
  });
});
