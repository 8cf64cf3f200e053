import type { Kysely } from 'kysely';
import { PAYER_PAGE_PROBLEMS } from '@tay/contract';
import type { DB } from '../db/schema';
import { getReceipt } from '../domain/payments/get-receipt';
import { getPayPage } from '../domain/payment-requests/public-pay-page';
import { getQrPage } from '../domain/qr-codes/qr-payments';
import { payFirstScreen, problemFirstScreen, qrFirstScreen, receiptFirstScreen, type FirstScreen } from '../http/payer-first-screen';
import { AppError } from '../lib/app-error';
import type { FirstScreenRoute } from '../plugins/web';
import { qrVisit } from '../http/qr-visit';

/** A refusal the payer should read (an unknown link, a receipt that is not theirs) as the page's problem; anything else is the server's. */
function refusal(error: unknown, title: string, message?: string): FirstScreen {
  if (error instanceof AppError && error.statusCode < 500) return problemFirstScreen(title, message ?? error.message, error.statusCode);
  throw error;
}

/**
 * The payer's pages whose first HTML the server writes (ADR 047): the pay page, the QR code's
 * page and the receipt, from the same reads as their API calls (`/api/public/pay/:token`,
 * `/api/public/qr/:code`, `…/receipt/:paymentId`) — a pay link opened is marked opened, a scan
 * counted once per visit, exactly as there.
 */
export function payerFirstScreens({ db, secureCookies }: { db: Kysely<DB>; secureCookies: boolean }): FirstScreenRoute[] {
  return [
    {
      url: '/pay/:token',
      async render(request) {
        const { token } = request.params as { token: string };
        try {
          return payFirstScreen(token, await getPayPage(db, token, { opened: true }));
        } catch (error) {
          return refusal(error, PAYER_PAGE_PROBLEMS.payLink);
        }
      },
    },
    {
      url: '/pay/qr/:code',
      async render(request, reply) {
        const { code } = request.params as { code: string };
        try {
          const visit = qrVisit(request, code, secureCookies);
          const screen = qrFirstScreen(code, await getQrPage(db, code, visit));
          if (visit.cookies.length > 0) reply.header('set-cookie', visit.cookies);
          return screen;
        } catch (error) {
          return refusal(error, PAYER_PAGE_PROBLEMS.qrCode, PAYER_PAGE_PROBLEMS.qrCodeText);
        }
      },
    },
    {
      url: '/pay/:token/receipt/:paymentId',
      async render(request) {
        const { token, paymentId } = request.params as { token: string; paymentId: string };
        try {
          return receiptFirstScreen(`${token}/${paymentId}`, await getReceipt({ db, token, paymentId }));
        } catch (error) {
          return refusal(error, PAYER_PAGE_PROBLEMS.receipt);
        }
      },
    },
  ];
}
