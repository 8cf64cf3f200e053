import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import {
  AddBankAccountBody,
  BusinessIdParams,
  BusinessResponse,
  CreateBusinessBody,
  ErrorResponse,
  LogoUploadBody,
  PrepareSubmitResponse,
  UpdateBusinessBody,
} from '@tay/contract';
import type { DB } from '../db/schema';
import { addBankAccount, bankAccountNumberBox } from '../domain/businesses/add-bank-account';
import { userActor } from '../domain/businesses/audit';
import { createBusiness } from '../domain/businesses/create-business';
import { getBusiness } from '../domain/businesses/get-business';
import { getLogo } from '../domain/businesses/get-logo';
import { prepareSubmit } from '../domain/businesses/prepare-submit';
import { submitBusiness } from '../domain/businesses/submit-business';
import { updateBusiness } from '../domain/businesses/update-business';
import { uploadLogo } from '../domain/businesses/upload-logo';
import type { Jobs } from '../jobs/queue';
import { requireUser, sessionOf } from '../plugins/authenticate';
import { fileResponse } from '../plugins/openapi';

export interface BusinessRoutesOptions {
  db: Kysely<DB>;
  jobs: Pick<Jobs, 'send'>;
  /** Key the encryption of bank account numbers: AUTH_SECRET, then those it replaced. */
  authSecrets: readonly string[];
  sandboxAutoApprove: boolean;
}

const errors = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  409: ErrorResponse,
  422: ErrorResponse,
};
const signedIn = { security: [{ bearer: [] }] };
const success = <T>(data: T) => ({ status: 'Success' as const, data });

/**
 * `/api/businesses/*` (spec §7.1–7.4): onboarding and setup of a business. Every route but the
 * logo image requires a signed-in member of the business; anyone else gets 404.
 */
export const businessRoutes: FastifyPluginAsyncZod<BusinessRoutesOptions> = async (app, { db, jobs, authSecrets, sandboxAutoApprove }) => {
  const secretBox = bankAccountNumberBox(authSecrets);

  // prepareSubmit and submit have no payload, yet the web client sends `Content-Type:
  // application/json` on every request (spec §7): an empty JSON body means "no body" here.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text === '') {
      done(null, undefined);
      return;
    }
    void parseJson(request, text, done);
  });

  app.post(
    '/api/businesses',
    {
      preHandler: requireUser,
      schema: {
        tags: ['businesses'],
        summary: 'Create a business; the signed-in user becomes its owner',
        ...signedIn,
        body: CreateBusinessBody,
        response: { 201: BusinessResponse, ...errors },
      },
    },
    async (request, reply) => {
      const business = await createBusiness({ db, actor: userActor(sessionOf(request).user), body: request.body });
      reply.status(201);
      return success(business);
    },
  );

  app.get(
    '/api/businesses/:id',
    {
      preHandler: requireUser,
      schema: { tags: ['businesses'], summary: 'One business of the signed-in user', ...signedIn, params: BusinessIdParams, response: { 200: BusinessResponse, ...errors } },
    },
    async (request) => success(await getBusiness({ db, businessId: request.params.id, userId: sessionOf(request).user.id })),
  );

  app.patch(
    '/api/businesses/:id/update',
    {
      preHandler: requireUser,
      schema: {
        tags: ['businesses'],
        summary: 'Update any of the setup sections (profile, address, owners, config, automations)',
        ...signedIn,
        params: BusinessIdParams,
        body: UpdateBusinessBody,
        response: { 200: BusinessResponse, ...errors },
      },
    },
    async (request) =>
      success(await updateBusiness({ db, businessId: request.params.id, actor: userActor(sessionOf(request).user), body: request.body })),
  );

  app.patch(
    '/api/businesses/:id/update/prepareSubmit',
    {
      preHandler: requireUser,
      schema: {
        tags: ['businesses'],
        summary: 'What is still missing before the business can be submitted',
        ...signedIn,
        params: BusinessIdParams,
        response: { 200: PrepareSubmitResponse, ...errors },
      },
    },
    async (request) => success(await prepareSubmit({ db, businessId: request.params.id, userId: sessionOf(request).user.id })),
  );

  app.patch(
    '/api/businesses/:id/update/submit',
    {
      preHandler: requireUser,
      schema: {
        tags: ['businesses'],
        summary: 'Submit the business for review (Incomplete → Pending); 422 lists what is missing',
        ...signedIn,
        params: BusinessIdParams,
        response: { 200: BusinessResponse, ...errors },
      },
    },
    async (request) =>
      success(
        await submitBusiness({
          db,
          businessId: request.params.id,
          actor: userActor(sessionOf(request).user),
          autoApprove: sandboxAutoApprove,
          jobs,
        }),
      ),
  );

  app.post(
    '/api/businesses/:id/bank-accounts',
    {
      preHandler: requireUser,
      schema: {
        tags: ['businesses'],
        summary: 'Set the settlement bank account (typed numbers or a bank from the directory)',
        ...signedIn,
        params: BusinessIdParams,
        body: AddBankAccountBody,
        response: { 200: BusinessResponse, ...errors },
      },
    },
    async (request) =>
      success(
        await addBankAccount({
          db,
          businessId: request.params.id,
          actor: userActor(sessionOf(request).user),
          body: request.body,
          secretBox,
        }),
      ),
  );

  app.post(
    '/api/businesses/:id/logo',
    {
      preHandler: requireUser,
      schema: {
        tags: ['businesses'],
        summary: 'Upload the logo: a data URL of a PNG, JPEG, WebP or SVG image up to 512 KB',
        ...signedIn,
        params: BusinessIdParams,
        body: LogoUploadBody,
        response: { 200: BusinessResponse, ...errors, 413: ErrorResponse },
      },
    },
    async (request) =>
      success(await uploadLogo({ db, businessId: request.params.id, actor: userActor(sessionOf(request).user), dataUrl: request.body.dataUrl })),
  );

  app.get(
    '/api/businesses/:id/logo',
    {
      schema: {
        tags: ['businesses'],
        summary: 'The logo image (public; the URL in logoUrl changes with every upload)',
        params: BusinessIdParams,
        response: {
          200: fileResponse('The image, as uploaded', ['image/png', 'image/jpeg', 'image/webp', 'image/svg+xml']),
          400: ErrorResponse,
          404: ErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const logo = await getLogo({ db, businessId: request.params.id });
      // An SVG opened directly must not run anything or load anything: it is a picture.
      const policy = logo.contentType === 'image/svg+xml' ? "default-src 'none'; style-src 'unsafe-inline'" : "default-src 'none'";
      return reply
        .header('content-type', logo.contentType)
        .header('cache-control', 'public, max-age=300')
        .header('content-security-policy', policy)
        .header('x-content-type-options', 'nosniff')
        .send(logo.bytes);
    },
  );
};
