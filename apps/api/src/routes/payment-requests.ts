import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import { paymentRequestEndpoints as e } from '@tay/contract';
import type { DB } from '../db/schema';
import { exportRequests } from '../domain/payment-requests/export-requests';
import { getRequest } from '../domain/payment-requests/get-request';
import { historyPageJson } from '../db/history-engine/engine';
import { listRequests } from '../domain/payment-requests/list-requests';
import { deleteDraft, runRequestCommand, type RequestCommand } from '../domain/payment-requests/request-actions';
import type { RequestContext } from '../domain/payment-requests/request-context';
import { requestSummary } from '../domain/payment-requests/request-summary';
import { createRequest, updateRequest } from '../domain/payment-requests/save-request';
import { getRequestReceipt } from '../domain/payments/get-request-receipt';
import { renderReceiptPdf } from '../domain/payments/render-receipt-pdf';
import { sendCsv } from '../http/csv-reply';
import { endpointMounter, success } from '../http/mount';
import { sendCommandScope } from '../lib/idempotency';
import { bearerOf } from '../plugins/authenticate';

/**
 * The payment-requests area (`packages/contract/src/payment-requests/endpoints.ts`). Creating,
 * editing and sending honour an `Idempotency-Key` (ADR 024): the mount's `idempotent` option, which
 * claims a key only once access is checked, so nobody who may not act on the business holds or reads its keys.
 */
export const paymentRequestRoutes: FastifyPluginAsync<{ ctx: RequestContext; db: Kysely<DB> }> = async (app, { ctx, db }) => {
  const mount = endpointMounter(app, db);

  // The session and membership are checked by the list's own statement, as the mount would
  // check them: one round trip for the hottest read (ADR 010; apps/api/test/platform/endpoints.test.ts).
  mount(
    e.list,
    async ({ params, query, request, reply }) => {
      const page = await listRequests({ db, businessId: params.id, sessionToken: bearerOf(request), query, ip: request.ip });
      // The items come as JSON from PostgreSQL (ADR 015): the body goes out as written.
      return reply.type('application/json; charset=utf-8').send(historyPageJson(page));
    },
    { checkedInStatement: true },
  );

  mount(e.exportCsv, async ({ business, session, query, reply }) =>
    sendCsv(
      reply,
      exportRequests({
        db,
        businessId: business.id,
        timeZone: business.timeZone,
        template: business.entityType,
        query,
        viewer: { id: session.user.id, email: session.user.email, name: session.user.name, ip: session.user.ip ?? null },
      }),
      `transactions-${new Date().toISOString().slice(0, 10)}.csv`,
    ),
  );

  mount(e.summary, async ({ business }) => success(await requestSummary({ db, businessId: business.id })));

  mount(e.create, async ({ business, actor, body }) => success(await createRequest(ctx, { business, user: actor, body })), {
    idempotent: { scope: (business) => `business:${business.id}:create-request` },
  });

  mount(e.get, async ({ business, params }) =>
    success(
      await getRequest({
        db,
        businessId: business.id,
        requestId: params.requestId,
        authSecret: ctx.authSecret,
        previousAuthSecrets: ctx.previousAuthSecrets,
        publicUrl: ctx.publicUrl,
      }),
    ),
  );

  mount(
    e.update,
    async ({ business, actor, params, body }) => success(await updateRequest(ctx, { business, requestId: params.requestId, user: actor, body })),
    {
      idempotent: { scope: (business) => `business:${business.id}:update-request`, request: ({ params, body }) => ({ requestId: params.requestId, ...body }) },
    },
  );

  mount(e.receipt, async ({ business, params }) => success(await getRequestReceipt({ db, business, requestId: params.requestId })));

  mount(e.receiptPdf, async ({ business, params, reply }) => {
    const receipt = await getRequestReceipt({ db, business, requestId: params.requestId });
    const pdf = await renderReceiptPdf(receipt);
    return reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', `attachment; filename="receipt-${receipt.referenceNumber}.pdf"`)
      .header('cache-control', 'no-store')
      .send(Buffer.from(pdf));
  });

  const commands = { send: e.send, resend: e.resend, withdraw: e.withdraw, cancel: e.cancel } as const satisfies Record<RequestCommand, unknown>;
  for (const [command, endpoint] of Object.entries(commands) as [RequestCommand, (typeof commands)[RequestCommand]][]) {
    mount(
      endpoint,
      async ({ business, actor, params, body }) => {
        const confirmedAmountCents = (body as { confirmedAmountCents?: number | null } | undefined)?.confirmedAmountCents ?? null;
        return success(await runRequestCommand(ctx, { business, requestId: params.requestId, user: actor, command, confirmedAmountCents }));
      },
      // One key space per business for request commands, and the key names what it did: reusing
      // it for another request or another command is refused (422), never run as a new command.
      command === 'send' || command === 'resend'
        ? { idempotent: { scope: (business) => sendCommandScope(business.id), request: ({ params }) => ({ command, requestId: params.requestId }) } }
        : {},
    );
  }

  mount(e.deleteDraft, async ({ business, actor, params, reply }) => {
    await deleteDraft(ctx, { businessId: business.id, requestId: params.requestId, user: actor });
    return reply.status(204).send();
  });
};
