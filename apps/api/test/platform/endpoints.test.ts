import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as contract from '@tay/contract';
import {
  errorStatusesOf,
  isFileBody,
  MEMBER_ROLES,
  pathOf,
  roleAllows,
  roleRefusal,
  type BusinessRule,
  type EndpointSpec,
  type MemberRole,
  type RuleSubject,
  type SubjectNeeds,
  type SubjectRule,
} from '@tay/contract';
import { ruleRefusal } from '../../src/http/mount';
import { newId } from '../../src/lib/ids';
import { approvedBusiness } from '../support/approved-business';
import { completeSetup, createBusiness, request } from '../support/businesses';
import { errorOf, registeredUser } from '../support/identity';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * Walks the endpoint table (every `…Endpoints` export of the contract) and checks each entry
 * against what the running server does: the OpenAPI document lists it with the statuses it can
 * answer, and its access rule and state rules refuse exactly as declared; each value a subject
 * rule names (a batch's kind, an owner's role) is refused or admitted as declared for every role;
 * and what an endpoint withholds reaches only the roles it is for. A new endpoint is checked here
 * the moment it is declared.
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
/** Approved businesses of the student and healthcare templates (the owner's and the outsider's are standard). */
let school: { token: string; businessId: string };
let clinic: { token: string; businessId: string };

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
  school = await approvedBusiness(t.app, db, 'table-school@example.com', 'student');
  clinic = await approvedBusiness(t.app, db, 'table-clinic@example.com', 'healthCare');
}, 180_000);
afterAll(async () => t?.close());

/** What a call names besides the business: path parameters, query and body (a subject rule's fixture). */
interface Naming {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
}

