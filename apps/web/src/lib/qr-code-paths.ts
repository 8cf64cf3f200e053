import { getHref, paths } from '@tay/contract';

/**
 * Links to the QR codes' pages (`paths.payments.qrCode…`): the QR code screens, and the
 * transaction history's and a request's links to the code a payment came through.
 */
export const qrCodeManageHref = (qrId?: string | null) => getHref(paths.payments.qrCodeManage, undefined, { qrcodeid: qrId });
export const qrCodeDownloadHref = (qrId: string) => getHref(paths.payments.qrCodeDownload, undefined, { qrcodeid: qrId });
/** One code's payments; without a code, the payments of every code. */
export const qrCodeTransactionsHref = (qrId?: string | null) => getHref(paths.payments.qrCodeTransactions, undefined, { qrcodeid: qrId });
