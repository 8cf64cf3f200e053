import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDict, PDFDocument, PDFName } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { formatMoney, invoiceFigures, toMilli, type Invoice, type InvoiceDiscount, type InvoiceLineInput } from '@tay/contract';
import { renderInvoicePdf, type InvoicePdfInput } from './render-invoice-pdf';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

const dir = mkdtempSync(join(tmpdir(), 'tay-invoice-pdf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
/** The PDF's text as poppler lays it out, one string per page. */
function pagesText(bytes: Uint8Array): string[] {
  const file = join(dir, `invoice-${(files += 1)}.pdf`);
  writeFileSync(file, bytes);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).split('\f').slice(0, -1);
}

/** Every word's box on each page (poppler's), to check that no two words are drawn over each other. */
function wordBoxes(bytes: Uint8Array): { word: string; x0: number; y0: number; x1: number; y1: number }[][] {
  const file = join(dir, `invoice-${(files += 1)}.pdf`);
  writeFileSync(file, bytes);
  const html = execFileSync('pdftotext', ['-bbox', file, '-'], { encoding: 'utf8' });
  return html
    .split('<page ')
    .slice(1)
    .map((page) =>
      Array.from(page.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g), (m) => ({
        word: m[5]!,
        x0: Number(m[1]),
        y0: Number(m[2]),
        x1: Number(m[3]),
        y1: Number(m[4]),
      })),
    );
}

/** An invoice whose figures are worked out the contract's way, as the API stores them. */
function invoiceOf(items: InvoiceLineInput[], discount: InvoiceDiscount = { type: 'none' }, overrides: Partial<Invoice> = {}): Invoice {
  const figures = invoiceFigures(
    items.map((item) => ({ quantityMilli: toMilli(item.quantity)!, unitPriceCents: item.unitPriceCents, taxRateMilli: toMilli(item.taxRate ?? 0)! })),
    discount.type === 'percent' ? { type: 'percent', percentMilli: toMilli(discount.percent)! } : discount,
  );
  const amountPaidCents = overrides.amountPaidCents ?? 0;
  return {
    invoiceId: 'inv_1',
    number: 'INV-0001',
    invoiceState: 'Sent',
    overdue: false,
    payerId: 'pay_1',
    payerName: 'Ada Lovelace',
    payerEmail: 'ada@example.com',
    channel: 'email',
    issueDate: '2025-03-01',
    terms: 'net30',
    dueDate: '2025-03-31',
    items: items.map((item, index) => ({
      description: item.description,
      quantity: item.quantity,
      unitPriceCents: item.unitPriceCents,
      taxRate: item.taxRate ?? 0,
      ...figures.lines[index]!,
    })),
    discount,
    subtotalCents: figures.subtotalCents,
    discountCents: figures.discountCents,
    taxCents: figures.taxCents,
    totalCents: figures.totalCents,
    amountPaidCents,
    balanceCents: figures.totalCents - amountPaidCents,
    memo: '',
    footer: '',
    allowPartial: false,
    transactionId: null,
    sendAt: null,
    sentAt: null,
    paidAt: null,
    createdAt: '2025-03-01T10:00:00.000Z',
    updatedAt: '2025-03-01T10:00:00.000Z',
    actions: [],
    ...overrides,
  };
}

function inputOf(invoice: Invoice, business: Partial<InvoicePdfInput['business']> = {}, payLink: string | null = null): InvoicePdfInput {
  return {
    business: {
      name: 'Acme & Sons, Ltd.',
      email: 'billing@acme.test',
      phone: '+1 (555) 010-0199',
      address: ['1 Main St, Suite 200', 'Springfield, IL 62701'],
      logo: null,
      ...business,
    },
    invoice,
    payLink,
  };
}

/**
 * Words in order, whatever lies between them (a wrapped description shares its first line with the
 * other columns), and a word too long for a line broken anywhere.
 */
