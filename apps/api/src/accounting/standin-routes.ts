import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { ErrorResponse, INTEGRATION_PROVIDER_LABELS, type IntegrationProvider } from '@tay/contract';
import type { DB } from '../db/schema';
import { AppError } from '../lib/app-error';
import { freshBooksStandIn } from './freshbooks/standin';
import type { ProviderSettings } from './port';
import { quickBooksStandIn } from './quickbooks/standin';
import { findCompany, findOrCreateCompany, listRecords, setSwitches, standInDb, switchesOf, type StandInDb } from './standin-store';

/**
 * The QuickBooks Online and FreshBooks stand-ins (ADR 041): mounted, each under
 * `/sandbox/<provider>`, when its settings point here (no client id configured). Each answers
 * the provider's real paths; beside them, the stand-in's own test endpoints (not the provider's):
 * `POST companies` (make or find one by name), `POST switches` (refuse tokens, rate limit, fail a
 * record, expire codes) and `GET records` (what a company holds).
 */

const STANDIN_PREFIX: Record<IntegrationProvider, string> = { quickbooks: '/sandbox/quickbooks', freshbooks: '/sandbox/freshbooks' };

const CompanyBody = z.object({ name: z.string().trim().min(1).max(100) });
const SwitchesBody = z.object({
  accountId: z.string().min(1).max(40),
  refuseTokens: z.boolean().optional(),
  rateLimit: z
    .object({ count: z.number().int().min(0).max(10_000), retryAfterSeconds: z.number().int().min(0).max(86_400) })
    .nullable()
    .optional(),
  failRecord: z
    .object({ match: z.string().min(1).max(500), message: z.string().min(1).max(1000) })
    .nullable()
    .optional(),
  expireCodes: z.boolean().optional(),
});
/** `refund`: QuickBooks' refund receipts, FreshBooks' credit notes. */
const RecordsQuery = z.object({ accountId: z.string().min(1).max(40), type: z.enum(['customer', 'invoice', 'payment', 'refund']) });

const CompanyAnswer = z.object({ accountId: z.string(), name: z.string() });
const SwitchesAnswer = z.object({
  accountId: z.string(),
  name: z.string(),
  refuseTokens: z.boolean(),
  rateLimit: z.object({ count: z.number().int(), retryAfterSeconds: z.number().int() }).nullable(),
  failRecord: z.object({ match: z.string(), message: z.string() }).nullable(),
  expireCodes: z.boolean(),
});
const RecordsAnswer = z.object({
  accountId: z.string(),
  type: RecordsQuery.shape.type,
  records: z.array(
    z.object({ id: z.string(), version: z.number().int(), body: z.record(z.string(), z.unknown()), createdAt: z.string(), updatedAt: z.string() }),
  ),
});

function testRoutes(app: FastifyInstance, db: StandInDb, provider: IntegrationProvider): void {
  const tags = [`${provider} stand-in`];
  const name = INTEGRATION_PROVIDER_LABELS[provider].name;

  app.post(
    '/companies',
    {
      schema: {
        tags,
        summary: `Makes or finds a ${name} stand-in company by name (test endpoint)`,
        body: CompanyBody,
        response: { 200: CompanyAnswer, 400: ErrorResponse },
      },
    },
    async (request) => {
      const { name: companyName } = request.body as z.infer<typeof CompanyBody>;
      const company = await findOrCreateCompany(db, provider, companyName);
      return { accountId: company.id, name: company.name };
    },
  );

  app.post(
    '/switches',
    {
      schema: {
        tags,
        summary: `Sets a ${name} stand-in company's test switches`,
        body: SwitchesBody,
        response: { 200: SwitchesAnswer, 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request) => {
      const { accountId, ...switches } = request.body as z.infer<typeof SwitchesBody>;
      const company = await setSwitches(db, provider, accountId, switches);
      if (!company) throw AppError.notFound(`${name} stand-in company`);
      return switchesOf(company);
    },
  );

  app.get(
    '/records',
    {
      schema: {
        tags,
        summary: `What a ${name} stand-in company holds, oldest first`,
        querystring: RecordsQuery,
        response: { 200: RecordsAnswer, 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request) => {
      const { accountId, type } = request.query as z.infer<typeof RecordsQuery>;
      const company = await findCompany(db, provider, accountId);
      if (!company) throw AppError.notFound(`${name} stand-in company`);
      const rows = await listRecords(db, company.id, type);
      return {
        accountId: company.id,
        type,
        records: rows.map((row) => ({
          id: row.id,
          version: row.version,
          body: row.body,
          createdAt: row.created_at.toISOString(),
          updatedAt: row.updated_at.toISOString(),
        })),
      };
    },
  );
}

export const accountingStandInRoutes: FastifyPluginAsync<{ db: Kysely<DB>; quickbooks: ProviderSettings | null; freshbooks: ProviderSettings | null }> = async (
  app,
  options,
) => {
  const db = standInDb(options.db);
  // The consent form and Intuit's token endpoint send form bodies; this scope (the stand-ins only) reads them.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(typeof body === 'string' ? body : body.toString('utf8'))));
  });
  for (const provider of ['quickbooks', 'freshbooks'] as const) {
    const settings = options[provider];
    if (!settings?.standIn) continue;
    const prefix = STANDIN_PREFIX[provider];
    // The settings' API URL is `${PUBLIC_URL}${prefix}` (config.ts): what is left is where codes may go back to.
    const publicUrl = settings.apiUrl.endsWith(prefix) ? settings.apiUrl.slice(0, -prefix.length) : new URL(settings.apiUrl).origin;
    const standIn = provider === 'quickbooks' ? quickBooksStandIn : freshBooksStandIn;
    await app.register(standIn, { prefix, db, settings, publicUrl });
    await app.register(
      async (scope) => {
        testRoutes(scope, db, provider);
      },
      { prefix },
    );
  }
};
