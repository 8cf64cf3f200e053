import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import { ErrorCode, payerPageEndpoints as e, type PaymentOutcome } from '@tay/contract';
import type { DB } from '../db/schema';
import { getReceipt } from '../domain/payments/get-receipt';
import { payRequest } from '../domain/payments/pay-request';
import { resumePayment } from '../domain/payments/resume-payment';
import type { PaymentDeps } from '../domain/payments/apply-charge-result';
import { declineRequest, findByPayToken, getPayPage, PAY_LINK_ATTEMPTS } from '../domain/payment-requests/public-pay-page';
import { sourceOf } from '../domain/request-sources';
import { invoiceIdOf } from '../domain/invoices/invoice-source';
import { selectInvoice } from '../domain/invoices/invoice-record';
import { invoicePdf, invoicePdfName } from '../domain/invoices/invoice-document';
import { payLink } from '../domain/payment-requests/request-record';
import { endpointMounter, success } from '../http/mount';
import { AppError } from '../lib/app-error';
import { withIdempotency } from '../lib/idempotency';
import { consumeRateLimit, tryAgainIn } from '../lib/rate-limiter';

/** The payer's side (no sign-in): `/api/public/pay/:token…`, reached from the link in the e-mail. */
export const publicPayRoutes: FastifyPluginAsync<{ db: Kysely<DB>; payments: Omit<PaymentDeps, 'log'>; publicUrl: string }> = async (
  app,
  { db, payments, publicUrl },
) => {
  const mount = endpointMounter(app, db);
  mount(e.get, async ({ params, reply }) => {
    reply.header('cache-control', 'no-store');
    return success(await getPayPage(db, params.token, { opened: true }));
  });

  mount(e.decline, async ({ params, body }) => success(await declineRequest(db, params.token, body.reason)));

  mount(e.pay, async ({ params, body, request, reply }) => {
    const { row } = await findByPayToken(db, params.token);
    // Card testing: a pay link takes a few tries per device. A walk-in request made through a QR
    // code counts against its code's tries, so its link is no way around the code's limit.
    const counted = sourceOf(row.source_kind).payAttempts?.(row) ?? { key: `pay-link:${row.id}`, limit: PAY_LINK_ATTEMPTS };
    const attempt = await consumeRateLimit(db, `${counted.key}:${request.ip}`, counted.limit);
    if (!attempt.allowed) {
      reply.header('retry-after', String(attempt.retryAfterSeconds));
      throw new AppError(
        ErrorCode.RateLimited,
        `Too many payment attempts on this link from your device. ${tryAgainIn(attempt.retryAfterSeconds)}, or ask the business for help.`,
      );
    }
    const deps = { ...payments, log: request.log };
    const paid = (data: PaymentOutcome) => ({ status: 201, body: { status: 'Success' as const, data } });
    const result = await withIdempotency({
      db,
      scope: `pay:${row.id}`,
      key: request.headers['idempotency-key'] as string | undefined,
      request: body,
      // The key remembers the payment in the transaction that creates it, so a retry after a
      // crash finishes that payment and reports it instead of paying again.
      run: async (progress) => paid(await payRequest({ ...deps, request: row, body, onPaymentCreated: (trx, paymentId) => progress.record(trx, paymentId) })),
      resume: async (paymentId, { takenOver }) => {
        const outcome = await resumePayment(deps, { request: row, paymentId, processorToken: body.processorToken, mayCharge: takenOver });
        return outcome && paid(outcome);
      },
    });
    reply.header('cache-control', 'no-store');
    if (result.replayed) reply.header('idempotent-replayed', 'true');
    return reply.status(result.status).send(result.body);
  });

  // The payer's copy of the invoice, as it stands (what is paid so far included), with this link on it.
  mount(e.invoicePdf, async ({ params, reply }) => {
    const { row } = await findByPayToken(db, params.token);
    const invoiceId = invoiceIdOf(row);
    if (!invoiceId) throw AppError.notFound('Invoice');
    const invoice = await selectInvoice(db, row.business_id, invoiceId);
    const pdf = await invoicePdf(db, invoice, payLink(publicUrl, params.token));
    return reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', `attachment; filename="${invoicePdfName(invoice.number)}"`)
      .header('cache-control', 'no-store')
      .send(Buffer.from(pdf));
  });

  mount(e.receipt, async ({ params, reply }) => {
    reply.header('cache-control', 'no-store');
    return success(await getReceipt({ db, token: params.token, paymentId: params.paymentId }));
  });
};