const inOrder = (text: string) =>
  new RegExp(
    text
      .split(/\s+/)
      .map((word) => Array.from(word, (ch) => ch.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('\\s*'))
      .join('[\\s\\S]*?'),
  );

describe('renderInvoicePdf', () => {
  const awkward = invoiceOf(
    [
      { description: 'Consulting (on-site) & "travel"', quantity: 1.5, unitPriceCents: 12_000, taxRate: 8.875 },
      { description: 'Widgets', quantity: 0.333, unitPriceCents: 199, taxRate: 0 },
      { description: 'Crème brûlée for the café team', quantity: 1_000_000, unitPriceCents: 1, taxRate: 10 },
      {
        description:
          'A description long enough to wrap over several lines of the table, with a reference that has no spaces at all: ' +
          'https://example.com/orders/0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz',
        quantity: 3,
        unitPriceCents: 123_456_789,
        taxRate: 7.25,
      },
    ],
    { type: 'percent', percent: 10 },
    {
      amountPaidCents: 5_000,
      invoiceState: 'PartiallyPaid',
      memo: 'Thanks for the order.\n\nPlease quote INV-0001 with your payment.',
      footer: 'Acme & Sons, Ltd. is registered in Illinois.',
    },
  );

  it('prints the header, the bill-to details, every item and the totals as selectable text', async () => {
    const bytes = await renderInvoicePdf(inputOf(awkward, {}, 'https://pay.example.com/p/abc123'), new Date('2025-03-01T12:00:00Z'));
    const pages = pagesText(bytes);
    const text = pages.join('\n');

    expect(pages).toHaveLength(1);
    for (const value of ['Invoice', 'INV-0001', 'Acme & Sons, Ltd.', 'Springfield, IL 62701', 'billing@acme.test', '+1 (555) 010-0199'])
      expect(text).toContain(value);
    for (const value of ['Bill to', 'Ada Lovelace', 'ada@example.com', 'Mar 01, 2025', 'Mar 31, 2025', 'Net 30', 'Partially Paid'])
      expect(text).toContain(value);
    for (const header of ['Description', 'Qty', 'Unit price', 'Tax %', 'Amount']) expect(text).toContain(header);
    for (const item of awkward.items) expect(text).toMatch(inOrder(item.description));
    // Quantities as entered (up to 3 decimals), tax rates and line amounts.
    expect(text).toMatch(/Consulting \(on-site\) & "travel"\s+1\.5\s+\$120\.00\s+8\.875%\s+\$180\.00/);
    expect(text).toMatch(/Widgets\s+0\.333\s+\$1\.99\s+0%\s+\$0\.66/);
    expect(text).toMatch(/Crème brûlée for the café team\s+1000000\s+\$0\.01\s+10%\s+\$10,000\.00/);
    expect(text).toContain(formatMoney(awkward.items[3]!.amountCents));

    expect(text).toMatch(new RegExp(`Subtotal\\s+\\${formatMoney(awkward.subtotalCents)}`));
    expect(text).toMatch(new RegExp(`Discount \\(10%\\)\\s+-\\${formatMoney(awkward.discountCents)}`));
    expect(text).toMatch(new RegExp(`Tax\\s+\\${formatMoney(awkward.taxCents)}`));
    expect(text).toMatch(new RegExp(`Total\\s+\\${formatMoney(awkward.totalCents)}`));
    expect(text).toMatch(/Amount paid\s+\$50\.00/);
    expect(text).toMatch(new RegExp(`Balance due\\s+\\${formatMoney(awkward.balanceCents)}`));

    expect(text).toContain('Pay online: https://pay.example.com/p/abc123');
    expect(text).toContain('Please quote INV-0001 with your payment.');
    expect(text).toContain('Acme & Sons, Ltd. is registered in Illinois.');
    expect(text).toContain('Page 1 of 1');

    const doc = await PDFDocument.load(bytes);
    expect(doc.getTitle()).toBe('Invoice INV-0001');
    expect(doc.getAuthor()).toBe('Acme & Sons, Ltd.');
  });

  it('leaves out the discount when there is none, and the status of an invoice simply out for payment', async () => {
    const plain = invoiceOf([{ description: 'Widgets', quantity: 2, unitPriceCents: 500, taxRate: 0 }]);
    const text = pagesText(await renderInvoicePdf(inputOf(plain))).join('\n');
    expect(text).not.toContain('Discount');
    expect(text).not.toContain('Status');
    expect(text).not.toContain('Pay online');
    expect(text).toMatch(/Balance due\s+\$10\.00/);
  });

  it('shows an amount discount without a percentage', async () => {
    const discounted = invoiceOf(
      [{ description: 'Widgets', quantity: 2, unitPriceCents: 500, taxRate: 0 }],
      { type: 'amount', amountCents: 250 },
      { invoiceState: 'Paid' },
    );
    const text = pagesText(await renderInvoicePdf(inputOf(discounted))).join('\n');
    expect(text).toMatch(/Discount\s+-\$2\.50/);
    expect(text).toMatch(/Status\s+Paid/);
  });

  it('runs a long invoice over several pages, repeating the header and the table header, with no text drawn over other text', async () => {
    const items = Array.from({ length: 120 }, (_, index) => ({
      description:
        index % 7 === 0
          ? `Line item ${index + 1}: a longer description that has to wrap onto a second and maybe a third line of the table`
          : `Line item ${index + 1}`,
      quantity: (index % 5) + 0.25,
      unitPriceCents: 1_000 + index,
      taxRate: 5,
    }));
    const long = invoiceOf(items, { type: 'none' }, { number: 'INV-0042', memo: 'Memo line. '.repeat(200), footer: 'Footer text.' });
    const bytes = await renderInvoicePdf(inputOf(long, { logo: { bytes: PNG, contentType: 'image/png' } }, 'https://pay.example.com/p/xyz'));

    const count = (await PDFDocument.load(bytes)).getPageCount();
    expect(count).toBeGreaterThanOrEqual(3);
    const pages = pagesText(bytes);
    expect(pages).toHaveLength(count);
    expect(pages[0]).toContain('INV-0042');
    expect(pages[0]).not.toContain('(continued)');
    pages.slice(1).forEach((page, index) => {
      expect(page).toContain('INV-0042 (continued)');
      expect(page).toContain('Acme & Sons, Ltd.');
      expect(page).toContain(`Page ${index + 2} of ${count}`);
    });
    expect(pages[1]).toMatch(/Description\s+Qty\s+Unit price\s+Tax %\s+Amount/);

    // Every item exactly once, in order, the last one included.
    const text = pages.join('\n');
    const seen = Array.from(text.matchAll(/Line item (\d+)\b/g), (m) => Number(m[1]));
    expect(seen).toEqual(items.map((_, index) => index + 1));
    expect(text).toMatch(new RegExp(`Balance due\\s+\\${formatMoney(long.balanceCents)}`));
    expect(pages.at(-1)).toContain('Footer text.');

    const boxes = wordBoxes(bytes);
    expect(boxes.map((words) => words.length > 50)).toEqual(pages.map(() => true));
    const overlaps: string[] = [];
    for (const [index, words] of boxes.entries()) {
      for (let i = 0; i < words.length; i += 1) {
        for (let j = i + 1; j < words.length; j += 1) {
          const a = words[i]!;
          const b = words[j]!;
          if (Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0) > 0.5 && Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0) > 2)
            overlaps.push(`page ${index + 1}: "${a.word}" over "${b.word}"`);
        }
      }
    }
    expect(overlaps).toEqual([]);
  });

  it('prints characters the standard fonts do not have as "?" instead of failing', async () => {
    const odd = invoiceOf(
      [{ description: 'Zoë 😀 Ωmega\tline\u0001', quantity: 1, unitPriceCents: 100, taxRate: 0 }],
      { type: 'none' },
      { payerName: 'Zoë 😀 Ωmega', memo: '日本語のメモ' },
    );
    const bytes = await renderInvoicePdf(inputOf(odd, { name: 'Zoë 😀 Ωmega GmbH', address: ['Straße 1 ✓'] }, 'https://pay.example.com/p/ünïcode'));
    const text = pagesText(bytes).join('\n');
    expect(text).toContain('Zoë ? ?mega line?');
    expect(text).toContain('Zoë ? ?mega GmbH');
    expect(text).toContain('Straße 1 ?');
    expect(text).toContain('??????');
    expect((await PDFDocument.load(bytes)).getAuthor()).toBe('Zoë 😀 Ωmega GmbH');
  });

  it('draws a PNG logo, and renders without one whose bytes cannot be read', async () => {
    const invoice = invoiceOf([{ description: 'Widgets', quantity: 1, unitPriceCents: 100, taxRate: 0 }]);
    const withLogo = await renderInvoicePdf(inputOf(invoice, { logo: { bytes: new Uint8Array(PNG), contentType: 'image/png' } }));
    const corruptPng = Buffer.concat([PNG.subarray(0, 16), Buffer.from('not the rest of a png')]);
    const logos = [
      { bytes: corruptPng, contentType: 'image/png' },
      { bytes: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00]), contentType: 'image/jpeg' },
      { bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), contentType: 'image/svg+xml' },
      { bytes: new Uint8Array(0), contentType: 'image/png' },
    ];
    const without = await Promise.all(logos.map((logo) => renderInvoicePdf(inputOf(invoice, { logo }))));

    /** Images drawn on the first page (a PNG's transparency is a second image inside the first). */
    const images = async (bytes: Uint8Array) => {
      const resources = (await PDFDocument.load(bytes)).getPage(0).node.Resources();
      return resources?.lookupMaybe(PDFName.of('XObject'), PDFDict)?.keys().length ?? 0;
    };
    expect(await images(withLogo)).toBe(1);
    for (const bytes of without) {
      expect(await images(bytes)).toBe(0);
      expect(pagesText(bytes).join('\n')).toContain('INV-0001');
    }
  });
});
