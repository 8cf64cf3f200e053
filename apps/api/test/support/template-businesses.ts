import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import type { DB } from '../../src/db/schema';
import { approvedBusiness, type ApprovedBusiness } from './approved-business';
import { errorOf } from './identity';
import { addMember } from './payouts';
import { call } from './requests';

/** The businesses a template's tests act in and against. */
export interface TemplateBusinesses {
  /** The business of the template the test acts in, as its owner (`owner@<tag>.example`). */
  biz: ApprovedBusiness;
  /** Another business of the same template: its ids must answer 404 from `biz`. */
  other: ApprovedBusiness;
  /** A business of the standard template, which has none of the template's pages. */
  standard: ApprovedBusiness;
  /** A viewer of `biz` (`viewer@<tag>.example`): reads, never writes. */
  viewerToken: string;
}

/** Approved businesses for a template's tests, each signed in, named after `tag` so a file's e-mails are its own. */
export async function templateBusinesses(app: FastifyInstance, db: Kysely<DB>, template: 'student' | 'healthCare', tag: string): Promise<TemplateBusinesses> {
  const biz = await approvedBusiness(app, db, `owner@${tag}.example`, template);
  const other = await approvedBusiness(app, db, `owner@other-${tag}.example`, template);
  const standard = await approvedBusiness(app, db, `owner@shop-${tag}.example`);
  const viewerToken = await addMember(app, db, biz.businessId, `viewer@${tag}.example`, 'viewer');
  return { biz, other, standard, viewerToken };
}

/**
 * A viewer may not change a template's party (a student, a patient): adding one, editing,
 * deleting and deactivating `id` are each refused with 403, and the party is still active
 * after them, as its owner reads it.
 */
export async function expectPartyReadOnly(
  app: FastifyInstance,
  base: string,
  id: string,
  tokens: { viewer: string; owner: string },
  input: () => unknown,
): Promise<void> {
  for (const [method, suffix, body] of [
    ['POST', '', input()],
    ['PATCH', `/${id}`, input()],
    ['DELETE', `/${id}`, undefined],
    ['POST', `/${id}/deactivate`, undefined],
  ] as const) {
    const res = await call(app, method, `${base}${suffix}`, tokens.viewer, body);
    expect(res.statusCode, `${method} ${suffix}`).toBe(403);
  }
  const after = await call(app, 'GET', `${base}/${id}`, tokens.owner);
  expect(after.json().data.status).toBe('active');
}

/** A call a test makes: the method, the URL and the body it sends. */
export type EndpointCall = [method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown];

/**
 * Each call, made with `token` (a business of another template), is answered 404 with a message
 * that says which template the endpoints belong to (`words`, e.g. /student template/).
 */
export async function expectOtherTemplateRefused(app: FastifyInstance, token: string, calls: EndpointCall[], words: RegExp): Promise<void> {
  for (const [method, url, body] of calls) {
    const res = await call(app, method, url, token, body);
    expect(res.statusCode, `${method} ${url}`).toBe(404);
    expect(errorOf(res).message).toMatch(words);
  }
}
