import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { qrCode } from '../../../test/fixtures';
import { BUSINESS_ID, FakeApi, ok, renderAt } from '../../../test/page-harness';
import { QrCodeDownloadPage } from './qr-code-download-page';

// Whole pages with typing and debounced previews: slower than a unit test on a busy machine.
const API = `/api/businesses/${BUSINESS_ID}/qr-codes`;
const PAGE = '/business/payment/qrcode/download';

const code = qrCode({ label: 'Front counter', payUrl: 'https://tay.example/pay/qr/tok_front' });
const IMAGE = `${API}/${code.qrId}/image`;

const TYPES = { png: 'image/png', svg: 'image/svg+xml', pdf: 'application/pdf' } as const;

let fake: FakeApi;
let urls = 0;
beforeEach(() => {
  fake = new FakeApi();
  fake.install();
  urls = 0;
  URL.createObjectURL = vi.fn(() => `blob:preview-${++urls}`);
  URL.revokeObjectURL = vi.fn();
  fake.on('GET', `${API}/${code.qrId}`, ok(code));
  fake.on('GET', IMAGE, (call) => {
    const format = (call.url.searchParams.get('format') ?? 'png') as keyof typeof TYPES;
    const disposition = call.url.searchParams.get('disposition') ?? 'attachment';
    return {
      text: `${format} image`,
      headers: { 'content-type': TYPES[format], 'content-disposition': `${disposition}; filename="front-counter.${format}"` },
    };
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const open = (path = `${PAGE}?qrcodeid=${code.qrId}`) =>
  renderAt(path, {
    [PAGE]: <QrCodeDownloadPage />,
    '/business/payment/qrcode/manage': <p>QR code form</p>,
    '/business/payment/qrcode/transactions': <p>QR code payments</p>,
  });
/** The image endpoint's queries, oldest first: `inline` ones are previews, `attachment` ones downloads. */
const imageQueries = (disposition: 'inline' | 'attachment') =>
  fake
    .callsTo('GET', IMAGE)
    .map((c) => Object.fromEntries(c.url.searchParams))
    .filter((q) => q.disposition === disposition);

describe('a QR code’s downloads', () => {
  it('previews the PNG, the SVG and the PDF poster, each read with the session', async () => {
    open();
    expect(await screen.findByRole('heading', { name: 'Front counter' })).toBeInTheDocument();
    const png = await screen.findByRole('img', { name: 'The QR code of Front counter as a PNG image' });
    const svg = await screen.findByRole('img', { name: 'The QR code of Front counter as an SVG image' });
    const pdf = await screen.findByTitle('The PDF poster of Front counter');
    for (const preview of [png, svg, pdf]) expect(preview.getAttribute('src')).toMatch(/^blob:preview-\d+$/);
    expect(imageQueries('inline')).toEqual(
      expect.arrayContaining([
        { format: 'png', size: '1024', disposition: 'inline' },
        { format: 'svg', disposition: 'inline' },
        { format: 'pdf', disposition: 'inline' },
      ]),
    );
    expect(imageQueries('inline')).toHaveLength(3);
    expect(fake.callsTo('GET', IMAGE).every((c) => c.headers.Authorization === 'Bearer test-token')).toBe(true);
  });

  it('the size chooser asks for the PNG at the size chosen, for its preview and its download, within 256 to 2048 pixels', async () => {
    const u = userEvent.setup();
    open();
    const size = await screen.findByRole('textbox', { name: 'Size (pixels)' });
    expect(size).toHaveValue('1024');
    await screen.findByRole('img', { name: 'The QR code of Front counter as a PNG image' });

    await u.clear(size);
    await u.type(size, '512');
    await waitFor(() => expect(imageQueries('inline')).toContainEqual({ format: 'png', size: '512', disposition: 'inline' }));
    // Nothing is asked for at the sizes passed through while typing.
    expect(
      imageQueries('inline')
        .filter((q) => q.format === 'png')
        .map((q) => q.size),
    ).toEqual(['1024', '512']);

    await u.click(screen.getByRole('button', { name: 'Download PNG (512 px)' }));
    await waitFor(() => expect(imageQueries('attachment')).toHaveLength(1));
    expect(imageQueries('attachment')[0]).toEqual({ format: 'png', size: '512', disposition: 'attachment' });

    // Too large a size is brought into range when the field is left.
    await u.clear(size);
    await u.type(size, '5000');
    await u.tab();
    expect(size).toHaveValue('2048');
    await u.click(screen.getByRole('button', { name: 'Download PNG (2048 px)' }));
    await waitFor(() => expect(imageQueries('attachment')).toHaveLength(2));
    expect(imageQueries('attachment')[1]).toEqual({ format: 'png', size: '2048', disposition: 'attachment' });
  });

  it('downloads the SVG and the PDF poster, which have no size', async () => {
    const u = userEvent.setup();
    open();
    await u.click(await screen.findByRole('button', { name: 'Download SVG' }));
    await waitFor(() => expect(imageQueries('attachment')).toHaveLength(1));
    await u.click(screen.getByRole('button', { name: 'Download PDF poster' }));
    await waitFor(() => expect(imageQueries('attachment')).toHaveLength(2));
    expect(imageQueries('attachment')).toEqual([
      { format: 'svg', disposition: 'attachment' },
      { format: 'pdf', disposition: 'attachment' },
    ]);
  });

  it('shows the pay link the code opens, with a button to copy it', async () => {
    // user-event stands in for the clipboard.
    const u = userEvent.setup();
    open();
    expect(await screen.findByRole('textbox', { name: 'Pay link' })).toHaveValue('https://tay.example/pay/qr/tok_front');
    await u.click(screen.getByRole('button', { name: 'Copy link' }));
    expect(await screen.findByRole('button', { name: 'Copied' })).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe('https://tay.example/pay/qr/tok_front');
  });

  it('a disabled code says payers are told it takes no payments, and offers Enable', async () => {
    const off = qrCode({ label: 'Spare', status: 'Disabled' });
    fake.on('GET', `${API}/${off.qrId}`, ok(off));
    open(`${PAGE}?qrcodeid=${off.qrId}`);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This code is disabled');
    expect(within(alert).getByText(/Payers who scan it are told it takes no payments\. Enable it to take payments again\./)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Enable' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Edit' })).toHaveAttribute('href', `/business/payment/qrcode/manage?qrcodeid=${off.qrId}`);
  });
});
