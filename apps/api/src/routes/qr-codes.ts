import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import { ErrorCode, qrCodeEndpoints as e, qrPayerEndpoints as p, type QrPaymentOutcome } from '@tay/contract';
import type { DB } from '../db/schema';
import type { PaymentDeps } from '../domain/payments/apply-charge-result';
import { resumePayment } from '../domain/payments/resume-payment';
import { selectQrCode } from '../domain/qr-codes/qr-code-record';
import { qrCodeImage, qrFileName } from '../domain/qr-codes/qr-code-image';
import { createQrCode, deleteQrCode, exportQrCodes, getQrCode, listQrCodes, setQrCodeStatus, updateQrCode } from '../domain/qr-codes/qr-codes';
import { findByQrToken, getQrPage, payThroughQr, QR_PAY_ATTEMPTS, qrOutcome, qrPaymentRequest } from '../domain/qr-codes/qr-payments';
import { qrVisit } from '../http/qr-visit';
import { sendCsv } from '../http/csv-reply';
import { endpointMounter, success } from '../http/mount';
import { AppError } from '../lib/app-error';
import { withIdempotency } from '../lib/idempotency';
import { consumeRateLimit, tryAgainIn } from '../lib/rate-limiter';

/** The QR codes area (`packages/contract/src/qr-codes/endpoints.ts`, ADR 034): the business's side. */
export const qrCodeRoutes: FastifyPluginAsync<{ db: Kysely<DB>; publicUrl: string }> = async (app, { db, publicUrl }) => {
  const mount = endpointMounter(app, db);
  const ctx = { db, publicUrl };

  mount(e.list, async ({ business, query }) => success(await listQrCodes(ctx, { business, query })));
  mount(e.exportCsv, async ({ business, query, reply }) =>
    sendCsv(reply, exportQrCodes(ctx, { business, query }), `qr-codes-${new Date().toISOString().slice(0, 10)}.csv`),
  );
  mount(e.create, async ({ business, actor, body, reply }) => reply.status(201).send(success(await createQrCode(ctx, { business, user: actor, body }))));
  mount(e.get, async ({ business, params }) => success(await getQrCode(ctx, { business, qrId: params.qrId })));
  mount(e.update, async ({ business, actor, params, body }) => success(await updateQrCode(ctx, { business, user: actor, qrId: params.qrId, body })));
  mount(e.remove, async ({ business, actor, params, reply }) => {
    await deleteQrCode(ctx, { business, user: actor, qrId: params.qrId });
    return reply.status(204).send();
  });
  mount(e.enable, async ({ business, actor, params }) => success(await setQrCodeStatus(ctx, { business, user: actor, qrId: params.qrId, enable: true })));
  mount(e.disable, async ({ business, actor, params }) => success(await setQrCodeStatus(ctx, { business, user: actor, qrId: params.qrId, enable: false })));
  mount(e.image, async ({ business, params, query, reply }) => {
    const row = await selectQrCode(db, business.id, params.qrId);
    const image = await qrCodeImage(db, publicUrl, row, query.format, query.size);
    const name = qrFileName(row.label, image.extension);
    return reply
      .header('content-type', image.contentType)
      .header('content-disposition', `${query.disposition}; filename="${name}"`)
      .header('cache-control', 'private, no-store')
      .send(image.body);
  });
};

/** The payer's side of a code (no sign-in): `/api/public/qr/:code…`. */
export const publicQrRoutes: FastifyPluginAsync<{ db: Kysely<DB>; payments: Omit<PaymentDeps, 'log'>; authSecret: string; secureCookies: boolean }> = async (
  app,
  { db, payments, authSecret, secureCookies },
) => {
  const mount = endpointMounter(app, db);

  mount(p.get, async ({ params, request, reply }) => {
    const visit = qrVisit(request, params.code, secureCookies);
    const page = await getQrPage(db, params.code, visit);
    reply.header('cache-control', 'no-store');
    if (visit.cookies.length > 0) reply.header('set-cookie', visit.cookies);
    return success(page);
  });

  mount(p.pay, async ({ params, body, request, reply }) => {
    const { code } = await findByQrToken(db, params.code);
    // An open-amount code anyone can reach is where stolen cards get tested: a few tries per device.
    const attempt = await consumeRateLimit(db, `qr-pay:${code.id}:${request.ip}`, QR_PAY_ATTEMPTS);
    if (!attempt.allowed) {
      reply.header('retry-after', String(attempt.retryAfterSeconds));
      throw new AppError(
        ErrorCode.RateLimited,
        `Too many payment attempts through this code from your device. ${tryAgainIn(attempt.retryAfterSeconds)}, or ask the business for help.`,
      );
    }
    const deps = { ...payments, log: request.log };
    const paid = (data: QrPaymentOutcome) => ({ status: 201, body: { status: 'Success' as const, data } });
    const result = await withIdempotency({
      db,
      scope: `qr:${code.id}`,
      key: request.headers['idempotency-key'] as string | undefined,
      request: body,
      // The key remembers the payment in the transaction that creates it (with its request), so a
      // retry after a crash finishes that payment instead of making a second request.
      run: async (progress) =>
        paid(await payThroughQr({ ...deps, token: params.code, authSecret, body, onPaymentCreated: (trx, paymentId) => progress.record(trx, paymentId) })),
      resume: async (paymentId, { takenOver }) => {
        const { request: row, token } = await qrPaymentRequest(db, code.business_id, paymentId, authSecret);
        const outcome = await resumePayment(deps, { request: row, paymentId, processorToken: body.processorToken, mayCharge: takenOver });
        if (!outcome) return null;
        const fresh = await qrPaymentRequest(db, code.business_id, paymentId, authSecret);
        const payment = await db
          .selectFrom('payments')
          .selectAll()
          .where('business_id', '=', code.business_id)
          .where('id', '=', paymentId)
          .executeTakeFirstOrThrow();
        return paid(qrOutcome({ payment, request: fresh.request }, token));
      },
    });
    reply.header('cache-control', 'no-store');
    if (result.replayed) reply.header('idempotent-replayed', 'true');
    return reply.status(result.status).send(result.body);
  });
};
