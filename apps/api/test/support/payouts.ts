import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../src/db/schema';
import { bankAccountNumberBox } from '../../src/domain/businesses/add-bank-account';
import { postCapture, postSettlement } from '../../src/domain/ledger/post';
import { receiverAccountContext } from '../../src/domain/receivers/account-context';
import { newId } from '../../src/lib/ids';
import { authSecretsOf } from '../../src/lib/secret-box';
import type { Runtime } from '../../src/runtime';
import { registeredUser } from './identity';
import { approvedBusiness, type ApprovedBusiness } from './approved-business';
import { insertNew } from '../../src/db/owned-rows';

/** A Pending payout row written straight to the table (no ledger hold): a receiver named by a payout, for tests of what that changes. */
export async function insertPayoutRow(
  db: Kysely<DB>,
  businessId: string,
  receiver: { receiverId: string; name: string; email: string },
  over: { id?: string; amountCents?: number } = {},
): Promise<string> {
  const id = over.id ?? newId('po');
  await db
    .insertInto('payouts')
    .values({
      business_id: businessId,
      id,
      number: 1000,
      receiver_id: receiver.receiverId,
      receiver_name: receiver.name,
      receiver_email: receiver.email,
      amount_cents: over.amountCents ?? 1000,
      pay_on: null,
      batch_id: null,
      event_id: null,
      reject_reason: null,
      failure_reason: null,
      processor_payout_id: null,
      created_by: null,
      submitted_by: null,
      submitted_at: null,
      approved_by: null,
      approved_at: null,
      processed_at: null,
      finished_at: null,
    })
    .execute();
  return id;
}

/** Operations turned payouts on for the business (what `ops enable-payouts` does). */
export async function enablePayouts(db: Kysely<DB>, businessId: string, on = true): Promise<void> {
  await db
    .updateTable('businesses')
    .set({ payout_enabled: on ? 1 : 0 })
    .where('id', '=', businessId)
    .execute();
}

export interface ReceiverOptions {
  email?: string;
  firstName?: string;
  lastName?: string;
  /** The account number the receiver entered (sealed as the public page does); null: unverified. */
  accountNumber?: string | null;
  status?: 'active' | 'Disabled';
  reference?: string;
  /** Reviewed by an owner or admin (the default), or not: as a member or a check-in leaves one. */
  reviewed?: boolean;
  addedVia?: 'team' | 'check_in';
}

/** A receiver of the business, written directly, with its account number sealed like the real page seals it. */
export async function insertReceiver(runtime: Runtime, businessId: string, over: ReceiverOptions = {}): Promise<string> {
  const id = newId('rcv');
  const accountNumber = over.accountNumber === undefined ? '000123456789' : over.accountNumber;
  const box = bankAccountNumberBox(authSecretsOf(runtime.config));
  const firstName = over.firstName ?? 'Riley';
  const lastName = over.lastName ?? 'Receiver';
  await runtime.database.db
    .insertInto('receivers')
    .values({
      business_id: businessId,
      id,
      first_name: firstName,
      last_name: lastName,
      email: over.email ?? `${id}@receivers.example`,
      mobile: null,
      reference: over.reference ?? null,
      verification: accountNumber ? 'verified' : 'unverified',
      status: over.status ?? 'active',
      bank_name: accountNumber ? 'Tay Sandbox Bank' : null,
      routing_number: accountNumber ? '222096656' : null,
      account_number_last4: accountNumber ? accountNumber.slice(-4) : null,
      account_number_encrypted: accountNumber ? box.seal(accountNumber, receiverAccountContext(businessId, id)) : null,
      account_type: accountNumber ? 'checking' : null,
      account_holder_name: accountNumber ? `${firstName} ${lastName}` : null,
      bank_set_at: accountNumber ? new Date() : null,
      link_token_hash: null,
      link_expires_at: null,
      link_sent_at: null,
      created_by: null,
      added_via: over.addedVia ?? 'team',
      reviewed_at: over.reviewed === false ? null : new Date(),
    })
    .execute();
  return id;
}

