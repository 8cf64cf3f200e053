import QRCode from 'qrcode';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { formatMoney, qrBoundsText, type QrImageFormat } from '@tay/contract';
import type { Executor } from '../../db/executor';
import { embedLogo } from '../../lib/pdf-image';
import { fitText, wrapText } from '../../lib/pdf-text';
import { qrPayUrl, type QrCodeRow } from './qr-code-record';

/** Error correction M: about 15 % of the code may be smudged or covered and it still reads (issue 19). */
const ERROR_CORRECTION = 'M' as const;
/** The quiet zone around the code, in modules: the four the QR standard asks for. */
const MARGIN_MODULES = 4;

export interface QrImage {
  contentType: string;
  extension: string;
  body: Buffer;
}

/** The code as a square PNG of `size` pixels. */
export async function qrPng(url: string, size: number): Promise<Buffer> {
  return QRCode.toBuffer(url, { type: 'png', errorCorrectionLevel: ERROR_CORRECTION, margin: MARGIN_MODULES, width: size });
}

/** The code as an SVG (scales to any print size). */
export async function qrSvg(url: string): Promise<string> {
  return QRCode.toString(url, { type: 'svg', errorCorrectionLevel: ERROR_CORRECTION, margin: MARGIN_MODULES });
}

/** What the poster says the payer pays. */
export function posterAmount(row: Pick<QrCodeRow, 'amount_mode' | 'amount_cents' | 'min_amount_cents' | 'max_amount_cents'>): string {
  if (row.amount_mode === 'fixed' && row.amount_cents !== null) return formatMoney(Number(row.amount_cents));
  const bounds = qrBoundsText({
    minAmountCents: row.min_amount_cents === null ? null : Number(row.min_amount_cents),
    maxAmountCents: row.max_amount_cents === null ? null : Number(row.max_amount_cents),
  });
  if (bounds) return `Enter an amount: ${bounds}`;
  return 'Enter the amount you pay';
}

const PAGE = { width: 612, height: 792 } as const; // US Letter, in points
const INK = rgb(0.11, 0.13, 0.17);
const MUTED = rgb(0.4, 0.43, 0.48);

/**
 * A one-page printable poster (pdf-lib, as receipts and invoices): the business's logo and name,
 * the code's label, the amount, the code itself and the link under it for anyone who cannot scan.
 */
export async function qrPosterPdf(input: {
  businessName: string;
  logo: { bytes: Uint8Array; contentType: string } | null;
  label: string;
  amount: string;
  memo: string;
  url: string;
  /** Under the code; an event's check-in poster says "Scan to check in". */
  callToAction?: string;
  footer?: string;
}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`${input.label} — QR code`);
  doc.setAuthor(input.businessName);
  doc.setCreator('Tay');
  doc.setProducer('Tay');
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const page = doc.addPage([PAGE.width, PAGE.height]);
  const maxWidth = PAGE.width - 120;
  const centered = (text: string, y: number, size: number, font = regular, color = INK) => {
    const line = fitText(font, text, size, maxWidth);
    page.drawText(line, { x: (PAGE.width - font.widthOfTextAtSize(line, size)) / 2, y, size, font, color });
  };

  let y = PAGE.height - 60;
  const logo = await embedLogo(doc, input.logo);
  if (logo) {
    const fit = logo.scaleToFit(160, 64);
    page.drawImage(logo, { x: (PAGE.width - fit.width) / 2, y: y - fit.height, width: fit.width, height: fit.height });
    y -= fit.height + 24;
  }
  centered(input.businessName, y - 20, 22, bold);
  y -= 56;
  centered(input.label, y, 18);
  y -= 30;
  centered(input.amount, y, 16, bold);
  y -= 24;
  for (const line of wrapText(regular, input.memo, 11, maxWidth).slice(0, 3)) {
    centered(line, y, 11, regular, MUTED);
    y -= 15;
  }

  const png = await doc.embedPng(await qrPng(input.url, 1024));
  const side = Math.min(300, y - 130);
  page.drawImage(png, { x: (PAGE.width - side) / 2, y: y - side - 10, width: side, height: side });
  y -= side + 40;
  centered(input.callToAction ?? 'Scan with your phone camera to pay', y, 14, bold);
  y -= 20;
  centered(input.url, y, 9, regular, MUTED);
  centered(input.footer ?? 'Payments are processed securely by Tay.', 40, 9, regular, MUTED);
  return doc.save();
}

/** The code of a business in the asked format (GET …/qr-codes/:qrId/image). */
export async function qrCodeImage(db: Executor, publicUrl: string, row: QrCodeRow, format: QrImageFormat, size: number): Promise<QrImage> {
  const url = qrPayUrl(publicUrl, row.token);
  if (format === 'png') return { contentType: 'image/png', extension: 'png', body: await qrPng(url, size) };
  if (format === 'svg') return { contentType: 'image/svg+xml', extension: 'svg', body: Buffer.from(await qrSvg(url)) };
  const business = await db
    .selectFrom('businesses')
    .select(['business_name', 'logo', 'logo_content_type'])
    .where('id', '=', row.business_id)
    .executeTakeFirstOrThrow();
  const pdf = await qrPosterPdf({
    businessName: business.business_name,
    logo: business.logo && business.logo_content_type ? { bytes: new Uint8Array(business.logo), contentType: business.logo_content_type } : null,
    label: row.label,
    amount: posterAmount(row),
    memo: row.memo,
    url,
  });
  return { contentType: 'application/pdf', extension: 'pdf', body: Buffer.from(pdf) };
}

/** "front-counter-qr.png": the label, made safe for a file name. */
export function qrFileName(label: string, extension: string): string {
  const base = label
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `${base || 'qr-code'}-qr.${extension}`;
}
