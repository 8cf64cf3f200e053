import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import type { DB } from '../../src/db/schema';
import { approveBusiness } from '../../src/domain/businesses/approve-business';
import { OPERATIONS_ACTOR } from '../../src/domain/businesses/audit';
import { newId } from '../../src/lib/ids';
import { createMailer } from '../../src/mail/mailer';
import { completeSetup, createBusiness, request } from './businesses';
import { registeredUser } from './identity';
import { silentLogger } from './silent-logger';

export interface ApprovedBusiness {
  token: string;
  businessId: string;
  email: string;
}

/** A signed-in owner of an Approved business, set up through the real API and approved by operations. */
export async function approvedBusiness(app: FastifyInstance, db: Kysely<DB>, email: string, entityType = 'standard'): Promise<ApprovedBusiness> {
  const token = await registeredUser(app, email);
  const profile = await request(app, 'PATCH', '/api/user', token, { firstName: 'Owner', lastName: 'Person', mobileNumber: '+14155552671' });
  expect(profile.statusCode, profile.body).toBe(200);
  const { businessId } = await createBusiness(app, token, { businessName: `Biz ${email}`, entityType });
  await completeSetup(app, token, businessId);
  const submitted = await request(app, 'PATCH', `/api/businesses/${businessId}/update/submit`, token, {});
  expect(submitted.statusCode, submitted.body).toBe(200);
  // The approval e-mail goes to the same database's outbox, whatever mail server the app uses.
  const mailer = createMailer({
    db,
    jobs: { send: async () => null, insert: async () => undefined },
    log: silentLogger,
    smtpUrl: undefined,
    from: 'Tay <no-reply@tay.local>',
  });
  await approveBusiness({ db, businessId, actor: OPERATIONS_ACTOR, mail: { mailer, publicUrl: 'http://localhost:3000' } });
  return { token, businessId, email };
}

/** A payer of the business, written directly (the payer API has its own tests). */
export async function insertPayer(
  db: Kysely<DB>,
  businessId: string,
  over: Partial<{ email: string; displayName: string; status: 'active' | 'Disabled'; reference: string | null }> = {},
): Promise<string> {
  const id = newId('pyr');
  const email = over.email ?? `${id}@payers.example`;
  await db
    .insertInto('payers')
    .values({
      business_id: businessId,
      id,
      first_name: 'Pat',
      last_name: 'Payer',
      display_name: over.displayName ?? 'Pat Payer',
      email,
      mobile_number: null,
      reference: over.reference ?? null,
      status: over.status ?? 'active',
      verification_token_hash: null,
      verification_sent_at: null,
      verified_at: null,
      import_batch_id: null,
    })
    .execute();
  return id;
}

/**
 * A date n days from today, 'YYYY-MM-DD', in UTC. For dates the server compares with the
 * business's own day (expiry, due dates), use `dayIn` from './requests': between midnight UTC and
 * midnight in New York, UTC's yesterday is still the business's today.
 */
export function inDays(n: number): string {
  return new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
}
