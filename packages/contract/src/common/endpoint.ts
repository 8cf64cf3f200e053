import type { z } from 'zod';

/**
 * The endpoint table: every API endpoint is declared once, here in the contract, with its method,
 * path, inputs, response and the access it needs. The API mounts it (`apps/api/src/http/mount.ts`),
 * the OpenAPI document and the web client (`apps/web/src/lib/endpoint-client.ts`) are derived from
 * it, and `apps/api/test/platform/endpoints.test.ts` walks it. See ARCHITECTURE.md, "Adding an endpoint".
 */

/**
 * Who may call an endpoint.
 * - `public`: anyone (the payer's pages, health, reference lists).
 * - `user`: a signed-in person who has no temporary password left to replace.
 * - `business:read`: a member of the business in the path, any role (viewers included): read and export.
 * - `business:operate`: a member who runs the day's work — payers, requests to pay (owner, admin, member).
 * - `business:write`: a member who manages the business — its profile, logo, submission, the team (owner, admin).
 * - `business:owner`: an owner — the settlement bank account, integrations, the team's owners.
 * Which role holds which: {@link ROLE_ACCESS}, the one permission table. What a request names can
 * ask for more ({@link SubjectRule}: an owner's role is an owner's to change).
 */
export type Access = 'public' | 'user' | 'business:read' | 'business:operate' | 'business:write' | 'business:owner';

