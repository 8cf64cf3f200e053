import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import {
  BusinessIdParams,
  ErrorResponse,
  PayerDeletedResponse,
  PayerHistoryResponse,
  PayerIdParams,
  PayerImportBody,
  PayerImportPreviewResponse,
  PayerImportResultResponse,
  PayerInput,
  PayerListQuery,
  PayerListResponse,
  PayerResponse,
  PayerTypeaheadQuery,
  PayerTypeaheadResponse,
  PayerUpdateBody,
  PayerVerificationResponse,
  PayerVerifyParams,
} from '@tay/contract';
import type { DB } from '../db/schema';
import { userActor } from '../domain/businesses/audit';
import { createPayer } from '../domain/payers/create-payer';
import { deletePayer } from '../domain/payers/delete-payer';
import { exportPayers } from '../domain/payers/export-payers';
import { getPayer } from '../domain/payers/get-payer';
import { importPayers } from '../domain/payers/import-payers';
import { listPayers } from '../domain/payers/list-payers';
import { payerHistory } from '../domain/payers/payer-history';
import { previewPayerImport } from '../domain/payers/preview-payer-import';
import { resendVerification } from '../domain/payers/resend-verification';
import { reverifyPayer } from '../domain/payers/reverify-payer';
import { searchPayers } from '../domain/payers/search-payers';
import { setPayerStatus } from '../domain/payers/set-payer-status';
import { updatePayer } from '../domain/payers/update-payer';
import { verifyPayer } from '../domain/payers/verify-payer';
import type { Mailer } from '../mail/mailer';
import { requireUser, sessionOf } from '../plugins/authenticate';
import { fileResponse } from '../plugins/openapi';

export interface PayerRoutesOptions {
  db: Kysely<DB>;
  mailer: Pick<Mailer, 'send'>;
  /** Where the verification links in e-mails point. */
  publicUrl: string;
}

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse };
const signedIn = { security: [{ bearer: [] }] };
const tags = ['payers'];
const success = <T>(data: T) => ({ status: 'Success' as const, data });

/** A 2 MB file grows when it is escaped into JSON; the contract limits the file itself. */
const IMPORT_BODY_LIMIT = 6 * 1024 * 1024;

/**
 * Payers (issue 5, domain.md "Payer"): `/api/businesses/:id/payers…` for members of the business
 * (another business's ids answer 404; changes need an Approved business), the request form's
 * typeahead, and the payer's public e-mail confirmation.
 */
