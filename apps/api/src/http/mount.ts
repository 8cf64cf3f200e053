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
  subjectNeeds,
  type Access,
  type BodyOf,
  type BusinessRule,
  type BusinessState,
  type EndpointSpec,
  type NotApprovedMessages,
  type ParamsOf,
  type QueryOf,
  type ResponseInputOf,
  type RuleSubject,
} from '@tay/contract';
import type { DB } from '../db/schema';
import type { ScopedBusiness } from '../domain/businesses/business-scope';
import type { ActingUser } from '../domain/payment-requests/request-context';
import { shapedQuery, type Params } from '../db/shaped-query';
import { AppError } from '../lib/app-error';
import { withIdempotency } from '../lib/idempotency';
import { fileResponse } from '../plugins/openapi';
import { requireBearer, requireUser, type AuthSession } from '../plugins/authenticate';
import { readSubject } from './rule-subjects';

declare module 'fastify' {
  interface FastifyRequest {
    /** The business of a `business:*` endpoint, set by {@link mountEndpoint}. */
    business: ScopedBusiness | null;
  }
}

/** What the endpoint's subject rules read, as the mount read it when it admitted the request. */
export type Subjects = Partial<Record<RuleSubject, string>>;

/** What a handler receives: the parsed inputs, and who is calling for which business. */
export interface HandlerInput<E extends EndpointSpec> {
  params: ParamsOf<E>;
  query: QueryOf<E>;
  body: BodyOf<E>;
  request: FastifyRequest;
  reply: FastifyReply;
  /** The signed-in person (absent on public endpoints). */
  session: E['access'] extends 'public' ? null : AuthSession;
  /** Who acts, as the use cases and the audit log name them (absent on public endpoints). */
  actor: E['access'] extends 'public' ? null : ActingUser;
  business: E['access'] extends `business:${string}` ? ScopedBusiness : null;
  /** What the subject rules read (`member.role`: the role of the member the path names), undefined where nothing was found. */
  subjects: Subjects;
  /**
   * Asks the gate again with the session and membership as they are now: whether this request
   * would still be admitted. A stream that outlives its request (live updates) re-asks now and then.
   */
  readmit: () => Promise<boolean>;
}

/** A JSON endpoint's handler returns its body; a file endpoint's sends it on `reply` and returns that. */
export type Handler<E extends EndpointSpec> = (
  input: HandlerInput<E>,
) => Promise<E['response'] extends z.ZodType ? ResponseInputOf<E> | FastifyReply : FastifyReply>;

export type { ScopedBusiness };

/**
 * A money-moving POST that honours `Idempotency-Key` (ADR 024, `apps/api/src/lib/idempotency.ts`):
 * the same key and request get the stored answer (marked `Idempotent-Replayed`), the same key with
 * another request is refused (422), a twin still running is refused (409). The key is claimed
 * after the gate admitted the request, so nobody who may not act on the business holds or reads
 * its keys.
 */
export interface Idempotent<E extends EndpointSpec> {
  /** The key space: one per business and kind of command, so keys never meet across businesses. */
  scope: (business: ScopedBusiness) => string;
  /** What the key stands for: the same key with another of these is refused. The body when not said. */
  request?: (input: Pick<HandlerInput<E>, 'params' | 'query' | 'body'>) => unknown;
}

