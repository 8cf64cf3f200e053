import { formatDay, formatMoney, type QrImageFormat } from '@tay/contract';
import type { Executor } from '../../db/executor';
import { qrPng, qrPosterPdf, qrSvg, type QrImage } from '../qr-codes/qr-code-image';
import { checkInUrl, type EventRow } from './event-record';

/** An event's check-in code in the asked format (GET …/events/:eventId/image): the QR codes' image and poster code. */
export async function eventImage(db: Executor, publicUrl: string, row: EventRow, format: QrImageFormat, size: number): Promise<QrImage> {
  const url = checkInUrl(publicUrl, row.token);
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
    label: row.name,
    amount: formatDay(row.event_date),
    memo: row.place,
    url,
    callToAction: 'Scan to check in',
    footer: `Check in with your e-mail address to be paid ${formatMoney(Number(row.amount_cents))}. Bank details are entered securely on Tay.`,
  });
  return { contentType: 'application/pdf', extension: 'pdf', body: Buffer.from(pdf) };
}

/** "summer-fair-check-in.png": the event's name, made safe for a file name. */
export function eventFileName(name: string, extension: string): string {
  const base = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `${base || 'event'}-check-in.${extension}`;
}