export const payerRoutes: FastifyPluginAsyncZod<PayerRoutesOptions> = async (app, { db, mailer, publicUrl }) => {
  const actorOf = (request: Parameters<typeof sessionOf>[0]) => userActor(sessionOf(request).user);

  app.get(
    '/api/businesses/:id/payers',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Payers: search (begins-with name or e-mail, exact reference), filters, sort, pages',
        ...signedIn,
        params: BusinessIdParams,
        querystring: PayerListQuery,
        response: { 200: PayerListResponse, ...errors },
      },
    },
    async (request) => success(await listPayers({ db, businessId: request.params.id, userId: sessionOf(request).user.id, query: request.query })),
  );

  app.get(
    '/api/businesses/:id/payers/export.csv',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'CSV of every payer the list query matches (filters, search, sort)',
        ...signedIn,
        params: BusinessIdParams,
        querystring: PayerListQuery,
        response: { 200: fileResponse('The payers, one per line, under a header row', ['text/csv'], { text: true }), ...errors },
      },
    },
    async (request, reply) => {
      const { filename, lines } = await exportPayers({ db, businessId: request.params.id, userId: sessionOf(request).user.id, query: request.query });
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(lines));
    },
  );

  app.post(
    '/api/businesses/:id/payers',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Add a payer; they are e-mailed a link to confirm their address',
        ...signedIn,
        params: BusinessIdParams,
        body: PayerInput,
        response: { 201: PayerResponse, ...errors },
      },
    },
    async (request, reply) => {
      const payer = await createPayer({ db, mailer, publicUrl, businessId: request.params.id, actor: actorOf(request), body: request.body });
      return reply.status(201).send(success(payer));
    },
  );

  app.post(
    '/api/businesses/:id/payers/import/preview',
    {
      preHandler: requireUser,
      bodyLimit: IMPORT_BODY_LIMIT,
      schema: {
        tags,
        summary: 'Read a CSV of payers: headers, suggested mapping, and what each row would do (nothing is saved)',
        ...signedIn,
        params: BusinessIdParams,
        body: PayerImportBody,
        response: { 200: PayerImportPreviewResponse, ...errors },
      },
    },
    async (request) =>
      success(await previewPayerImport({ db, businessId: request.params.id, userId: sessionOf(request).user.id, body: request.body })),
  );

  app.post(
    '/api/businesses/:id/payers/import',
    {
      preHandler: requireUser,
      bodyLimit: IMPORT_BODY_LIMIT,
      schema: {
        tags,
        summary: 'Import a CSV of payers: all or nothing; existing payers are skipped',
        ...signedIn,
        params: BusinessIdParams,
        body: PayerImportBody,
        response: { 200: PayerImportResultResponse, ...errors },
      },
    },
    async (request) => success(await importPayers({ db, businessId: request.params.id, actor: actorOf(request), body: request.body })),
  );

  app.get(
    '/api/businesses/:id/payers/:payerId',
    {
      preHandler: requireUser,
      schema: { tags, summary: 'One payer', ...signedIn, params: PayerIdParams, response: { 200: PayerResponse, ...errors } },
    },
    async (request) =>
      success(await getPayer({ db, businessId: request.params.id, payerId: request.params.payerId, userId: sessionOf(request).user.id })),
  );

  app.get(
    '/api/businesses/:id/payers/:payerId/history',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: "Who changed the payer and when, newest first, from the business's audit trail",
        ...signedIn,
        params: PayerIdParams,
        response: { 200: PayerHistoryResponse, ...errors },
      },
    },
    async (request) =>
      success(await payerHistory({ db, businessId: request.params.id, payerId: request.params.payerId, userId: sessionOf(request).user.id })),
  );

  app.patch(
    '/api/businesses/:id/payers/:payerId',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Change a payer (absent fields keep their value; a new e-mail must be confirmed again)',
        ...signedIn,
        params: PayerIdParams,
        body: PayerUpdateBody,
        response: { 200: PayerResponse, ...errors },
      },
    },
    async (request) =>
      success(
        await updatePayer({
          db,
          mailer,
          publicUrl,
          businessId: request.params.id,
          payerId: request.params.payerId,
          actor: actorOf(request),
          body: request.body,
        }),
      ),
  );

  app.delete(
    '/api/businesses/:id/payers/:payerId',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Delete a payer no request to pay names (409 otherwise)',
        ...signedIn,
        params: PayerIdParams,
        response: { 200: PayerDeletedResponse, ...errors },
      },
    },
    async (request) =>
      success(await deletePayer({ db, businessId: request.params.id, payerId: request.params.payerId, actor: actorOf(request) })),
  );

  const actions = {
    activate: {
      summary: 'Activate a deactivated payer',
      run: (p: z.infer<typeof PayerIdParams>, actor: ReturnType<typeof actorOf>) =>
        setPayerStatus({ db, businessId: p.id, payerId: p.payerId, to: 'active', actor }),
    },
    deactivate: {
      summary: 'Deactivate a payer (kept with its history, left out of the request form)',
      run: (p: z.infer<typeof PayerIdParams>, actor: ReturnType<typeof actorOf>) =>
        setPayerStatus({ db, businessId: p.id, payerId: p.payerId, to: 'Disabled', actor }),
    },
    'resend-verification': {
      summary: 'E-mail an unverified payer a new confirmation link',
      run: (p: z.infer<typeof PayerIdParams>, actor: ReturnType<typeof actorOf>) =>
        resendVerification({ db, mailer, publicUrl, businessId: p.id, payerId: p.payerId, actor }),
    },
    reverify: {
      summary: 'Ask a verified payer to confirm their address again (unverified until they do)',
      run: (p: z.infer<typeof PayerIdParams>, actor: ReturnType<typeof actorOf>) =>
        reverifyPayer({ db, mailer, publicUrl, businessId: p.id, payerId: p.payerId, actor }),
    },
  } as const;
  for (const [name, action] of Object.entries(actions)) {
    app.post(
      `/api/businesses/:id/payers/:payerId/${name}`,
      {
        preHandler: requireUser,
        schema: { tags, summary: action.summary, ...signedIn, params: PayerIdParams, response: { 200: PayerResponse, ...errors } },
      },
      async (request) => success(await action.run(request.params, actorOf(request))),
    );
  }

  app.get(
    '/api/directory/payers/beginsWith',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: "Typeahead: the business's active payers (includeDisabled=true: all) whose name, e-mail or reference begins with q",
        ...signedIn,
        querystring: PayerTypeaheadQuery,
        response: { 200: PayerTypeaheadResponse, ...errors },
      },
    },
    async (request) =>
      success(
        await searchPayers({
          db,
          businessId: request.query.businessId,
          userId: sessionOf(request).user.id,
          q: request.query.q,
          limit: request.query.limit,
          includeDisabled: request.query.includeDisabled,
        }),
      ),
  );

  app.post(
    '/api/public/payers/verify/:token',
    {
      schema: {
        tags,
        summary: "The payer confirms their e-mail address with the link's token (no sign-in)",
        params: PayerVerifyParams,
        response: { 200: PayerVerificationResponse, 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request) => success(await verifyPayer({ db, token: request.params.token })),
  );
};
