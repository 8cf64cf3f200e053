import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { ErrorResponse, listResponse, PaymentRequest, PaymentRequestDetail, PaymentRequestInput, RequestListQuery, RequestReceiptResponse } from '@tay/contract';
import type { DB } from '../db/schema';
import { getRequestReceipt } from '../domain/payments/get-request-receipt';
import { renderReceiptPdf } from '../domain/payments/render-receipt-pdf';
import { exportRequests } from '../domain/payment-requests/export-requests';
import { getRequest } from '../domain/payment-requests/get-request';
import { listRequests, requestPageJson } from '../domain/payment-requests/list-requests';
import { deleteDraft, runRequestCommand, type RequestCommand } from '../domain/payment-requests/request-actions';
import { businessForRequests, type RequestContext } from '../domain/payment-requests/request-context';
import { requestSummary } from '../domain/payment-requests/request-summary';
import { createRequest, updateRequest } from '../domain/payment-requests/save-request';
import { withIdempotency } from '../lib/idempotency';
import { bearerOf, requireBearer, requireUser, sessionOf } from '../plugins/authenticate';
import { fileResponse } from '../plugins/openapi';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, 422: ErrorResponse };
const signedIn = { security: [{ bearer: [] }] };
const Params = z.object({ id: z.string().min(1).max(64) });
const RequestParams = Params.extend({ requestId: z.string().min(1).max(64) });
const IdempotencyHeader = z.object({ 'idempotency-key': z.string().optional() });
const Ok = <T extends z.ZodType>(data: T) => z.object({ status: z.literal('Success'), data });
const RequestResponse = Ok(PaymentRequest);
const Summary = Ok(
  z.object({
    openCount: z.number(),
    openCents: z.number(),
    paidCount: z.number(),
    paidCents: z.number(),
    draftCount: z.number(),
    scheduledCount: z.number(),
    needsAttentionCount: z.number(),
  }),
);

/**
 * Requests to pay ("transactions", spec §2): `/api/businesses/:id/payments…`. Creating, editing
 * (which may send or schedule) and sending honour an `Idempotency-Key` header (architecture §5).
 */
