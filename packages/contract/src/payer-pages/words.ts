import { formatDay } from '../common/dates';
import { formatMoney } from '../common/money';
import type { PublicQrPage } from '../qr-codes/schemas';
import type { PublicPayPage } from './schemas';

/*
 * The words of the payer's pages, the same wherever they are written: by the server into the
 * page's first HTML (apps/api/src/http/payer-first-screen.ts, ADR 047) and by the web app's pages
 * (apps/web/src/features/payer-pages/).
 */

/**
 * The big amount at the top of the pay page, and the line under it. While the page takes money
 * it is what is left to pay; once nothing is, it is what the payer paid (or is paying), never a
 * bare "$0.00" that reads as if nothing happened.
 */
export function payHeadline(data: Pick<PublicPayPage, 'status' | 'amountCents' | 'amountPaidCents' | 'remainingCents' | 'payments'>): {
  title: string;
  caption: string | null;
} {
  const paid = formatMoney(data.amountPaidCents);
  if (data.status === 'payable') {
    return {
      title: formatMoney(data.remainingCents),
      caption: data.amountPaidCents > 0 ? `${paid} of ${formatMoney(data.amountCents)} already paid` : null,
    };
  }
  const inFlight = data.payments.filter((p) => p.state === 'Pending').reduce((sum, p) => sum + p.amountCents, 0);
  if (data.amountPaidCents > 0) {
    const rest = inFlight > 0 ? `${formatMoney(inFlight)} more on its way` : `${formatMoney(data.remainingCents)} not paid`;
    return { title: `${paid} paid`, caption: data.remainingCents > 0 ? `of ${formatMoney(data.amountCents)}; ${rest}` : null };
  }
  if (inFlight > 0) return { title: `${formatMoney(inFlight)} being paid`, caption: null };
  return { title: formatMoney(data.remainingCents), caption: null };
}

/** The line under the amount: the due date, and whether part may be paid now. */
export function payDueLine(data: Pick<PublicPayPage, 'dueDate' | 'allowPartial' | 'statement'>): string {
  const partial = data.allowPartial
    ? data.statement
      ? ' · Payment plan: you may pay part of it now and the rest later'
      : ' · You may pay part of it now'
    : '';
  return `Due ${formatDay(data.dueDate)}${partial}`;
}

/** Whether everything the payer paid was refunded: the page then says Refunded, not Paid. */
export function refundedInFull(data: Pick<PublicPayPage, 'amountPaidCents' | 'refundedCents'>): boolean {
  return data.amountPaidCents > 0 && data.refundedCents >= data.amountPaidCents;
}

/** The line that tells the payer what the business gave back (ADR 051), or null when it gave nothing back. */
export function payRefundLine(data: Pick<PublicPayPage, 'businessName' | 'amountPaidCents' | 'refundedCents'>): string | null {
  if (data.refundedCents <= 0) return null;
  if (refundedInFull(data)) return `Refunded in full: ${data.businessName} returned the ${formatMoney(data.refundedCents)} you paid.`;
  return `${data.businessName} refunded ${formatMoney(data.refundedCents)} of the ${formatMoney(data.amountPaidCents)} you paid.`;
}

/** The heading of the notice a page that takes no money shows. */
export function payStatusTitle(data: Pick<PublicPayPage, 'status' | 'amountPaidCents' | 'refundedCents'>): string {
  switch (data.status) {
    case 'paid':
      return refundedInFull(data) ? 'Refunded' : 'Paid in full';
    case 'processing':
      return 'Payment in progress';
    case 'expired':
      return 'This request has expired';
    case 'withdrawn':
      return 'This request was withdrawn';
    case 'cancelled':
      return 'This request was cancelled';
    case 'declined':
      return 'You declined this request';
    default:
      return 'Payment not available';
  }
}

/** The heading of a QR code's page that takes no money, and its sentence when the code gives none. */
export const QR_STATUS_TITLES: Record<Exclude<PublicQrPage['status'], 'payable'>, string> = {
  disabled: 'This code is turned off',
  expired: 'This code has expired',
  unavailable: 'Payments are not available',
};
export const QR_NOT_PAYABLE = 'This code does not take payments now.';

/** A QR code's page: whether it takes a payment now (an open amount, or a fixed one that is set). */
export function qrPayable(data: Pick<PublicQrPage, 'status' | 'amountMode' | 'amountCents'>): boolean {
  return data.status === 'payable' && (data.amountMode === 'open' || data.amountCents !== null);
}

/** The headings of a payer's link or code that leads nowhere. */
export const PAYER_PAGE_PROBLEMS = {
  payLink: 'This link does not work',
  qrCode: 'We can’t find this QR code',
  qrCodeText:
    'The code you scanned does not lead to a payment: it may have been deleted, or mistyped if you entered its address. Ask the business for a new one.',
  receipt: 'This receipt could not be loaded',
} as const;