export interface MountOptions<E extends EndpointSpec = EndpointSpec> {
  /** Fastify route config (rate limits, body limit). */
  config?: RouteOptions['config'];
  bodyLimit?: number;
  /**
   * The handler's own statement checks the session and membership (the history list, ADR 010):
   * the request only needs a well-signed bearer token here. `apps/api/test/platform/endpoints.test.ts`
   * checks it answers as the shared check would.
   */
  checkedInStatement?: boolean;
  /** Honour `Idempotency-Key`: the handler returns its body, and the mount stores and sends it. */
  idempotent?: Idempotent<E>;
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
export function admit(endpoint: Pick<EndpointSpec, 'access' | 'rules' | 'notApproved'> & { refusal?: string | undefined }, business: ScopedBusiness): void {
  if (!roleAllows(business.role, endpoint.access)) {
    throw new AppError(ErrorCode.Forbidden, endpoint.refusal ?? roleRefusal(endpoint.access));
  }
  for (const rule of endpoint.rules ?? []) {
    const refusal = ruleRefusal(rule, business, endpoint.notApproved);
    if (refusal) throw refusal;
  }
}

/**
 * Reads what each subject rule of the endpoint reads and refuses as the value asks (its access,
 * then its rules), in the order the table lists them. Answers what was read.
 */
async function admitSubjects(db: Kysely<DB>, endpoint: EndpointSpec, request: FastifyRequest, business: ScopedBusiness): Promise<Subjects> {
  const subjects: Subjects = {};
  for (const rule of endpoint.subjectRules ?? []) {
    const value = await readSubject(db, rule.reads, request, business.id);
    subjects[rule.reads] = value;
    const needs = subjectNeeds(rule, value);
    if (needs) admit({ access: needs.access ?? endpoint.access, rules: needs.rules, notApproved: endpoint.notApproved, refusal: needs.refusal }, business);
  }
  return subjects;
}

/** The response with null in each place `paths` names (`data.owners[].ssnLast4`), copied along the way. */
function blank(value: unknown, path: readonly string[]): unknown {
  if (path.length === 0 || value === null || typeof value !== 'object') return path.length === 0 ? null : value;
  const [head, ...rest] = path as [string, ...string[]];
  const each = head.endsWith('[]');
  const key = each ? head.slice(0, -2) : head;
  const record = value as Record<string, unknown>;
  if (!Object.hasOwn(record, key)) return value;
  const inner = record[key];
  const next = each ? (Array.isArray(inner) ? inner.map((item) => blank(item, rest)) : inner) : blank(inner, rest);
  return { ...record, [key]: next };
}

/** The response as the caller's role may read it (the endpoint's `withheld`). */
function withhold(endpoint: EndpointSpec, business: ScopedBusiness | null, result: unknown): unknown {
  const { withheld } = endpoint;
  if (!withheld || !business || roleAllows(business.role, withheld.access)) return result;
  return withheld.paths.reduce((body, path) => blank(body, path.split('.')), result);
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

/**
 * The session and the business it acts on, or the refusal: 401 without a live session, 403 while
 * a temporary password waits to be replaced, 404 for a business the person is not a member of.
 * `onSession` receives the session as soon as it is known (a refusal about the business still
 * names who was refused).
 */
async function resolveBusiness(
  app: FastifyInstance,
  db: Kysely<DB>,
  request: FastifyRequest,
  businessId: string | undefined,
  onSession: (session: AuthSession) => void = () => {},
): Promise<{ session: AuthSession; business: ScopedBusiness }> {
  const token = app.sessions.token(request);
  if (!token) throw AppError.signInRequired();
  // No business named: the same as a business the person is not a member of.
  const row = (await db.executeQuery(sessionAndBusiness(db, null, { token, now: new Date(), businessId: businessId ?? '' }))).rows[0];
  if (!row) throw AppError.signInRequired();
  if (row.must_change_password) throw AppError.newPasswordRequired();
  const session: AuthSession = {
    user: { id: row.userId, email: row.email, name: row.name, mustChangePassword: row.must_change_password, ip: request.ip },
    sessionId: row.sessionId,
    token: row.token,
  };
  onSession(session);
  // Another business's id answers exactly as an id that does not exist.
  if (!row.role || !row.businessId) throw AppError.notFound('Business');
  const business: ScopedBusiness = {
    id: row.businessId,
    name: row.business_name!,
    state: row.state! as BusinessState,
    timeZone: row.time_zone!,
    defaultExpiryDays: row.default_expiry_days!,
    payoutEnabled: Boolean(row.payout_enabled),
    entityType: row.entity_type!,
    role: row.role,
  };
  return { session, business };
}

/** The whole gate of a business endpoint: who, which business, the access and rules, then the subject rules. */
async function admitBusinessRequest(
  app: FastifyInstance,
  db: Kysely<DB>,
  endpoint: EndpointSpec,
  request: FastifyRequest,
  onSession?: (session: AuthSession) => void,
): Promise<{ session: AuthSession; business: ScopedBusiness; subjects: Subjects }> {
  const { session, business } = await resolveBusiness(app, db, request, businessIdOf(request), onSession);
  admit(endpoint, business);
  return { session, business, subjects: await admitSubjects(db, endpoint, request, business) };
}

/** Answers a refusal as "no"; anything else (the database unreachable) is not an answer and is thrown. */
async function admitted(gate: () => Promise<unknown>): Promise<boolean> {
  try {
    await gate();
    return true;
  } catch (error) {
    if (error instanceof AppError) return false;
    throw error;
  }
}

const memberNow = shapedQuery((_: null, p: Params<{ businessId: string; userId: string }>, db) =>
  db
    .selectFrom('business_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.role', 'u.name', 'u.email'])
    .where('m.business_id', '=', p.businessId)
    .where('m.user_id', '=', p.userId),
);

/**
 * Whether a person's role in a business, read now, holds an access: for a call that carries no
 * session yet finishes an endpoint of the table — an accounting provider's OAuth callback finishes
 * the Connect its person started, and an owner demoted meanwhile connects nothing. Answers who they
 * are, or null.
 */
export async function memberHolding(
  db: Kysely<DB>,
  access: Access,
  { businessId, userId }: { businessId: string; userId: string },
): Promise<{ name: string; email: string } | null> {
  const row = (await db.executeQuery(memberNow(db, null, { businessId, userId }))).rows[0];
  return row && roleAllows(row.role, access) ? { name: row.name, email: row.email } : null;
}

const subjectsByRequest = new WeakMap<FastifyRequest, Subjects>();

/** Who acts, from the session. */
const actorOf = (session: AuthSession | null): ActingUser | null =>
  session ? { userId: session.user.id, email: session.user.email, ip: session.user.ip } : null;

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
 * Mounts one endpoint of the table: its access check, state rules and subject rules, then its
 * schema (validation, serialisation, OpenAPI), then the handler with typed input and its actor —
 * under its Idempotency-Key when it is idempotent — and the response as the caller's role may
 * read it. Handlers and use cases never check access again.
 */
export function mountEndpoint<E extends EndpointSpec>(
  app: FastifyInstance,
  db: Kysely<DB>,
  endpoint: E,
  handler: Handler<E>,
  options: MountOptions<E> = {},
): void {
  if (!app.hasRequestDecorator('business')) app.decorateRequest('business', null);
  const scoped = endpoint.access.startsWith('business:');
  if (scoped && !endpoint.path.startsWith('/api/businesses/:id') && !(endpoint.query as { shape?: Record<string, unknown> } | undefined)?.shape?.businessId) {
    throw new Error(`${endpoint.method} ${endpoint.path}: a business endpoint names its business as /api/businesses/:id or ?businessId=`);
  }
  const where = `${endpoint.method} ${endpoint.path}`;
  if (options.checkedInStatement && endpoint.access !== 'business:read') {
    throw new Error(`${where}: only reads may check access in their own statement`);
  }
  if (options.checkedInStatement && (endpoint.subjectRules || endpoint.withheld)) {
    throw new Error(`${where}: a read that checks access in its own statement has no subject rules and withholds nothing`);
  }
  if (endpoint.subjectRules && !scoped) throw new Error(`${where}: subject rules are read in a business`);
  const { idempotent } = options;
  const readsKey = Boolean((endpoint.headers as { shape?: Record<string, unknown> } | undefined)?.shape?.['idempotency-key']);
  if (idempotent && !(scoped && readsKey)) {
    throw new Error(`${where}: an idempotent endpoint is a business's, and declares the Idempotency-Key header`);
  }
  if (scoped && readsKey && !idempotent) throw new Error(`${where}: it declares the Idempotency-Key header, so it is mounted idempotent`);

  // Access is checked before the inputs are validated: a caller who may not use the endpoint
  // learns nothing from it, not even which body it would take (the edge's text check runs first).
  const preValidation = async function (this: FastifyInstance, request: FastifyRequest) {
    if (endpoint.access === 'public') return;
    if (!scoped) return requireUser.call(this, request);
    if (options.checkedInStatement) return requireBearer.call(this, request);
    const { business, subjects } = await admitBusinessRequest(this, db, endpoint, request, (session) => (request.session = session));
    request.business = business;
    subjectsByRequest.set(request, subjects);
  };
  const readmitOf = (app: FastifyInstance, request: FastifyRequest) => () =>
    admitted(async () => {
      if (endpoint.access === 'public') return;
      if (!scoped) return requireUser.call(app, request);
      await admitBusinessRequest(app, db, endpoint, request);
    });
  app.route({
    method: endpoint.method,
    url: endpoint.path,
    schema: routeSchema(endpoint) as RouteOptions['schema'],
    preValidation,
    ...(options.config ? { config: options.config } : {}),
    ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
    handler: async function (request, reply) {
      const input = {
        params: request.params,
        query: request.query,
        body: request.body,
        request,
        reply,
        session: request.session,
        actor: actorOf(request.session),
        business: request.business,
        subjects: subjectsByRequest.get(request) ?? {},
        readmit: readmitOf(this, request),
      } as HandlerInput<E>;
      const invoke = async () => withhold(endpoint, request.business, await handler(input));
      if (idempotent) {
        const result = await withIdempotency({
          db,
          scope: idempotent.scope(request.business!),
          key: request.headers['idempotency-key'] as string | undefined,
          request: idempotent.request ? idempotent.request(input) : input.body,
          run: async () => {
            const body = await invoke();
            if (body === reply || reply.sent) throw new Error(`${where}: an idempotent handler returns its body; the mount stores and sends it`);
            return { status: endpoint.status ?? 200, body };
          },
        });
        if (result.replayed) reply.header('idempotent-replayed', 'true');
        return reply.status(result.status).send(result.body);
      }
      const result = await invoke();
      if (result === reply || reply.sent) return reply;
      reply.code(endpoint.status ?? 200);
      return endpoint.status === 204 ? reply.send() : result;
    },
  });
}

/** {@link mountEndpoint} bound to an app and its database: what each area's routes file calls. */
export function endpointMounter(app: FastifyInstance, db: Kysely<DB>) {
  return <E extends EndpointSpec>(endpoint: E, handler: Handler<E>, options?: MountOptions<E>) => mountEndpoint(app, db, endpoint, handler, options);
}

/** `{ status: 'Success', data }`: the envelope of every JSON success. */
export const success = <T>(data: T) => ({ status: 'Success' as const, data });