/** Calls an endpoint as `token` for `businessId`; every other path parameter names nothing unless `naming` says. */
function call(endpoint: EndpointSpec, businessId: string, token?: string, naming: Naming = {}) {
  const params = Object.fromEntries(
    [...endpoint.path.matchAll(/:([A-Za-z]+)/g)].map(([, name]) => [name!, name === 'id' ? businessId : (naming.params?.[name!] ?? `${name}_none`)]),
  );
  const query = new URLSearchParams(naming.query);
  if ((endpoint.query as { shape?: Record<string, unknown> } | undefined)?.shape?.businessId) query.set('businessId', businessId);
  const search = query.size > 0 ? `?${query}` : '';
  const body = endpoint.method === 'GET' ? undefined : (naming.body ?? (endpoint.method === 'DELETE' ? undefined : {}));
  return t.app.inject({
    method: endpoint.method,
    url: `${pathOf(endpoint.path, params)}${search}`,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
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

/* ------------------------------------------------------------------ subject rules and withheld parts */

const db = () => t.runtime.database.db;

/** A Draft batch of `kind`, written directly (the batch engine has its own tests): one per call, as a call may discard it. */
async function insertBatch(businessId: string, kind: string): Promise<string> {
  const id = newId('bat');
  await db()
    .insertInto('batches')
    .values({
      business_id: businessId,
      id,
      kind: kind as never,
      file_name: 'walk.csv',
      file_bytes: 1,
      file_sha256: id,
      encoding: 'utf-8',
      delimiter: ',',
      columns: JSON.stringify(['a']) as never,
      file_rows: 0,
      mapping: JSON.stringify({ columns: {} }) as never,
      heartbeat_at: null,
      send_mode: null,
      send_at: null,
      submitted_at: null,
      submitted_by_user_id: null,
      submitted_by: null,
      processed_at: null,
      created_by_user_id: 'usr_walk',
      created_by: 'walk@example.com',
    })
    .execute();
  return id;
}

/** A member of the business with `role` (the owner's business has one of each). */
async function memberWith(businessId: string, role: string): Promise<string> {
  const row = await db()
    .selectFrom('business_members')
    .select('user_id')
    .where('business_id', '=', businessId)
    .where('role', '=', role as MemberRole)
    .executeTakeFirstOrThrow();
  return row.user_id;
}

/** An open invitation with `role`: one per call, as a call may withdraw it. */
async function insertInvitation(businessId: string, role: string): Promise<string> {
  const id = newId('inv');
  await db()
    .insertInto('business_invitations')
    .values({
      business_id: businessId,
      id,
      email: `${id}@invited.example`,
      role: role as MemberRole,
      token_hash: id,
      invited_by_user_id: 'usr_walk',
      invited_by: 'walk@example.com',
      expires_at: new Date(Date.now() + 86_400_000),
      accepted_at: null,
      revoked_at: null,
    })
    .execute();
  return id;
}

/** How to make a call whose subject reads `value` in a business. A new subject needs its line here. */
const FIXTURES: Record<RuleSubject, (value: string, businessId: string) => Promise<Naming>> = {
  'query.kind': async (value) => ({ query: { kind: value } }),
  'body.role': async (value) => ({ body: { role: value } }),
  'batch.kind': async (value, businessId) => ({ params: { batchId: await insertBatch(businessId, value) } }),
  'member.role': async (value, businessId) => ({ params: { userId: await memberWith(businessId, value) } }),
  'invitation.role': async (value, businessId) => ({ params: { invitationId: await insertInvitation(businessId, value) } }),
};

/** A business that breaks each rule a subject can ask for, and one that keeps it (each Approved). */
const breaking = (rule: BusinessRule) => {
  switch (rule) {
    case 'payoutsEnabled':
      return { breaks: outsider, keeps: owner };
    case 'studentTemplate':
      return { breaks: owner, keeps: school };
    case 'healthCareTemplate':
      return { breaks: owner, keeps: clinic };
    default:
      throw new Error(`No business in the walk breaks and keeps ${rule}: add them`);
  }
};

/** What a business that breaks the rule is told (the mount's words). */
const refusalOf = (rule: BusinessRule) => ruleRefusal(rule, { state: 'Approved', payoutEnabled: false, entityType: 'standard' })!;

function refusedBy(res: { statusCode: number; json(): unknown }, rule: BusinessRule): boolean {
  const refusal = refusalOf(rule);
  if (res.statusCode !== refusal.statusCode) return false;
  const error = errorOf(res);
  return error.code === refusal.code && error.message === refusal.message;
}

/** Admitted: no refusal about who is calling, and none of the rules the value asks for. */
function expectAdmitted(res: { statusCode: number; body: string; json(): unknown }, needs: SubjectNeeds) {
  expect([401, 403], res.body).not.toContain(res.statusCode);
  if (res.statusCode === 404) expect(errorOf(res).message).not.toBe('Business not found.');
  for (const rule of needs.rules ?? []) expect(refusedBy(res, rule), res.body).toBe(false);
}

const subjectCases = endpoints.flatMap(({ name, endpoint }) =>
  (endpoint.subjectRules ?? []).flatMap((rule: SubjectRule) =>
    Object.entries(rule.when).map(([value, needs]) => ({ name: `${name} when ${rule.reads} is ${value}`, endpoint, reads: rule.reads, value, needs: needs! })),
  ),
);

describe('the subject rules of the table', () => {
  it('are declared: batch kinds and the owners of a team', () => {
    expect(subjectCases.length).toBeGreaterThan(10);
  });

  for (const { name, endpoint, reads, value, needs } of subjectCases) {
    describe(name, () => {
      // In the owner's business (Approved, payouts enabled, standard template): every role.
      it.each(MEMBER_ROLES)('%s: allowed or refused as the table says', async (role) => {
        const res = await call(endpoint, owner.businessId, asRole[role], await FIXTURES[reads](value, owner.businessId));
        if (!roleAllows(role, endpoint.access)) {
          expect(res.statusCode, res.body).toBe(403);
          expect(errorOf(res)).toEqual({ code: 'FORBIDDEN', message: roleRefusal(endpoint.access) });
          return;
        }
        if (needs.access && !roleAllows(role, needs.access)) {
          expect(res.statusCode, res.body).toBe(403);
          expect(errorOf(res)).toEqual({ code: 'FORBIDDEN', message: needs.refusal ?? roleRefusal(needs.access) });
          return;
        }
        const broken = (needs.rules ?? []).find((rule) => breaking(rule).breaks === owner);
        if (broken) {
          expect(refusedBy(res, broken), res.body).toBe(true);
          return;
        }
        expectAdmitted(res, needs);
      });

      for (const rule of needs.rules ?? []) {
        it(`refuses a business that breaks ${rule}, and admits one that keeps it`, async () => {
          const { breaks, keeps } = breaking(rule);
          const refused = await call(endpoint, breaks.businessId, breaks.token, await FIXTURES[reads](value, breaks.businessId));
          expect(refusedBy(refused, rule), refused.body).toBe(true);
          const admitted = await call(endpoint, keeps.businessId, keeps.token, await FIXTURES[reads](value, keeps.businessId));
          expectAdmitted(admitted, needs);
        });
      }
    });
  }
});

/** Every value at `path` of a body (`data.owners[].ssnLast4`). */
function valuesAt(body: unknown, path: string): unknown[] {
  return path.split('.').reduce<unknown[]>(
    (values, segment) => {
      const each = segment.endsWith('[]');
      const key = each ? segment.slice(0, -2) : segment;
      return values.flatMap((value) => {
        const inner = value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
        return each ? (Array.isArray(inner) ? inner : []) : [inner];
      });
    },
    [body],
  );
}

describe.each(endpoints.filter(({ endpoint }) => endpoint.withheld))('$name withholds parts of its answer', ({ endpoint }) => {
  it.each(MEMBER_ROLES)('%s: reads them or gets null, as the table says', async (role) => {
    const res = await call(endpoint, owner.businessId, asRole[role]);
    expect(res.statusCode, res.body).toBe(endpoint.status ?? 200);
    for (const path of endpoint.withheld!.paths) {
      const values = valuesAt(res.json(), path);
      expect(values.length, path).toBeGreaterThan(0);
      if (roleAllows(role, endpoint.withheld!.access))
        expect(
          values.every((v) => v !== null && v !== undefined),
          path,
        ).toBe(true);
      else
        expect(
          values.every((v) => v === null),
          path,
        ).toBe(true);
    }
  });
});
