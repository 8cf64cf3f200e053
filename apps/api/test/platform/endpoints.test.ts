import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as contract from '@tay/contract';
import { errorStatusesOf, isFileBody, MEMBER_ROLES, pathOf, roleAllows, type EndpointSpec, type MemberRole } from '@tay/contract';
import { approvedBusiness } from '../support/approved-business';
import { completeSetup, createBusiness, request } from '../support/businesses';
import { errorOf, registeredUser } from '../support/identity';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * Walks the endpoint table (every `…Endpoints` export of the contract) and checks each entry
 * against what the running server does: the OpenAPI document lists it with the statuses it can
 * answer, and its access rule and state rules refuse exactly as declared. A new endpoint is
 * checked here the moment it is declared.
 */

const tables = Object.entries(contract).filter(([name, value]) => name.endsWith('Endpoints') && typeof value === 'object') as [
  string,
  Record<string, EndpointSpec>,
][];
const endpoints = tables.flatMap(([table, entries]) => Object.entries(entries).map(([name, endpoint]) => ({ name: `${table}.${name}`, endpoint })));

/**
 * Routes that stay outside the table: identity (better-auth's routes and the two password routes
 * beside them, which check per-account limits before any session: `src/routes/auth.ts`), the
 * processor's webhooks, an accounting provider's OAuth callback (the browser arrives without our
 * token: `src/routes/integrations.ts`), the sandbox processor, the API's own documentation, and the development
 * mail viewer (`src/routes/dev-mail.ts`, never mounted in production).
 */
const OUTSIDE_THE_TABLE = [
  /^\/api\/auth\//,
  /^\/api\/webhooks\//,
  /^\/api\/integrations\/:provider\/callback$/,
  /^\/api\/sandbox\//,
  /^\/api\/docs/,
  /^\/api\/openapi\.json$/,
  /^\/api\/public-config$/,
  /^\/api\/dev\//,
];

const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z]+)/g, '{$1}');

let t: TestApp;
let owner: { token: string; businessId: string };
/** A signed-in person of each role in the owner's business. */
const asRole: Partial<Record<MemberRole, string>> = {};
let outsider: { token: string; businessId: string };
let incomplete: { token: string; businessId: string };
let pending: { token: string; businessId: string };

beforeAll(async () => {
  // The Pending business stays Pending however long the walk takes.
  t = await createTestApp({ SANDBOX_AUTO_APPROVE: 'false' });
  const db = t.runtime.database.db;
  owner = await approvedBusiness(t.app, db, 'table-owner@example.com');
  outsider = await approvedBusiness(t.app, db, 'table-outsider@example.com');
  // Operations enabled payouts for the owner's business only: the outsider's shows the rule refusing.
  await db.updateTable('businesses').set({ payout_enabled: 1 }).where('id', '=', owner.businessId).execute();
  asRole.owner = owner.token;
  for (const role of MEMBER_ROLES.filter((r) => r !== 'owner')) {
    asRole[role] = await registeredUser(t.app, `table-${role}@example.com`);
    const row = await db.selectFrom('users').select('id').where('email', '=', `table-${role}@example.com`).executeTakeFirstOrThrow();
    await db.insertInto('business_members').values({ business_id: owner.businessId, user_id: row.id, role }).execute();
  }

  const incompleteToken = await registeredUser(t.app, 'table-incomplete@example.com');
  incomplete = { token: incompleteToken, businessId: (await createBusiness(t.app, incompleteToken)).businessId };
  const pendingToken = await registeredUser(t.app, 'table-pending@example.com');
  const pendingId = (await createBusiness(t.app, pendingToken)).businessId;
  await completeSetup(t.app, pendingToken, pendingId);
  expect((await request(t.app, 'PATCH', `/api/businesses/${pendingId}/update/submit`, pendingToken, {})).statusCode).toBe(200);
  pending = { token: pendingToken, businessId: pendingId };
}, 120_000);
afterAll(async () => t?.close());

/** Calls an endpoint as `token` for `businessId`; every other path parameter names nothing. */
function call(endpoint: EndpointSpec, businessId: string, token?: string) {
  const params = Object.fromEntries([...endpoint.path.matchAll(/:([A-Za-z]+)/g)].map(([, name]) => [name!, name === 'id' ? businessId : `${name}_none`]));
  const query = (endpoint.query as { shape?: Record<string, unknown> } | undefined)?.shape?.businessId ? `?businessId=${businessId}` : '';
  return t.app.inject({
    method: endpoint.method,
    url: `${pathOf(endpoint.path, params)}${query}`,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(endpoint.method === 'GET' || endpoint.method === 'DELETE' ? {} : { payload: '{}' }),
  });
}

const isStream = (endpoint: EndpointSpec) => isFileBody(endpoint.response) && endpoint.response.contentTypes.includes('text/event-stream');

