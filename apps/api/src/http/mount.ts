import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import {
  BUSINESS_RULE_CODES,
  ErrorCode,
  ErrorResponse,
  errorStatusesOf,
  isBusinessEditable,
  isFileBody,
  roleAllows,
  roleRefusal,
  type BodyOf,
  type BusinessRule,
  type BusinessState,
  type EndpointSpec,
  type NotApprovedMessages,
  type ParamsOf,
  type QueryOf,
  type ResponseInputOf,
} from '@tay/contract';
import type { DB } from '../db/schema';
import type { ScopedBusiness } from '../domain/businesses/business-scope';
import { shapedQuery, type Params } from '../db/shaped-query';
import { AppError } from '../lib/app-error';
import { fileResponse } from '../plugins/openapi';
import { requireBearer, requireUser, type AuthSession } from '../plugins/authenticate';

declare module 'fastify' {
  interface FastifyRequest {
    /** The business of a `business:*` endpoint, set by {@link mountEndpoint}. */
    business: ScopedBusiness | null;
  }
}

/** What a handler receives: the parsed inputs, and who is calling for which business. */
export interface HandlerInput<E extends EndpointSpec> {
  params: ParamsOf<E>;
  query: QueryOf<E>;
  body: BodyOf<E>;
  request: FastifyRequest;
  reply: FastifyReply;
  /** The signed-in person (absent on public endpoints). */
  session: E['access'] extends 'public' ? null : AuthSession;
  business: E['access'] extends `business:${string}` ? ScopedBusiness : null;
}

/** A JSON endpoint's handler returns its body; a file endpoint's sends it on `reply` and returns that. */
export type Handler<E extends EndpointSpec> = (
  input: HandlerInput<E>,
) => Promise<E['response'] extends z.ZodType ? ResponseInputOf<E> | FastifyReply : FastifyReply>;

export type { ScopedBusiness };

export interface MountOptions {
  /** Fastify route config (rate limits, body limit). */
  config?: RouteOptions['config'];
  bodyLimit?: number;
  /**
   * The handler's own statement checks the session and membership (the history list, ADR 010):
   * the request only needs a well-signed bearer token here. `apps/api/test/platform/endpoints.test.ts`
   * checks it answers as the shared check would.
   */
  checkedInStatement?: boolean;
}

const approvedMessages: NotApprovedMessages = {
  pending: 'This can be done once your business is approved. Finish and submit your business setup first.',
  disabled: 'Your business is disabled, so this cannot be done. Contact Tay support to enable it again.',
};

/** The one refusal per rule (contract `BUSINESS_RULE_CODES`). */
export function ruleRefusal(
  rule: BusinessRule,
  business: Pick<ScopedBusiness, 'state' | 'payoutEnabled' | 'entityType'>,
  messages?: NotApprovedMessages,
): AppError | null {
  const { status, code } = BUSINESS_RULE_CODES[rule];
  switch (rule) {
    case 'approved': {
      if (business.state === 'Approved') return null;
      const words = messages ?? approvedMessages;
      return new AppError(code, business.state === 'Disabled' ? words.disabled : words.pending, undefined, status);
    }
    case 'editable':
      if (isBusinessEditable(business.state)) return null;
      return new AppError(
        code,
        business.state === 'Pending'
          ? 'This business has been submitted and is being reviewed; its details cannot change until the review is finished.'
          : 'This business is disabled, so its details cannot change. Contact Tay support to reactivate it.',
        undefined,
        status,
      );
    case 'payoutsEnabled':
      if (business.payoutEnabled) return null;
      return new AppError(code, 'Payouts are not enabled for this business yet. Contact Tay support to enable them.', undefined, status);
    case 'studentTemplate':
      if (business.entityType === 'student') return null;
      return new AppError(code, 'Students, programs and billing cycles belong to the student template, and this business does not use it.', undefined, status);
    case 'healthCareTemplate':
      if (business.entityType === 'healthCare') return null;
      return new AppError(code, 'Patients and patient statements belong to the healthcare template, and this business does not use it.', undefined, status);
  }
}

/** Refuses a role the access does not allow, then each rule the business breaks. */
export function admit(endpoint: Pick<EndpointSpec, 'access' | 'rules' | 'notApproved'>, business: ScopedBusiness): void {
  if (!roleAllows(business.role, endpoint.access)) {
    throw new AppError(ErrorCode.Forbidden, roleRefusal(endpoint.access));
  }
  for (const rule of endpoint.rules ?? []) {
    const refusal = ruleRefusal(rule, business, endpoint.notApproved);
    if (refusal) throw refusal;
  }
}

/**
 * The session, the person, their membership of the business and the business's state in one
 * statement: a business endpoint costs one round trip before its own work.
 */
const sessionAndBusiness = shapedQuery((_: null, p: Params<{ token: string; now: Date; businessId: string }>, db) =>
  db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .leftJoin('business_members as m', (join) => join.onRef('m.user_id', '=', 'u.id').on('m.business_id', '=', p.businessId))
    .leftJoin('businesses as b', 'b.id', 'm.business_id')
    .select([
      's.id as sessionId',
      's.token',
      'u.id as userId',
      'u.email',
      'u.name',
      'u.must_change_password',
      'm.role',
      'b.id as businessId',
      'b.business_name',
      'b.state',
      'b.time_zone',
      'b.default_expiry_days',
      'b.payout_enabled',
      'b.entity_type',
    ])
    .where('s.token', '=', p.token)
    .where('s.expires_at', '>', p.now),
);

