import type { FastifyPluginAsync } from 'fastify';
import { userActor } from '../domain/businesses/audit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import {
  INTEGRATION_CALLBACK_PATH,
  IntegrationCallbackParams,
  IntegrationCallbackQuery,
  integrationEndpoints as e,
  OAUTH_STATE_TTL_SECONDS,
  type IntegrationProvider,
} from '@tay/contract';
import type { ProviderSettings } from '../accounting/port';
import { accountingProviders } from '../accounting/providers';
import type { DB } from '../db/schema';
import { completeConnect, connectRefused, startConnect, takeConnectState } from '../domain/integrations/connect';
import { integrationTokenBox, type IntegrationDeps } from '../domain/integrations/deps';
import { disconnect } from '../domain/integrations/disconnect';
import { linkPayer, retryItem } from '../domain/integrations/items';
import { listLog, logCsv } from '../domain/integrations/log';
import { requestSync } from '../domain/integrations/sync';
import { listIntegrations } from '../domain/integrations/view';
import { sendCsv } from '../http/csv-reply';
import { endpointMounter, memberHolding, success } from '../http/mount';
import type { Jobs } from '../jobs/queue';

export interface IntegrationRoutesOptions {
  db: Kysely<DB>;
  jobs: Pick<Jobs, 'send'>;
  publicUrl: string;
  authSecrets: readonly string[];
  accounting: Record<IntegrationProvider, ProviderSettings | null>;
}

/**
 * Accounting integrations (`packages/contract/src/integrations/endpoints.ts`, ADR 041): the
 * connections, Connect, Sync now, Disconnect and the sync log; and the provider's callback,
 * which the browser reaches without our token (the one-use state says who it is for).
 */
export const integrationRoutes: FastifyPluginAsync<IntegrationRoutesOptions> = async (app, options) => {
  const deps: IntegrationDeps = {
    db: options.db,
    jobs: options.jobs,
    publicUrl: options.publicUrl,
    providers: accountingProviders(options.accounting),
    box: integrationTokenBox(options.authSecrets),
  };
  const mount = endpointMounter(app, options.db);

  mount(e.list, async ({ business }) => success(await listIntegrations(deps, business.id)));
  mount(e.connect, async ({ business, params, session, reply }) => {
    const { url, browserKey } = await startConnect(deps, { businessId: business.id, provider: params.provider, userId: session.user.id });
    reply.header('set-cookie', browserCookie(params.provider, browserKey, OAUTH_STATE_TTL_SECONDS, options.publicUrl));
    return success({ url });
  });
  mount(e.sync, async ({ business, params, reply }) => {
    reply.status(202);
    return success(await requestSync(deps, business.id, params.provider));
  });
  mount(e.disconnect, async ({ business, params, session }) =>
    success(
      await disconnect(deps, {
        businessId: business.id,
        provider: params.provider,
        actor: session.user.name || session.user.email,
        audit: userActor(session.user),
      }),
    ),
  );
  mount(e.log, async ({ business, params, query }) => success(await listLog(options.db, business.id, params.provider, query)));
  mount(e.logCsv, async ({ business, params, query, reply }) =>
    sendCsv(reply, logCsv(options.db, business.id, params.provider, query), `${params.provider}-sync-log.csv`),
  );
  mount(e.retryItem, async ({ business, params }) =>
    success(await retryItem(deps, { businessId: business.id, provider: params.provider, recordType: params.recordType, recordId: params.recordId })),
  );
  mount(e.linkPayer, async ({ business, params, body, session }) =>
    success(
      await linkPayer(deps, {
        businessId: business.id,
        provider: params.provider,
        payerId: params.payerId,
        remoteId: body.remoteId,
        actor: session.user.name || session.user.email,
      }),
    ),
  );

  await app.register(callbackRoute, { deps });
};

/**
 * The one-use cookie that binds an OAuth state to the browser that pressed Connect: HttpOnly, sent
 * only to the callback's path, and on the provider's top-level redirect back (SameSite=Lax).
 */
const cookieName = (provider: IntegrationProvider) => `tay_oauth_${provider}`;

function browserCookie(provider: IntegrationProvider, value: string, maxAgeSeconds: number, publicUrl: string): string {
  const secure = publicUrl.startsWith('https:') ? '; Secure' : '';
  return `${cookieName(provider)}=${value}; Path=/api/integrations/${provider}/callback; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure}`;
}

function cookieOf(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=') || undefined;
  }
  return undefined;
}

/**
 * Where the provider sends the browser back: always a redirect to the integrations page, saying
 * what happened. It finishes a Connect, so the person who pressed it must still hold that entry's
 * access in the table (`integrationEndpoints.connect`), read now: an owner demoted meanwhile
 * connects nothing.
 */
const callbackRoute: FastifyPluginAsyncZod<{ deps: IntegrationDeps }> = async (app, { deps }) => {
  app.get(
    INTEGRATION_CALLBACK_PATH,
    {
      schema: { params: IntegrationCallbackParams, querystring: IntegrationCallbackQuery, hide: true },
      // The browser comes here once per Connect; more than this from one address is not a person.
      config: { rateLimit: { max: 30, windowSeconds: 60 } },
    },
    async (request, reply) => {
      const provider = request.params.provider;
      const taken = await takeConnectState(deps, provider, request.query, cookieOf(request.headers.cookie, cookieName(provider)));
      const member = 'pending' in taken ? await memberHolding(deps.db, e.connect.access, taken.pending) : null;
      const location =
        'location' in taken ? taken.location : member ? await completeConnect(deps, provider, request.query, taken.pending, member) : connectRefused(provider);
      return reply
        .header('set-cookie', browserCookie(provider, '', 0, deps.publicUrl))
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .redirect(location, 303);
    },
  );
};
