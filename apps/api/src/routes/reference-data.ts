import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CodeListResponse, DirectoryBanksQuery, DirectoryBanksResponse, ErrorResponse } from '@tay/contract';
import { searchSandboxBanks } from '../domain/directory/sandbox-banks';
import { CORPORATE_STRUCTURES } from '../domain/reference/corporate-structures';
import { MCC_CODES } from '../domain/reference/mcc-codes';
import { NON_PROFIT_CODES } from '../domain/reference/non-profit-codes';
import { requireUser } from '../plugins/authenticate';

/** The lists change only with a release; a day in any cache is fine. */
const CACHE_CONTROL = 'public, max-age=86400';

/**
 * Reference lists of the setup forms (spec §7.6–7.8): public and cacheable. The bank directory
 * (link-account) is for signed-in users only.
 */
export const referenceDataRoutes: FastifyPluginAsyncZod = async (app) => {
  const lists = [
    ['/api/mcc', 'Merchant category codes (ISO 18245)', MCC_CODES],
    ['/api/corpStruct', 'Corporate structures', CORPORATE_STRUCTURES],
    ['/api/nonProfitCode', 'IRS non-profit (501) codes', NON_PROFIT_CODES],
  ] as const;
  for (const [url, summary, data] of lists) {
    app.get(
      url,
      { schema: { tags: ['reference'], summary, response: { 200: CodeListResponse } } },
      async (_request, reply) => {
        reply.header('cache-control', CACHE_CONTROL);
        return { status: 'Success' as const, data: [...data] };
      },
    );
  }

  app.get(
    '/api/directory/banks',
    {
      preHandler: requireUser,
      schema: {
        tags: ['reference'],
        summary: 'The sandbox bank directory, searched by name or routing number',
        security: [{ bearer: [] }],
        querystring: DirectoryBanksQuery,
        response: { 200: DirectoryBanksResponse, 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse },
      },
    },
    async (request) => ({ status: 'Success' as const, data: searchSandboxBanks(request.query.search) }),
  );
};