async function resolveBusiness(app: FastifyInstance, db: Kysely<DB>, request: FastifyRequest, businessId: string | undefined): Promise<void> {
  const token = app.sessions.token(request);
  if (!token) throw AppError.signInRequired();
  // No business named: the same as a business the person is not a member of.
  const row = (await db.executeQuery(sessionAndBusiness(db, null, { token, now: new Date(), businessId: businessId ?? '' }))).rows[0];
  if (!row) throw AppError.signInRequired();
  if (row.must_change_password) throw AppError.newPasswordRequired();
  request.session = {
    user: { id: row.userId, email: row.email, name: row.name, mustChangePassword: row.must_change_password, ip: request.ip },
    sessionId: row.sessionId,
    token: row.token,
  };
  // Another business's id answers exactly as an id that does not exist.
  if (!row.role || !row.businessId) throw AppError.notFound('Business');
  request.business = {
    id: row.businessId,
    name: row.business_name!,
    state: row.state! as BusinessState,
    timeZone: row.time_zone!,
    defaultExpiryDays: row.default_expiry_days!,
    payoutEnabled: Boolean(row.payout_enabled),
    entityType: row.entity_type!,
    role: row.role,
  };
}

/** The business a request names: the path's `:id`, or `?businessId=` (the payer typeahead). */
function businessIdOf(request: FastifyRequest): string | undefined {
  const id = (request.params as { id?: unknown }).id ?? (request.query as { businessId?: unknown } | undefined)?.businessId;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/** The OpenAPI and validation schema of an endpoint, from its table entry. */
export function routeSchema(endpoint: EndpointSpec) {
  const success =
    endpoint.status === 204
      ? z.undefined()
      : isFileBody(endpoint.response)
        ? fileResponse(endpoint.response.description, endpoint.response.contentTypes, { text: endpoint.response.text ?? false })
        : endpoint.response;
  const response: Record<number, unknown> = { [endpoint.status ?? 200]: success };
  for (const status of errorStatusesOf(endpoint)) response[status] = ErrorResponse;
  return {
    tags: [endpoint.tag],
    summary: endpoint.summary,
    ...(endpoint.description ? { description: endpoint.description } : {}),
    ...(endpoint.access === 'public' ? {} : { security: [{ bearer: [] }] }),
    ...(endpoint.params ? { params: endpoint.params } : {}),
    ...(endpoint.query ? { querystring: endpoint.query } : {}),
    ...(endpoint.body ? { body: endpoint.body } : {}),
    ...(endpoint.headers ? { headers: endpoint.headers } : {}),
    response,
  };
}

/**
 * Mounts one endpoint of the table: its access check and rules, then its schema (validation,
 * serialisation, OpenAPI), then the handler with typed input. Handlers never check access again.
 */
export function mountEndpoint<E extends EndpointSpec>(
  app: FastifyInstance,
  db: Kysely<DB>,
  endpoint: E,
  handler: Handler<E>,
  options: MountOptions = {},
): void {
  if (!app.hasRequestDecorator('business')) app.decorateRequest('business', null);
  const scoped = endpoint.access.startsWith('business:');
  if (scoped && !endpoint.path.startsWith('/api/businesses/:id') && !(endpoint.query as { shape?: Record<string, unknown> } | undefined)?.shape?.businessId) {
    throw new Error(`${endpoint.method} ${endpoint.path}: a business endpoint names its business as /api/businesses/:id or ?businessId=`);
  }
  if (options.checkedInStatement && endpoint.access !== 'business:read') {
    throw new Error(`${endpoint.method} ${endpoint.path}: only reads may check access in their own statement`);
  }
  // Access is checked before the inputs are validated: a caller who may not use the endpoint
  // learns nothing from it, not even which body it would take (the edge's text check runs first).
  const preValidation = async function (this: FastifyInstance, request: FastifyRequest) {
    if (endpoint.access === 'public') return;
    if (!scoped) return requireUser.call(this, request);
    if (options.checkedInStatement) return requireBearer.call(this, request);
    await resolveBusiness(this, db, request, businessIdOf(request));
    admit(endpoint, request.business!);
  };
  app.route({
    method: endpoint.method,
    url: endpoint.path,
    schema: routeSchema(endpoint) as RouteOptions['schema'],
    preValidation,
    ...(options.config ? { config: options.config } : {}),
    ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
    handler: async (request, reply) => {
      const result = await handler({
        params: request.params,
        query: request.query,
        body: request.body,
        request,
        reply,
        session: request.session,
        business: request.business,
      } as HandlerInput<E>);
      if (result === reply || reply.sent) return reply;
      reply.code(endpoint.status ?? 200);
      return endpoint.status === 204 ? reply.send() : result;
    },
  });
}

/** {@link mountEndpoint} bound to an app and its database: what each area's routes file calls. */
export function endpointMounter(app: FastifyInstance, db: Kysely<DB>) {
  return <E extends EndpointSpec>(endpoint: E, handler: Handler<E>, options?: MountOptions) => mountEndpoint(app, db, endpoint, handler, options);
}

/** `{ status: 'Success', data }`: the envelope of every JSON success. */
export const success = <T>(data: T) => ({ status: 'Success' as const, data });
