import { PDFDocument, PDFString, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { INVOICE_STATE_LABELS, INVOICE_TERMS_LABELS, formatDay, formatMoney, fromMilli, toMilli, type Invoice, type InvoiceState } from '@tay/contract';
import { embedLogo } from '../../lib/pdf-image';
import { fitText, printable, wrapText } from '../../lib/pdf-text';

const PAGE = { width: 612, height: 792 } as const; // US Letter, in points
const MARGIN = 56;
const CONTENT_WIDTH = PAGE.width - 2 * MARGIN;
/** Top edge of the page header (the logo's top); the content stops at MARGIN above the bottom. */
const HEADER_TOP = PAGE.height - 40;
/** Baseline of the page footer ("Page 2 of 3"), below the content. */
const FOOTER_Y = 32;
/** The box a logo is scaled into, keeping its proportions. */
const LOGO_BOX = { width: 120, height: 48 } as const;
/** Width of the business's block in the header; the title block takes the rest. */
const BUSINESS_WIDTH = 300;
const INK = rgb(0.11, 0.13, 0.17);
const MUTED = rgb(0.4, 0.43, 0.48);
const RULE = rgb(0.85, 0.87, 0.9);

/** Item table: 9 pt text, this far between the lines of one row, and this much more between rows. */
const TABLE_SIZE = 9;
const TABLE_LINE = 11;
const ROW_GAP = 5;

/** Item table columns: x offset from the margin and width, in points. */
const COLUMNS = [
  { header: 'Description', x: 0, width: 200 },
  { header: 'Qty', x: 206, width: 56, right: true },
  { header: 'Unit price', x: 268, width: 80, right: true },
  { header: 'Tax %', x: 354, width: 46, right: true },
  { header: 'Amount', x: 406, width: 94, right: true },
] as const;

/** Totals block: labels and figures, x offset from the margin. */
const TOTALS = { labelX: 280, labelWidth: 130, valueX: 410, valueWidth: CONTENT_WIDTH - 410 } as const;

/** States printed as "Status" on the first page; an invoice simply out for payment shows none. */
const STATUS_SHOWN: readonly InvoiceState[] = ['Draft', 'PartiallyPaid', 'Paid', 'Rejected', 'Expired', 'Withdrawn', 'Cancelled'];

export interface InvoicePdfInput {
  business: {
    name: string;
    email: string | null;
    phone: string | null;
    /** Postal address, one line each. */
    address: string[];
    /** PNG or JPEG; any other image (or one that cannot be read) is left out. */
    logo: { bytes: Uint8Array; contentType: string } | null;
  };
  invoice: Invoice;
  /** The payer's link; printed (and clickable) when given. */
  payLink: string | null;
}

/** 1.5 → "1.5", 2 → "2": up to 3 decimals, as the quantity was entered. */
function milliText(value: number): string {
  return fromMilli(toMilli(value) ?? Math.round(value * 1000));
}

/**
 * The invoice as a PDF (pdf-lib: pure JavaScript, nothing to install or download), US Letter: the
 * business's header on every page, the items over as many pages as they take (the table's header
 * repeated on each), then the totals, the pay link, the memo and the footer. Every figure is the
 * invoice's own (ADR 033), never worked out again here, so the PDF says what the API stored.
 * The standard fonts cover Western European text only (WinAnsi); any other character prints as
 * "?" rather than failing the whole invoice, and a logo that cannot be read is left out.
 */
export async function renderInvoicePdf(input: InvoicePdfInput, generatedAt = new Date()): Promise<Uint8Array> {
  const { business, invoice, payLink } = input;
  const doc = await PDFDocument.create();
  doc.setTitle(`Invoice ${invoice.number}`);
  doc.setAuthor(business.name);
  doc.setCreator('Tay');
  doc.setProducer('Tay');
  doc.setCreationDate(generatedAt);
  doc.setModificationDate(generatedAt);
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const logo = await embedLogo(doc, business.logo);

  let page: PDFPage = doc.addPage([PAGE.width, PAGE.height]);
  let y = PAGE.height - MARGIN;

  const text = (
    value: string,
    x: number,
    options: { font?: PDFFont; size?: number; color?: typeof INK; width?: number; right?: boolean; figure?: boolean } = {},
  ) => {
    const font = options.font ?? regular;
    let size = options.size ?? 10;
    let line = printable(font, value);
    if (options.width !== undefined && options.figure) {
      // A figure is never cut: a very large one is set smaller until it fits its cell.
      while (size > 5 && font.widthOfTextAtSize(line, size) > options.width) size -= 0.5;
    } else if (options.width !== undefined) {
      // A cell never spills into the next one: cut with an ellipsis.
      line = fitText(font, value, size, options.width);
    }
    const at = options.right && options.width !== undefined ? x + options.width - font.widthOfTextAtSize(line, size) : x;
    page.drawText(line, { x: MARGIN + at, y, size, font, color: options.color ?? INK });
  };
  const rule = (from = 0, thickness = 0.75) =>
    page.drawLine({ start: { x: MARGIN + from, y: y + 4 }, end: { x: PAGE.width - MARGIN, y: y + 4 }, thickness, color: RULE });

  /* ------------------------------------------------------------ page header, on every page */

  // Capped, so the header (repeated on every page) always leaves most of the page to the content.
  const nameLines = wrapText(bold, business.name, 12, BUSINESS_WIDTH).slice(0, 2);
  const addressLines = business.address
    .filter((line) => line.trim())
    .flatMap((line) => wrapText(regular, line, 9, BUSINESS_WIDTH))
    .slice(0, 6);
  const contact = [business.email, business.phone].filter((value): value is string => Boolean(value?.trim())).join(' \u00b7 ');
  const contactLines = contact ? wrapText(regular, contact, 9, BUSINESS_WIDTH).slice(0, 2) : [];
  const logoSize = logo ? logo.scaleToFit(LOGO_BOX.width, LOGO_BOX.height) : null;

  /** Draws the header of the page just added and leaves `y` at the first baseline of its content. */
  const pageHeader = (continued: boolean) => {
    // The title block, right-aligned.
    const titleX = BUSINESS_WIDTH + 10;
    const titleWidth = CONTENT_WIDTH - titleX;
    y = HEADER_TOP - 18;
    text('Invoice', titleX, { font: bold, size: 22, width: titleWidth, right: true });
    y -= 18;
    text(continued ? `${invoice.number} (continued)` : invoice.number, titleX, { font: bold, size: 11, width: titleWidth, right: true });
    const titleBottom = y;

    // The business: logo, name, address, e-mail and phone.
    y = HEADER_TOP;
    if (logo && logoSize) {
      page.drawImage(logo, { x: MARGIN, y: HEADER_TOP - logoSize.height, width: logoSize.width, height: logoSize.height });
      y -= logoSize.height + 8;
    }
    y -= 11;
    for (const line of nameLines) {
      text(line, 0, { font: bold, size: 12 });
      y -= 14;
    }
    for (const line of [...addressLines, ...contactLines]) {
      text(line, 0, { size: 9, color: MUTED });
      y -= 11;
    }
    y = Math.min(y + 11, titleBottom) - 12;
    rule();
    y -= 24;
  };
  const addPage = () => {
    page = doc.addPage([PAGE.width, PAGE.height]);
    pageHeader(true);
  };
  const newPageIfBelow = (needed: number) => {
    if (y - needed >= MARGIN) return false;
    addPage();
    return true;
  };

  pageHeader(false);

  /* ------------------------------------------------------------ bill to, dates, terms, status */

  const top = y;
  text('Bill to', 0, { font: bold, size: 9, color: MUTED });
  y -= 15;
  for (const line of wrapText(bold, invoice.payerName, 11, 260)) {
    text(line, 0, { font: bold, size: 11 });
    y -= 14;
  }
  for (const line of invoice.payerEmail ? wrapText(regular, invoice.payerEmail, 10, 260) : []) {
    text(line, 0);
    y -= 14;
  }
  const billToBottom = y;

  y = top;
  const detail = (label: string, value: string, strong = false) => {
    text(label, 300, { color: MUTED, width: 90 });
    text(value, 390, { font: strong ? bold : regular, width: CONTENT_WIDTH - 390, right: true });
    y -= 15;
  };
  detail('Issue date', formatDay(invoice.issueDate));
  detail('Due date', formatDay(invoice.dueDate));
  detail('Terms', INVOICE_TERMS_LABELS[invoice.terms] ?? invoice.terms);
  if (STATUS_SHOWN.includes(invoice.invoiceState)) detail('Status', INVOICE_STATE_LABELS[invoice.invoiceState] ?? invoice.invoiceState, true);
  y = Math.min(y, billToBottom) - 18;

  /* ------------------------------------------------------------ items */

  const tableHeader = () => {
    for (const column of COLUMNS) text(column.header, column.x, { font: bold, size: TABLE_SIZE, color: MUTED, width: column.width, right: 'right' in column });
    y -= 8;
    rule();
    y -= 12;
  };
  /** Lines of a row that still fit on this page (their baselines at or above the margin). */
  const linesLeft = () => Math.max(0, Math.floor((y - MARGIN) / TABLE_LINE) + 1);
  let rowsOnPage = 0;
  const continueTable = () => {
    addPage();
    tableHeader();
    rowsOnPage = 0;
  };

  const description = COLUMNS[0];
  const firstLines = wrapText(regular, invoice.items[0]?.description ?? '', TABLE_SIZE, description.width);
  // The table's header never ends a page alone: it goes with the first row (or as much of it as a page holds).
  newPageIfBelow(20 + Math.min(firstLines.length, 4) * TABLE_LINE + ROW_GAP);
  tableHeader();
  for (const item of invoice.items) {
    let lines = wrapText(regular, item.description, TABLE_SIZE, description.width);
    // A row is kept on one page; only one taller than a whole page runs on to the next.
    if (lines.length > linesLeft() && rowsOnPage > 0) continueTable();
    const figures = [milliText(item.quantity), formatMoney(item.unitPriceCents), `${milliText(item.taxRate)}%`, formatMoney(item.amountCents)];
    let first = true;
    while (lines.length > 0) {
      if (linesLeft() === 0) continueTable();
      const chunk = lines.slice(0, linesLeft());
      lines = lines.slice(chunk.length);
      if (first)
        COLUMNS.slice(1).forEach((column, index) => text(figures[index]!, column.x, { size: TABLE_SIZE, width: column.width, right: true, figure: true }));
      first = false;
      for (const line of chunk) {
        text(line, description.x, { size: TABLE_SIZE });
        y -= TABLE_LINE;
      }
    }
    page.drawLine({ start: { x: MARGIN, y: y + 6 }, end: { x: PAGE.width - MARGIN, y: y + 6 }, thickness: 0.5, color: RULE });
    y -= ROW_GAP;
    rowsOnPage += 1;
  }
  y -= 14;

  /* ------------------------------------------------------------ totals */

  const discountShown = invoice.discountCents > 0;
  // Six or seven rows and two rules: the block is never split over two pages.
  newPageIfBelow((discountShown ? 7 : 6) * 16 + 20);
  const total = (label: string, cents: number, strong = false) => {
    const font = strong ? bold : regular;
    text(label, TOTALS.labelX, { font, width: TOTALS.labelWidth });
    text(formatMoney(cents), TOTALS.valueX, { font, width: TOTALS.valueWidth, right: true, figure: true });
    y -= 16;
  };
  const totalsRule = () => {
    y -= 2;
    rule(TOTALS.labelX, 0.5);
    y -= 6;
  };
  total('Subtotal', invoice.subtotalCents);
  if (discountShown) {
    const percent = invoice.discount.type === 'percent' ? ` (${milliText(invoice.discount.percent)}%)` : '';
    total(`Discount${percent}`, -invoice.discountCents);
  }
  total('Tax', invoice.taxCents);
  totalsRule();
  total('Total', invoice.totalCents, true);
  total('Amount paid', invoice.amountPaidCents);
  totalsRule();
  total('Balance due', invoice.balanceCents, true);

  /* ------------------------------------------------------------ pay link, memo, footer */

  /** Wrapped text over the full width, running on to new pages as it needs; returns each line's place. */
  const paragraph = (value: string, options: { font?: PDFFont; size?: number; color?: typeof INK; leading?: number } = {}) => {
    const font = options.font ?? regular;
    const size = options.size ?? 10;
    const leading = options.leading ?? size + 4;
    const placed: { page: PDFPage; y: number; width: number }[] = [];
    for (const line of wrapText(font, value, size, CONTENT_WIDTH)) {
      newPageIfBelow(0);
      text(line, 0, { font, size, color: options.color ?? INK });
      placed.push({ page, y, width: font.widthOfTextAtSize(line, size) });
      y -= leading;
    }
    return placed;
  };
  const section = (label: string) => {
    y -= 14;
    // A label never ends a page alone: it goes with its first line.
    newPageIfBelow(14);
    text(label, 0, { font: bold, size: 9, color: MUTED });
    y -= 14;
  };

  if (payLink) {
    y -= 14;
    const placed = paragraph(`Pay online: ${payLink}`);
    // Clickable too, for a web address only (never a script or file link).
    if (/^https?:\/\/[\x21-\x7e]+$/i.test(payLink)) {
      for (const line of placed) {
        const annotation = doc.context.obj({
          Type: 'Annot',
          Subtype: 'Link',
          Rect: [MARGIN, line.y - 3, MARGIN + line.width, line.y + 10],
          Border: [0, 0, 0],
          A: { Type: 'Action', S: 'URI', URI: PDFString.of(payLink) },
        });
        line.page.node.addAnnot(doc.context.register(annotation));
      }
    }
  }
  if (invoice.memo.trim()) {
    section('Memo');
    paragraph(invoice.memo);
  }
  if (invoice.footer.trim()) {
    y -= 14;
    paragraph(invoice.footer, { size: 9, color: MUTED });
  }

  /* ------------------------------------------------------------ page numbers, once the count is known */

  const pages = doc.getPages();
  pages.forEach((each, index) => {
    page = each;
    y = FOOTER_Y;
    text(`Page ${index + 1} of ${pages.length}`, 0, { size: 8, color: MUTED, width: CONTENT_WIDTH, right: true });
  });
  return doc.save();
}