describe('the endpoint table', () => {
  it('has entries, each with a unique method and path', () => {
    expect(endpoints.length).toBeGreaterThan(10);
    const keys = endpoints.map(({ endpoint }) => `${endpoint.method} ${endpoint.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('the OpenAPI document lists every endpoint with its success and the failures its access and rules imply', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, { responses: Record<string, unknown>; security?: unknown[] }>>;
    };
    for (const { name, endpoint } of endpoints) {
      const operation = doc.paths[toOpenApiPath(endpoint.path)]?.[endpoint.method.toLowerCase()];
      expect(operation, `${name}: ${endpoint.method} ${endpoint.path} is in the OpenAPI document`).toBeDefined();
      const statuses = Object.keys(operation!.responses)
        .map(Number)
        .sort((a, b) => a - b);
      expect(statuses, name).toEqual([endpoint.status ?? 200, ...errorStatusesOf(endpoint)].sort((a, b) => a - b));
      expect(Boolean(operation!.security), `${name}: signed-in endpoints say they need the bearer token`).toBe(endpoint.access !== 'public');
    }
  });

  it('every API route the server has is in the table, or is named as outside it', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as { paths: Record<string, Record<string, unknown>> };
    const declared = new Set(endpoints.map(({ endpoint }) => `${endpoint.method} ${toOpenApiPath(endpoint.path)}`));
    const stray: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      const plain = path.replace(/\{([A-Za-z]+)\}/g, ':$1');
      if (!plain.startsWith('/api/')) continue; // the sandbox processor stands in for another company's API
      if (OUTSIDE_THE_TABLE.some((pattern) => pattern.test(plain))) continue;
      for (const method of Object.keys(operations)) {
        if (!declared.has(`${method.toUpperCase()} ${path}`)) stray.push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(stray).toEqual([]);
  });

  describe.each(endpoints.filter(({ endpoint }) => endpoint.access !== 'public'))('$name', ({ endpoint }) => {
    it('refuses a caller who is not signed in (401)', async () => {
      const res = await call(endpoint, owner.businessId);
      expect(res.statusCode, res.body).toBe(401);
      expect(errorOf(res).code).toBe('UNAUTHORIZED');
    });

    it('refuses a forged token (401)', async () => {
      const res = await call(endpoint, owner.businessId, 'not-a-real-session-token-at-all');
      expect(res.statusCode, res.body).toBe(401);
    });

    if (endpoint.access.startsWith('business:')) {
      it("answers another business's id as if it did not exist (404)", async () => {
        const res = await call(endpoint, owner.businessId, outsider.token);
        expect(res.statusCode, res.body).toBe(404);
        expect(errorOf(res)).toMatchObject({ code: 'NOT_FOUND', message: 'Business not found.' });
      });
    }

    if (endpoint.access.startsWith('business:')) {
      // The permission table, exhaustively: every role against this endpoint.
      it.each(MEMBER_ROLES.map((role) => ({ role, allowed: roleAllows(role, endpoint.access) })))(
        '$role: allowed $allowed, as the permission table says',
        async ({ role, allowed }) => {
          if (allowed && isStream(endpoint)) return; // an allowed stream stays open; its access is tested in the live-updates tests
          const res = await call(endpoint, owner.businessId, asRole[role]);
          if (!allowed) {
            expect(res.statusCode, res.body).toBe(403);
            expect(errorOf(res).code).toBe('FORBIDDEN');
            return;
          }
          expect([401, 403], res.body).not.toContain(res.statusCode);
          if (res.statusCode === 404) expect(errorOf(res).message).not.toBe('Business not found.');
        },
      );
    }

    if (endpoint.rules?.includes('approved')) {
      it('refuses a business that is not Approved (403 BUSINESS_NOT_APPROVED)', async () => {
        const res = await call(endpoint, incomplete.businessId, incomplete.token);
        expect(res.statusCode, res.body).toBe(403);
        expect(errorOf(res).code).toBe('BUSINESS_NOT_APPROVED');
      });
    }

    if (endpoint.rules?.includes('payoutsEnabled')) {
      it('refuses a business without payouts enabled (403 PAYOUTS_NOT_ENABLED)', async () => {
        const res = await call(endpoint, outsider.businessId, outsider.token);
        expect(res.statusCode, res.body).toBe(403);
        expect(errorOf(res).code).toBe('PAYOUTS_NOT_ENABLED');
      });
    }

    if (endpoint.rules?.includes('editable')) {
      it('refuses a business under review (409)', async () => {
        const res = await call(endpoint, pending.businessId, pending.token);
        expect(res.statusCode, res.body).toBe(409);
        expect(errorOf(res).code).toBe('CONFLICT');
      });
    }
  });
});