/** Puts `cents` in the business's available balance: a made-up payment captured and settled, no fee. */
export async function fund(db: Kysely<DB>, businessId: string, cents: number): Promise<void> {
  const input = { businessId, paymentId: newId('pay'), amountCents: cents, feeCents: 0, description: 'Test funding' };
  await db.transaction().execute(async (trx) => {
    await postCapture(trx, input);
    await postSettlement(trx, input);
  });
}

/** A payouts batch of the business, as the bulk engine records one (its rows do not matter). */
export async function insertPayoutBatch(db: Kysely<DB>, businessId: string): Promise<string> {
  const id = await insertNew(db, 'batches', 'bat', () => ({
    business_id: businessId,
    kind: 'payouts' as const,
    file_name: 'payouts.csv',
    file_bytes: 20,
    file_sha256: '0'.repeat(64),
    encoding: 'utf-8',
    delimiter: ',',
    columns: JSON.stringify(['Email', 'Amount']) as never,
    file_rows: 1,
    mapping: JSON.stringify({ payer: 'existing', columns: { email: 'Email', amount: 'Amount' } }) as never,
    send_mode: null,
    send_at: null,
    heartbeat_at: null,
    submitted_at: null,
    submitted_by_user_id: null,
    submitted_by: null,
    processed_at: null,
    created_by_user_id: 'usr_test',
    created_by: 'test',
  }));
  return id;
}

/** Another signed-in member of the business with this role. */
export async function addMember(app: FastifyInstance, db: Kysely<DB>, businessId: string, email: string, role: 'admin' | 'member' | 'viewer'): Promise<string> {
  const token = await registeredUser(app, email);
  const user = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
  await db.insertInto('business_members').values({ business_id: businessId, user_id: user.id, role }).execute();
  return token;
}

/** The secure link's token in the latest of these mails (the outbox lists the newest first). */
export function linkTokenOf(messages: { text: string }[]): string {
  const last = messages.map((m) => m.text).find((text) => text.includes('/receiver/bank-account/'));
  const match = last?.match(/\/receiver\/bank-account\/([A-Za-z0-9_-]+)/);
  if (!match) throw new Error('No bank-account link was e-mailed');
  return match[1]!;
}

/** Every table whose rows (as text) hold `needle`: where a secret would have leaked. */
export async function tablesHolding(db: Kysely<DB>, needle: string): Promise<string[]> {
  const { rows: tables } = await sql<{ table_name: string }>`
    SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`.execute(db);
  const found: string[] = [];
  for (const { table_name } of tables) {
    const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM ${sql.table(table_name)} t WHERE t::text LIKE ${`%${needle}%`}`.execute(db);
    if (Number(rows[0]!.n) > 0) found.push(table_name);
  }
  return found;
}

/** The businesses a payouts area's tests act in: `biz` and `other` with payouts on, `off` without (e-mails `owner@<tag>.example` and so on). */
export async function payoutBusinesses(
  app: FastifyInstance,
  db: Kysely<DB>,
  tag: string,
): Promise<{ biz: ApprovedBusiness; other: ApprovedBusiness; off: ApprovedBusiness }> {
  const biz = await approvedBusiness(app, db, `owner@${tag}.example`);
  const other = await approvedBusiness(app, db, `owner@other-${tag}.example`);
  const off = await approvedBusiness(app, db, `owner@no-${tag}.example`);
  await enablePayouts(db, biz.businessId);
  await enablePayouts(db, other.businessId);
  return { biz, other, off };
}

/** A check-in at an event's public page, from the address given (each test its own, so the page's rate limit is not shared). */
export function checkInAt(app: FastifyInstance, token: string, body: Record<string, unknown>, from: string) {
  return app.inject({
    method: 'POST',
    url: `/api/public/checkin/${token}`,
    remoteAddress: from,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
}
