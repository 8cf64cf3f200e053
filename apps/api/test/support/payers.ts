import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { approveBusiness } from '../../src/domain/businesses/approve-business';
import { OPERATIONS_ACTOR } from '../../src/domain/businesses/audit';
import type { Runtime } from '../../src/runtime';
import { completeSetup, createBusiness, request } from './businesses';
import { get, registeredUser } from './identity';

export interface ApprovedBusiness {
  token: string;
  businessId: string;
}

/** A signed-in owner of a complete, submitted business that operations approved. */
export async function approvedBusiness(app: FastifyInstance, runtime: Runtime, email: string, businessName = 'Acme Payers'): Promise<ApprovedBusiness> {
  const token = await registeredUser(app, email);
  const { businessId } = await createBusiness(app, token, { businessName, entityType: 'standard' });
  await completeSetup(app, token, businessId);
  const submitted = await request(app, 'PATCH', `/api/businesses/${businessId}/update/submit`, token);
  expect(submitted.statusCode, submitted.body).toBe(200);
  await approveBusiness({
    db: runtime.database.db,
    businessId,
    actor: OPERATIONS_ACTOR,
    mail: { mailer: runtime.mailer, publicUrl: runtime.config.publicUrl },
  });
  return { token, businessId };
}

export function send(app: FastifyInstance, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, token?: string, payload?: unknown) {
  return app.inject({
    method,
    url,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });
}

/** The newest verification link e-mailed to `email`, and its token. */
export async function verificationLink(app: FastifyInstance, email: string): Promise<{ link: string; token: string; count: number }> {
  const messages = (await get(app, `/api/dev/outbox?to=${encodeURIComponent(email)}`)).json() as { subject: string; text: string }[];
  const links = messages.filter((m) => m.subject.includes('confirm your e-mail address')).map((m) => m.text.match(/(https?:\/\/\S+\/pay\/verify\/(\S+))/));
  const newest = links[0];
  if (!newest) throw new Error(`No verification link e-mailed to ${email}`);
  return { link: newest[1]!, token: decodeURIComponent(newest[2]!), count: links.length };
}
