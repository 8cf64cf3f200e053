import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { formatDateTime, formatMoney, type RequestReceipt } from '@tay/contract';
import { fitText, printable, wrapText } from '../../lib/pdf-text';

const PAGE = { width: 612, height: 792 } as const; // US Letter, in points
const MARGIN = 56;
const INK = rgb(0.11, 0.13, 0.17);
const MUTED = rgb(0.4, 0.43, 0.48);
const RULE = rgb(0.85, 0.87, 0.9);

/** Payment table columns: x offset from the margin and width, in points. */
const COLUMNS = [
  { header: 'Date', x: 0, width: 110 },
  { header: 'Paid with', x: 112, width: 150 },
  { header: 'Status', x: 264, width: 70 },
  { header: 'Payment', x: 336, width: 104 },
  { header: 'Amount', x: 442, width: 58, right: true },
] as const;

/**
 * The receipt as a PDF (pdf-lib: pure JavaScript, nothing to install or download). Times are on
 * the business's clock in the spec's format (§9). The standard fonts cover Western European text
 * only (WinAnsi); any other character prints as "?" rather than failing the whole receipt.
 */
export async function renderReceiptPdf(receipt: RequestReceipt, issuedAt = new Date()): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`Receipt ${receipt.referenceNumber}`);
  doc.setAuthor(receipt.businessName);
  doc.setCreator('Tay');
  doc.setProducer('Tay');
  doc.setCreationDate(issuedAt);
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);

  let page: PDFPage = doc.addPage([PAGE.width, PAGE.height]);
  let y = PAGE.height - MARGIN;
  const contentWidth = PAGE.width - 2 * MARGIN;

  const newPageIfBelow = (needed: number) => {
    if (y - needed >= MARGIN) return false;
    page = doc.addPage([PAGE.width, PAGE.height]);
    y = PAGE.height - MARGIN;
    return true;
  };
  const text = (value: string, x: number, options: { font?: PDFFont; size?: number; color?: typeof INK; width?: number; right?: boolean } = {}) => {
    const font = options.font ?? regular;
    const size = options.size ?? 10;
    // A cell never spills into the next one: cut with an ellipsis.
    const line = options.width !== undefined ? fitText(font, value, size, options.width) : printable(font, value);
    const at = options.right && options.width !== undefined ? x + options.width - font.widthOfTextAtSize(line, size) : x;
    page.drawText(line, { x: MARGIN + at, y, size, font, color: options.color ?? INK });
  };
  const wrapped = (value: string, width: number, size: number) => wrapText(regular, value, size, width);
  const rule = () => page.drawLine({ start: { x: MARGIN, y: y + 4 }, end: { x: PAGE.width - MARGIN, y: y + 4 }, thickness: 0.75, color: RULE });
  const field = (label: string, value: string) => {
    const lines = wrapped(value, contentWidth - 130, 10);
    newPageIfBelow(14 * lines.length);
    text(label, 0, { color: MUTED });
    for (const line of lines) {
      text(line, 130);
      y -= 14;
    }
  };

  text('Receipt', 0, { font: bold, size: 22 });
  text(receipt.referenceNumber, 0, { font: bold, size: 12, width: contentWidth, right: true });
  y -= 22;
  text(receipt.businessName, 0, { size: 12, color: MUTED, width: contentWidth });
  y -= 30;

  field('Payer', `${receipt.payerName} (${receipt.payerEmail})`);
  if (receipt.memo) field('Memo', receipt.memo);
  if (receipt.reference) field('Your reference', receipt.reference);
  field('Request status', receipt.transactionState);
  y -= 16;

  const header = () => {
    for (const column of COLUMNS) text(column.header, column.x, { font: bold, size: 9, color: MUTED, width: column.width, right: 'right' in column });
    y -= 8;
    rule();
    y -= 12;
  };
  newPageIfBelow(40);
  header();
  for (const payment of receipt.payments) {
    if (newPageIfBelow(18)) header();
    const cells = [
      formatDateTime(payment.paidAt, receipt.timeZone),
      payment.methodLabel,
      payment.paymentState,
      payment.paymentId,
      formatMoney(payment.amountCents),
    ];
    COLUMNS.forEach((column, index) => text(cells[index]!, column.x, { size: 9, width: column.width, right: 'right' in column }));
    y -= 16;
  }
  y -= 2;
  rule();
  y -= 16;

  newPageIfBelow(60);
  const total = (label: string, cents: number, strong = false) => {
    text(label, 300, { font: strong ? bold : regular, width: 130 });
    text(formatMoney(cents), 430, { font: strong ? bold : regular, width: contentWidth - 430, right: true });
    y -= 16;
  };
  total('Request total', receipt.requestAmountCents);
  total('Paid', receipt.amountPaidCents, true);
  total('Still to pay', receipt.remainingCents);

  y -= 20;
  newPageIfBelow(14);
  text(`Times are in ${receipt.timeZone}. Issued ${formatDateTime(issuedAt, receipt.timeZone)}.`, 0, { size: 8, color: MUTED, width: contentWidth });
  return doc.save();
}
