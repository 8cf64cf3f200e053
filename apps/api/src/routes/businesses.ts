import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import { businessEndpoints as e, referenceEndpoints as r } from '@tay/contract';
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
import { searchSandboxBanks } from '../domain/directory/sandbox-banks';
import { CORPORATE_STRUCTURES } from '../domain/reference/corporate-structures';
import { MCC_CODES } from '../domain/reference/mcc-codes';
import { NON_PROFIT_CODES } from '../domain/reference/non-profit-codes';
import { endpointMounter, success } from '../http/mount';
import type { Jobs } from '../jobs/queue';

export interface BusinessRoutesOptions {
  db: Kysely<DB>;
  jobs: Pick<Jobs, 'send'>;
  /** Key the encryption of bank account numbers: AUTH_SECRET, then those it replaced. */
  authSecrets: readonly string[];
  sandboxAutoApprove: boolean;
}

/** The reference lists change only with a release; a day in any cache is fine. */
const CACHE_CONTROL = 'public, max-age=86400';

/**
 * The businesses area (`packages/contract/src/businesses/endpoints.ts`): onboarding and setup of
 * a business, its logo, and the reference lists of the setup forms.
 */
export const businessRoutes: FastifyPluginAsync<BusinessRoutesOptions> = async (app, { db, jobs, authSecrets, sandboxAutoApprove }) => {
  const secretBox = bankAccountNumberBox(authSecrets);
  const mount = endpointMounter(app, db);

  // prepareSubmit and submit have no payload, yet the web client sends `Content-Type:
  // application/json` on every request (docs/product.md §7): an empty JSON body means "no body" here.
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

  mount(e.create, async ({ session, body }) => success(await createBusiness({ db, actor: userActor(session.user), body })));

  mount(e.get, async ({ business }) => success(await getBusiness({ db, businessId: business.id })));

  mount(e.update, async ({ business, session, body }) => success(await updateBusiness({ db, businessId: business.id, actor: userActor(session.user), body })));

  mount(e.prepareSubmit, async ({ business }) => success(await prepareSubmit({ db, businessId: business.id })));

  mount(e.submit, async ({ business, session }) =>
    success(await submitBusiness({ db, businessId: business.id, actor: userActor(session.user), autoApprove: sandboxAutoApprove, jobs })),
  );

  mount(e.addBankAccount, async ({ business, session, body }) =>
    success(await addBankAccount({ db, businessId: business.id, actor: userActor(session.user), body, secretBox })),
  );

  mount(e.uploadLogo, async ({ business, session, body }) =>
    success(await uploadLogo({ db, businessId: business.id, actor: userActor(session.user), dataUrl: body.dataUrl })),
  );

  mount(e.logo, async ({ params, reply }) => {
    const logo = await getLogo({ db, businessId: params.id });
    // An SVG opened directly must not run anything or load anything: it is a picture.
    const policy = logo.contentType === 'image/svg+xml' ? "default-src 'none'; style-src 'unsafe-inline'" : "default-src 'none'";
    return reply
      .header('content-type', logo.contentType)
      .header('cache-control', 'public, max-age=300')
      .header('content-security-policy', policy)
      .header('x-content-type-options', 'nosniff')
      .send(logo.bytes);
  });

  for (const [endpoint, list] of [
    [r.mcc, MCC_CODES],
    [r.corporateStructures, CORPORATE_STRUCTURES],
    [r.nonProfitCodes, NON_PROFIT_CODES],
  ] as const) {
    mount(endpoint, async ({ reply }) => {
      reply.header('cache-control', CACHE_CONTROL);
      return success([...list]);
    });
  }

  mount(r.banks, async ({ query }) => success(searchSandboxBanks(query.search)));
};
