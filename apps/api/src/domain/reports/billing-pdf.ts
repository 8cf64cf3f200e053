import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { REPORT_KIND_LABELS, REPORT_METHOD_LABELS, formatDateTime, formatDay, formatMoney, type BillingReport, type ReportFigures } from '@tay/contract';
import { fitText, printable } from '../../lib/pdf-text';

const PAGE = { width: 792, height: 612 } as const; // US Letter, landscape, in points: the table has eleven columns
const MARGIN = 48;
const CONTENT_WIDTH = PAGE.width - 2 * MARGIN;
const INK = rgb(0.11, 0.13, 0.17);
const MUTED = rgb(0.4, 0.43, 0.48);
const RULE = rgb(0.85, 0.87, 0.9);

/** The table's columns, as the page's table and the CSV have them: x offset from the margin and width. */
const COLUMNS = [
  { header: 'Period', x: 0, width: 100 },
  { header: 'Requests billed', x: 104, width: 50, right: true },
  { header: 'Billed', x: 158, width: 62, right: true },
  { header: 'Payments', x: 224, width: 42, right: true },
  { header: 'Collected', x: 270, width: 62, right: true },
  { header: 'Returned', x: 336, width: 56, right: true },
  { header: 'Refunded', x: 396, width: 56, right: true },
  { header: 'Disputed', x: 456, width: 56, right: true },
  { header: 'Fees', x: 516, width: 50, right: true },
  { header: 'Net', x: 570, width: 62, right: true },
  { header: 'Outstanding', x: 636, width: 60, right: true },
] as const;

const HOUR_COLUMNS = [
  { header: 'Hour', x: 0, width: 120 },
  { header: 'Requests billed', x: 124, width: 90, right: true },
  { header: 'Billed', x: 218, width: 90, right: true },
  { header: 'Payments', x: 312, width: 70, right: true },
  { header: 'Collected', x: 386, width: 90, right: true },
] as const;

const count = (n: number) => n.toLocaleString('en-US');
const stateLabel = (state: string) => state.replace(/([a-z])([A-Z])/g, '$1 $2');

function figureCells(f: ReportFigures): string[] {
  return [
    count(f.billedCount),
    formatMoney(f.billedCents),
    count(f.collectedCount),
    formatMoney(f.collectedCents),
    formatMoney(f.returnedCents),
    formatMoney(f.refundedCents),
    formatMoney(f.disputedCents),
    formatMoney(f.feesCents),
    formatMoney(f.netCents),
    formatMoney(f.outstandingCents),
  ];
}

export function reportRangeText(report: Pick<BillingReport, 'from' | 'to'>): string {
  return report.from === report.to ? formatDay(report.from) : `${formatDay(report.from)} to ${formatDay(report.to)}`;
}

/**
 * The billing report as a PDF (pdf-lib, as the receipts and invoices are): the business, the
 * range and its time zone, the totals, the table of days, weeks or months, a single day's hours,
 * and the counts by status, method and kind. Any character the standard fonts lack prints as "?".
 */