export const paymentRequestRoutes: FastifyPluginAsyncZod<{ ctx: RequestContext; db: Kysely<DB> }> = async (app, { ctx, db }) => {
  const user = (request: Parameters<typeof sessionOf>[0]) => {
    const { user: u } = sessionOf(request);
    return { userId: u.id, email: u.email };
  };
  /**
   * Access is checked before an Idempotency-Key is claimed or read: otherwise someone who cannot
   * act on the business could hold one of its keys, or be answered with what the key stored.
   */
  const mayChangeRequests = async (request: Parameters<typeof sessionOf>[0] & { params: { id: string } }) => {
    await businessForRequests(db, { businessId: request.params.id, userId: sessionOf(request).user.id, access: 'write' });
  };

  app.get(
    '/api/businesses/:id/payments',
    // The session is checked by the list's own statement: one round trip for the hottest read (ADR 010).
    { preHandler: requireBearer, schema: { tags: ['payments'], summary: 'Transaction history or drafts, filtered, searched, sorted and paged', ...signedIn, params: Params, querystring: RequestListQuery, response: { 200: listResponse(PaymentRequest), ...errors } } },
    async (request, reply) => {
      const page = await listRequests({ db, businessId: request.params.id, sessionToken: bearerOf(request), query: request.query });
      // The items come as JSON from PostgreSQL (ADR 015): the body goes out as written.
      return reply.type('application/json; charset=utf-8').send(requestPageJson(page) as never);
    },
  );

  app.get(
    '/api/businesses/:id/payments/export.csv',
    {
      preHandler: requireUser,
      schema: {
        tags: ['payments'],
        summary: 'CSV export of the same query as the list',
        ...signedIn,
        params: Params,
        querystring: RequestListQuery,
        response: { 200: fileResponse('The requests, one per line, under a header row', ['text/csv'], { text: true }), ...errors },
      },
    },
    async (request, reply) => {
      const chunks = exportRequests({ db, businessId: request.params.id, userId: sessionOf(request).user.id, query: request.query });
      // The first chunk checks access before any header goes out.
      const first = await chunks.next();
      const date = new Date().toISOString().slice(0, 10);
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="transactions-${date}.csv"`)
        .header('cache-control', 'no-store');
      const { Readable } = await import('node:stream');
      return reply.send(
        Readable.from(
          (async function* () {
            if (!first.done) yield first.value;
            yield* chunks;
          })(),
        ),
      );
    },
  );

  app.get(
    '/api/businesses/:id/payments/summary',
    { preHandler: requireUser, schema: { tags: ['payments'], summary: 'Figures for the payments landing page', ...signedIn, params: Params, response: { 200: Summary, ...errors } } },
    async (request) => ({ status: 'Success' as const, data: await requestSummary({ db, businessId: request.params.id, userId: sessionOf(request).user.id }) }),
  );

  app.post(
    '/api/businesses/:id/payments',
    { preHandler: requireUser, schema: { tags: ['payments'], summary: 'Create a request to pay: draft, send now, or schedule', ...signedIn, params: Params, headers: IdempotencyHeader, body: PaymentRequestInput, response: { 201: RequestResponse, ...errors } } },
    async (request, reply) => {
      await mayChangeRequests(request);
      const result = await withIdempotency({
        db,
        scope: `business:${request.params.id}:create-request`,
        key: request.headers['idempotency-key'],
        request: request.body,
        run: async () => ({
          status: 201,
          body: { status: 'Success' as const, data: await createRequest(ctx, { businessId: request.params.id, user: user(request), body: request.body }) },
        }),
      });
      return reply.status(result.status).send(result.body);
    },
  );

  app.get(
    '/api/businesses/:id/payments/:requestId',
    { preHandler: requireUser, schema: { tags: ['payments'], summary: 'One request with its timeline and payments', ...signedIn, params: RequestParams, response: { 200: Ok(PaymentRequestDetail), ...errors } } },
    async (request) => ({
      status: 'Success' as const,
      data: await getRequest({ db, businessId: request.params.id, requestId: request.params.requestId, userId: sessionOf(request).user.id, authSecret: ctx.authSecret, previousAuthSecrets: ctx.previousAuthSecrets, publicUrl: ctx.publicUrl }),
    }),
  );

  app.patch(
    '/api/businesses/:id/payments/:requestId',
    {
      preHandler: requireUser,
      schema: {
        tags: ['payments'],
        summary: 'Edit a draft or scheduled request: save, schedule, or send it now',
        description: 'With an Idempotency-Key: the same key and body get the stored answer; a different body is 422; a twin still running is 409.',
        ...signedIn,
        params: RequestParams,
        headers: IdempotencyHeader,
        body: PaymentRequestInput,
        response: { 200: RequestResponse, ...errors },
      },
    },
    async (request, reply) => {
      await mayChangeRequests(request);
      const result = await withIdempotency({
        db,
        scope: `business:${request.params.id}:update-request:${request.params.requestId}`,
        key: request.headers['idempotency-key'],
        request: request.body,
        run: async () => ({
          status: 200,
          body: { status: 'Success' as const, data: await updateRequest(ctx, { businessId: request.params.id, requestId: request.params.requestId, user: user(request), body: request.body }) },
        }),
      });
      return reply.status(result.status).send(result.body);
    },
  );

  app.get(
    '/api/businesses/:id/payments/:requestId/receipt',
    { preHandler: requireUser, schema: { tags: ['payments'], summary: "The receipt of a request's processed payments", ...signedIn, params: RequestParams, response: { 200: RequestReceiptResponse, ...errors } } },
    async (request) => ({
      status: 'Success' as const,
      data: await getRequestReceipt({ db, businessId: request.params.id, requestId: request.params.requestId, userId: sessionOf(request).user.id }),
    }),
  );

  app.get(
    '/api/businesses/:id/payments/:requestId/receipt.pdf',
    {
      preHandler: requireUser,
      schema: { tags: ['payments'], summary: 'The same receipt as a PDF download', ...signedIn, params: RequestParams, response: { 200: fileResponse('The receipt', ['application/pdf']), ...errors } },
    },
    async (request, reply) => {
      const receipt = await getRequestReceipt({ db, businessId: request.params.id, requestId: request.params.requestId, userId: sessionOf(request).user.id });
      const pdf = await renderReceiptPdf(receipt);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="receipt-${receipt.referenceNumber}.pdf"`)
        .header('cache-control', 'no-store')
        .send(Buffer.from(pdf));
    },
  );

  for (const command of ['send', 'resend', 'withdraw', 'cancel'] as const satisfies readonly RequestCommand[]) {
    app.post(
      `/api/businesses/:id/payments/:requestId/${command}`,
      {
        preHandler: requireUser,
        schema: {
          tags: ['payments'],
          summary: `${command[0]!.toUpperCase()}${command.slice(1)} a request`,
          ...(command === 'send' || command === 'resend'
            ? { description: 'With an Idempotency-Key (one key space per business): the same key on the same request and command gets the stored answer; the key on another request or command is 422; a twin still running is 409.' }
            : {}),
          ...signedIn,
          params: RequestParams,
          headers: IdempotencyHeader,
          response: { 200: RequestResponse, ...errors },
        },
      },
      async (request, reply) => {
        const run = async () => ({
          status: 200,
          body: { status: 'Success' as const, data: await runRequestCommand(ctx, { businessId: request.params.id, requestId: request.params.requestId, user: user(request), command }) },
        });
        if (command !== 'send' && command !== 'resend') {
          const result = await run();
          return reply.status(result.status).send(result.body);
        }
        await mayChangeRequests(request);
        // One key space per business for request commands, and the key names what it did: reusing
        // it for another request or another command is refused (422), never run as a new command.
        const result = await withIdempotency({
          db,
          scope: `business:${request.params.id}:request-command`,
          key: request.headers['idempotency-key'],
          request: { command, requestId: request.params.requestId },
          run,
        });
        return reply.status(result.status).send(result.body);
      },
    );
  }

  app.delete(
    '/api/businesses/:id/payments/:requestId',
    { preHandler: requireUser, schema: { tags: ['payments'], summary: 'Delete a draft', ...signedIn, params: RequestParams, response: { 204: z.undefined(), ...errors } } },
    async (request, reply) => {
      await deleteDraft(ctx, { businessId: request.params.id, requestId: request.params.requestId, user: user(request) });
      return reply.status(204).send();
    },
  );
};