/** The roles a member of a business can hold, most powerful first. */
export const MEMBER_ROLES = ['owner', 'admin', 'member', 'viewer'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

/** How the app names each role, and what it may do, in one line each (the Team page and the invitation e-mail). */
export const ROLE_LABELS: Record<MemberRole, { label: string; description: string }> = {
  owner: { label: 'Owner', description: 'Everything, including the team, the settlement bank account and integrations.' },
  admin: { label: 'Admin', description: "Everything but the team's owners and the settlement bank account." },
  member: {
    label: 'Member',
    description: 'Adds payers and receivers, creates and sends requests to pay, prepares payouts for an owner or admin; approves nothing.',
  },
  viewer: { label: 'Viewer', description: 'Reads and exports only.' },
};

/** The one table of which role may do what. Everything that asks "may this member…" asks here: the API and the web app. */
export const ROLE_ACCESS: Record<MemberRole, readonly Access[]> = {
  owner: ['public', 'user', 'business:read', 'business:operate', 'business:write', 'business:owner'],
  admin: ['public', 'user', 'business:read', 'business:operate', 'business:write'],
  member: ['public', 'user', 'business:read', 'business:operate'],
  viewer: ['public', 'user', 'business:read'],
};

export function roleAllows(role: MemberRole, access: Access): boolean {
  return ROLE_ACCESS[role].includes(access);
}

/** What a role that may not call an endpoint is told (403 `FORBIDDEN`). */
export function roleRefusal(access: Access): string {
  switch (access) {
    case 'business:owner':
      return 'Only an owner of this business can do this.';
    case 'business:write':
      return 'Only an owner or admin of this business can do this.';
    default:
      return 'Your role in this business is view only: you can read and export, not change.';
  }
}

/**
 * Conditions on the business's state, checked after access. Each refuses with its own code:
 * - `approved`: the business is Approved (403 `BUSINESS_NOT_APPROVED`).
 * - `editable`: the business is Incomplete or Approved (409 `CONFLICT`, see `BUSINESS_EDITABLE_STATES`).
 * - `payoutsEnabled`: operations enabled payouts for it (403 `PAYOUTS_NOT_ENABLED`).
 * - `studentTemplate` / `healthCareTemplate`: the business's template (`entities[0].entityType`)
 *   is that one (404 `NOT_FOUND`, saying which template the endpoint belongs to).
 */
export type BusinessRule = 'approved' | 'editable' | 'payoutsEnabled' | 'studentTemplate' | 'healthCareTemplate';

export const BUSINESS_RULE_CODES: Record<BusinessRule, { status: number; code: string }> = {
  approved: { status: 403, code: 'BUSINESS_NOT_APPROVED' },
  editable: { status: 409, code: 'CONFLICT' },
  payoutsEnabled: { status: 403, code: 'PAYOUTS_NOT_ENABLED' },
  studentTemplate: { status: 404, code: 'NOT_FOUND' },
  healthCareTemplate: { status: 404, code: 'NOT_FOUND' },
};

/**
 * What a rule on the request's subject reads: something the request names, which decides what
 * else the endpoint needs. The mount reads it once the endpoint's own access and state rules have
 * passed, before the inputs are validated (`apps/api/src/http/rule-subjects.ts`):
 * - `query.kind`: the kind of batch the query names (a batch list or upload);
 * - `batch.kind`: the kind of the batch the path's `:batchId` names, in this business;
 * - `body.role`: the role the body gives (an invitation, a role change);
 * - `member.role`: the role of the member the path's `:userId` names, in this business;
 * - `invitation.role`: the role of the open invitation the path's `:invitationId` names.
 * Nothing found (no such batch, member or invitation) asks for nothing more: the handler answers.
 */
export type RuleSubject = 'query.kind' | 'batch.kind' | 'body.role' | 'member.role' | 'invitation.role';

/** What one value of a subject needs, besides the endpoint's own access and rules. */
export interface SubjectNeeds {
  access?: Access;
  rules?: readonly BusinessRule[];
  /** What a role that `access` refuses is told (403 `FORBIDDEN`); {@link roleRefusal}'s words when not said. */
  refusal?: string;
}

/** A rule on what the request names: the subject it reads and, for each value, what that value needs. */
export interface SubjectRule {
  reads: RuleSubject;
  when: Readonly<Partial<Record<string, SubjectNeeds>>>;
}

/** What a subject's value needs under `rule` (nothing for a value the rule does not name). */
export function subjectNeeds(rule: SubjectRule, value: string | undefined): SubjectNeeds | undefined {
  return value !== undefined && Object.hasOwn(rule.when, value) ? rule.when[value] : undefined;
}

/**
 * Parts of a response only some roles read: a role below `access` gets null in each place
 * `paths` names (`data.owners[].ssnLast4`: `[]` walks an array). The mount blanks them before the
 * response is serialised, so they never leave the server.
 */
export interface Withheld {
  access: Access;
  paths: readonly string[];
}

/** What an endpoint says when its business is not Approved: before approval, and once disabled. */
export interface NotApprovedMessages {
  pending: string;
  disabled: string;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A response body other than JSON: a file download or a stream. */
export interface FileBody {
  description: string;
  contentTypes: readonly string[];
  /** Text (CSV) rather than binary (PDF). */
  text?: boolean;
}

type Schema = z.ZodType;

export interface EndpointSpec {
  method: HttpMethod;
  /** Fastify-style path (`/api/businesses/:id/payers/:payerId`). */
  path: string;
  /** A short sentence for the OpenAPI document. */
  summary: string;
  /** More for the OpenAPI document, when the summary cannot say it. */
  description?: string;
  /** The OpenAPI tag: the area. */
  tag: string;
  access: Access;
  /** State rules for `business:*` endpoints. */
  rules?: readonly BusinessRule[];
  /** The `approved` rule's messages, in this endpoint's words. */
  notApproved?: NotApprovedMessages;
  /** Rules on what the request names (a batch's kind, the role a member holds or is given). */
  subjectRules?: readonly SubjectRule[];
  /** Parts of the response a role below an access gets as null. */
  withheld?: Withheld;
  params?: Schema;
  query?: Schema;
  body?: Schema;
  /** Request headers the endpoint reads (`Idempotency-Key`). */
  headers?: Schema;
  /** The success status; 200 unless said. */
  status?: 200 | 201 | 202 | 204;
  /** The JSON body of a success, or a file. */
  response: Schema | FileBody;
  /** Error statuses this endpoint can answer besides those its access and rules imply. */
  errors?: readonly number[];
}

/** Declares an endpoint, keeping every literal type so the server and client infer from it. */
export function defineEndpoint<const E extends EndpointSpec>(spec: E): E {
  return spec;
}

export function isFileBody(response: EndpointSpec['response']): response is FileBody {
  return typeof (response as FileBody).contentTypes !== 'undefined';
}

type Part = 'params' | 'query' | 'body';
type Parsed<E, K extends Part, Fallback> = E extends { [P in K]: infer S extends z.ZodType } ? z.output<S> : Fallback;
type Sent<E, K extends Part, Fallback> = E extends { [P in K]: infer S extends z.ZodType } ? z.input<S> : Fallback;

/** What the server's handler receives (parsed). */
export type ParamsOf<E extends EndpointSpec> = Parsed<E, 'params', Record<string, never>>;
export type QueryOf<E extends EndpointSpec> = Parsed<E, 'query', Record<string, never>>;
export type BodyOf<E extends EndpointSpec> = Parsed<E, 'body', undefined>;
/** What a caller sends (before defaults and transforms). */
export type ParamsInputOf<E extends EndpointSpec> = Sent<E, 'params', never>;
export type QueryInputOf<E extends EndpointSpec> = Sent<E, 'query', never>;
export type BodyInputOf<E extends EndpointSpec> = Sent<E, 'body', never>;
/** What a call sends: each part the endpoint declares, and nothing it does not. */
export type EndpointInputOf<E extends EndpointSpec> = (E extends { params: z.ZodType } ? { params: ParamsInputOf<E> } : { params?: undefined }) &
  (E extends { query: z.ZodType } ? { query: QueryInputOf<E> } : { query?: undefined }) &
  (E extends { body: z.ZodType } ? { body: BodyInputOf<E> } : { body?: undefined });
/** The success body (JSON endpoints). */
export type ResponseOf<E extends EndpointSpec> = E['response'] extends z.ZodType ? z.output<E['response']> : never;
export type ResponseInputOf<E extends EndpointSpec> = E['response'] extends z.ZodType ? z.input<E['response']> : never;

/** The statuses an endpoint can answer on failure, from its access, rules and own errors. */
export function errorStatusesOf(endpoint: EndpointSpec): number[] {
  const statuses = new Set<number>(endpoint.errors ?? []);
  if (endpoint.params || endpoint.query || endpoint.body) statuses.add(400);
  // A path parameter longer than the server takes (Fastify's maxParamLength) is 414 "The address is too long."
  if (endpoint.params) statuses.add(414);
  if (endpoint.access !== 'public') statuses.add(401).add(403);
  if (endpoint.access.startsWith('business:')) statuses.add(404);
  for (const rule of endpoint.rules ?? []) statuses.add(BUSINESS_RULE_CODES[rule].status);
  for (const { when } of endpoint.subjectRules ?? []) {
    for (const needs of Object.values(when)) for (const rule of needs?.rules ?? []) statuses.add(BUSINESS_RULE_CODES[rule].status);
  }
  return [...statuses].sort((a, b) => a - b);
}

/** The path with its `:params` filled in, each encoded. */
export function pathOf(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter "${name}" for ${path}`);
    return encodeURIComponent(String(value));
  });
}