export async function renderBillingPdf(report: BillingReport, businessName: string, issuedAt = new Date()): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`Billing report, ${reportRangeText(report)}`);
  doc.setAuthor(businessName);
  doc.setCreator('Tay');
  doc.setProducer('Tay');
  doc.setCreationDate(issuedAt);
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);

  let page: PDFPage = doc.addPage([PAGE.width, PAGE.height]);
  let y = PAGE.height - MARGIN;
  const newPageIfBelow = (needed: number) => {
    if (y - needed >= MARGIN) return false;
    page = doc.addPage([PAGE.width, PAGE.height]);
    y = PAGE.height - MARGIN;
    return true;
  };
  const text = (value: string, x: number, options: { font?: PDFFont; size?: number; color?: typeof INK; width?: number; right?: boolean } = {}) => {
    const font = options.font ?? regular;
    const size = options.size ?? 10;
    const line = options.width !== undefined ? fitText(font, value, size, options.width) : printable(font, value);
    const at = options.right && options.width !== undefined ? x + options.width - font.widthOfTextAtSize(line, size) : x;
    page.drawText(line, { x: MARGIN + at, y, size, font, color: options.color ?? INK });
  };
  const rule = () => page.drawLine({ start: { x: MARGIN, y: y + 4 }, end: { x: PAGE.width - MARGIN, y: y + 4 }, thickness: 0.75, color: RULE });
  const heading = (value: string) => {
    newPageIfBelow(40);
    text(value, 0, { font: bold, size: 12 });
    y -= 18;
  };
  const table = <C extends readonly { header: string; x: number; width: number; right?: boolean }[]>(columns: C, rows: string[][], total?: string[]) => {
    const header = () => {
      for (const column of columns) text(column.header, column.x, { font: bold, size: 8, color: MUTED, width: column.width, right: column.right });
      y -= 8;
      rule();
      y -= 11;
    };
    newPageIfBelow(40);
    header();
    const line = (cells: string[], font: PDFFont) => {
      if (newPageIfBelow(14)) header();
      columns.forEach((column, index) => text(cells[index] ?? '', column.x, { font, size: 8, width: column.width, right: column.right }));
      y -= 13;
    };
    for (const cells of rows) line(cells, regular);
    if (total) {
      rule();
      y -= 4;
      line(total, bold);
    }
    y -= 14;
  };

  text('Billing report', 0, { font: bold, size: 20 });
  y -= 20;
  text(businessName, 0, { size: 12, color: MUTED, width: CONTENT_WIDTH });
  y -= 16;
  text(`${reportRangeText(report)}, by ${report.groupBy}. Days are calendar days in ${report.timeZone}.`, 0, { width: CONTENT_WIDTH });
  y -= 28;

  const t = report.totals;
  const figures: [string, string][] = [
    ['Billed', `${formatMoney(t.billedCents)} (${count(t.billedCount)} requests)`],
    ['Collected', `${formatMoney(t.collectedCents)} (${count(t.collectedCount)} payments)`],
    ['Returned', `${formatMoney(t.returnedCents)} (${count(t.returnedCount)} payments)`],
    ['Refunded', `${formatMoney(t.refundedCents)} (${count(t.refundedCount)} refunds)`],
    ['Disputed', `${formatMoney(t.disputedCents)} (${count(t.disputedCount)} disputes)`],
    ['Fees', formatMoney(t.feesCents)],
    ['Net', formatMoney(t.netCents)],
    ['Outstanding', formatMoney(t.outstandingCents)],
  ];
  for (const [label, value] of figures) {
    text(label, 0, { color: MUTED });
    text(value, 110, { font: label === 'Net' ? bold : regular, width: CONTENT_WIDTH - 110 });
    y -= 15;
  }
  y -= 14;

  heading('By period');
  table(
    COLUMNS,
    report.buckets.map((bucket) => [bucket.label, ...figureCells(bucket)]),
    ['Total', ...figureCells(report.totals)],
  );

  if (report.hours.length > 0) {
    heading(`By hour (${report.timeZone})`);
    table(
      HOUR_COLUMNS,
      report.hours.map((hour) => [
        hour.label,
        count(hour.billedCount),
        formatMoney(hour.billedCents),
        count(hour.collectedCount),
        formatMoney(hour.collectedCents),
      ]),
    );
  }

  const counts = [
    {
      title: 'Requests billed by status now',
      columns: ['Status', 'Requests', 'Amount'],
      rows: report.byStatus.map((s) => [stateLabel(s.status), count(s.count), formatMoney(s.cents)]),
    },
    {
      title: 'Collected by method',
      columns: ['Method', 'Payments', 'Amount'],
      rows: report.byMethod.map((m) => [REPORT_METHOD_LABELS[m.method], count(m.count), formatMoney(m.cents)]),
    },
    {
      title: 'Collected by kind',
      columns: ['Kind', 'Payments', 'Amount'],
      rows: report.byKind.map((k) => [REPORT_KIND_LABELS[k.kind], count(k.count), formatMoney(k.cents)]),
    },
  ];
  for (const block of counts) {
    heading(block.title);
    if (block.rows.length === 0) {
      text('None in this range.', 0, { color: MUTED });
      y -= 24;
      continue;
    }
    table(
      [
        { header: block.columns[0]!, x: 0, width: 160 },
        { header: block.columns[1]!, x: 164, width: 70, right: true },
        { header: block.columns[2]!, x: 238, width: 90, right: true },
      ],
      block.rows,
    );
  }

  newPageIfBelow(14);
  text(`Issued ${formatDateTime(issuedAt, report.timeZone)} (${report.timeZone}).`, 0, { size: 8, color: MUTED, width: CONTENT_WIDTH });
  return doc.save();
}
