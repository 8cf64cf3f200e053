// PostgreSQL pass: the runtime role's grants.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { APP_ROLE } from '../../src/db/app-role';
import { CRON_QUEUE } from '../../src/jobs/queue';
import { startRuntime, type Runtime } from '../../src/runtime';
import { approvedBusiness, insertPayer } from '../support/approved-business';
import { withDatabase } from '../support/global-setup';
import { CARDS, insertRequest, pay, tokenize } from '../support/payments';
import { silentLogger } from '../support/silent-logger';
import { createTestApp, freshDatabaseUrl, type TestApp } from '../support/test-app';

// The ledger and the audit trail are append-only; that holds only if the app's own sessions
// cannot switch the rule off. They run as a role that owns nothing (ADR 022).

let t: TestApp;
let entry: { id: number; transaction_id: string; amount_cents: number };
let businessId: string;
const db = () => t.runtime.database.db;
const onPostgres = Boolean(process.env.DATABASE_URL);

beforeAll(async () => {
  t = await createTestApp();
  const biz = await approvedBusiness(t.app, db(), 'owner@db-role.example');
  businessId = biz.businessId;
  const payerId = await insertPayer(db(), businessId);
  const { payToken } = await insertRequest(db(), businessId, payerId, { amountCents: 4_200 });
  const paid = await pay(t.app, payToken, { method: 'card', processorToken: await tokenize(t.app, t.runtime, { card: CARDS.visa }), amountCents: 4_200 });
  expect(paid.statusCode, paid.body).toBe(201);
  entry = await db().selectFrom('journal_entries').select(['id', 'transaction_id', 'amount_cents']).orderBy('id').limit(1).executeTakeFirstOrThrow();
});
afterAll(async () => t?.close());

/** A connection of the app's own, as the pool opens them (not one of the pool's: some attempts change session state). */
async function appSession<T>(use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client(t.runtime.database.connection);
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

async function refused(client: pg.Client, statement: string, message?: RegExp) {
  const error = await client.query(statement).then(
    () => null,
    (e: unknown) => e as { code?: string; message: string },
  );
  expect(error, `${statement} was allowed`).not.toBeNull();
  expect(error!.code, `${statement}: ${error!.message}`).toBe('42501');
  if (message) expect(error!.message).toMatch(message);
}

/** What the app's session must never be able to do, whoever it managed to become. */
async function cannotRewriteTheRecord(client: pg.Client) {
  await refused(client, 'SET session_replication_role = replica');
  await refused(client, 'ALTER TABLE journal_entries DISABLE TRIGGER journal_entries_append_only', /must be owner/);
  await refused(client, 'ALTER TABLE journal_entries DISABLE TRIGGER ALL', /must be owner/);
  await refused(client, 'ALTER TABLE business_events DISABLE TRIGGER business_events_no_update_or_delete', /must be owner/);
  await refused(client, `UPDATE journal_entries SET amount_cents = amount_cents + 100 WHERE id = ${entry.id}`, /permission denied for table journal_entries/);
  await refused(client, `DELETE FROM journal_entries WHERE id = ${entry.id}`, /permission denied for table journal_entries/);
  await refused(
    client,
    `UPDATE journal_transactions SET description = 'rewritten' WHERE id = '${entry.transaction_id}'`,
    /permission denied for table journal_transactions/,
  );
  await refused(client, `DELETE FROM journal_transactions WHERE id = '${entry.transaction_id}'`, /permission denied for table journal_transactions/);
  await refused(client, `UPDATE business_events SET actor = 'someone else' WHERE business_id = '${businessId}'`, /permission denied for table business_events/);
  await refused(client, `DELETE FROM business_events WHERE business_id = '${businessId}'`, /permission denied for table business_events/);
  await refused(client, 'TRUNCATE journal_entries', /permission denied/);
  // Who viewed or exported a patient's record (migration 0050).
  await refused(client, `UPDATE patient_record_views SET actor = 'someone else'`, /permission denied for table patient_record_views/);
  await refused(client, 'DELETE FROM patient_record_views', /permission denied for table patient_record_views/);
  await refused(client, 'TRUNCATE patient_record_views', /permission denied/);
  await refused(client, 'CREATE TABLE scratch (id int)', /permission denied for schema public/);
  await refused(client, 'CREATE SCHEMA scratch', /permission denied/);
  await refused(client, 'DROP TABLE journal_entries', /must be owner/);
  await refused(client, 'ALTER TABLE payments ADD COLUMN scratch int', /must be owner/);
  await refused(client, 'CREATE FUNCTION scratch() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$', /permission denied for schema public/);
}

describe("the app's database session", () => {
  it('is its own role, not a superuser and not the owner', async () => {
    await appSession(async (client) => {
      const { rows } = await client.query<{ current: string; session: string; superuser: boolean }>(
        'SELECT current_user AS current, session_user AS session, rolsuper AS superuser FROM pg_roles WHERE rolname = current_user',
      );
      expect(rows[0]).toEqual({ current: APP_ROLE, session: APP_ROLE, superuser: false });
      expect(t.runtime.database.role).toBe(APP_ROLE);
    });
  });

  it("cannot switch the ledger's append-only rule off, change or remove posted entries, or change the schema", async () => {
    await appSession(cannotRewriteTheRecord);
    const after = await db()
      .selectFrom('journal_entries')
      .select(['id', 'transaction_id', 'amount_cents'])
      .where('id', '=', entry.id)
      .executeTakeFirstOrThrow();
    expect(after).toEqual(entry);
  });

  it('cannot become the superuser it may have been opened as, by any spelling', async () => {
    await appSession(async (client) => {
      const { rows } = await client.query<{ name: string }>('SELECT rolname AS name FROM pg_roles WHERE oid = 10');
      const superuser = rows[0]!.name;
      const attempts = [
        'RESET ROLE',
        `SET ROLE ${superuser}`,
        `SET SESSION AUTHORIZATION ${superuser}`,
        `set session session authorization '${superuser}'`,
        `SET session_authorization = '${superuser}'`,
        `SET "SESSION_AUTHORIZATION" TO ${superuser}`,
        `/* a comment */ set/**/"role" to ${superuser}`,
        `SELECT 1; SET ROLE ${superuser}`,
        `SELECT '; SET ROLE ${superuser}' AS s; -- ;\nSET ROLE ${superuser}`,
        'RESET SESSION AUTHORIZATION',
        'SET SESSION AUTHORIZATION DEFAULT',
        'DISCARD ALL',
        `SELECT set_config('role', '${superuser}', false)`,
        `SELECT set_config('session_authorization', '${superuser}', false)`,
        `DO $$ BEGIN EXECUTE 'SET SESSION AUTHORIZATION ${superuser}'; END $$`,
        `SET standard_conforming_strings = off`,
      ];
      for (const attempt of attempts) {
        await client.query(attempt).catch(() => {});
        const who = await client.query<{ current: string; session: string }>('SELECT current_user AS current, session_user AS session');
        expect(who.rows[0], attempt).toEqual({ current: APP_ROLE, session: APP_ROLE });
      }
      // In a transaction too, where SET LOCAL would last until its end.
      await client.query('BEGIN');
      await client.query(`SET LOCAL SESSION AUTHORIZATION ${superuser}`).catch(() => {});
      await client.query('ROLLBACK');
      await cannotRewriteTheRecord(client);
    });
  });

  it.skipIf(onPostgres)('on the embedded database, statements that would change the role are refused, and the session goes on', async () => {
    await appSession(async (client) => {
      await refused(client, 'SET SESSION AUTHORIZATION postgres', /SET SESSION AUTHORIZATION is refused/);
      await refused(client, "SET session_authorization = 'postgres'", /is refused/);
      await refused(client, 'RESET ROLE', /RESET ROLE is refused/);
      await refused(client, 'DISCARD ALL', /DISCARD is refused/);
      await refused(client, 'SET client_encoding = SJIS', /is refused/);
      await refused(client, "SELECT set_config('role', 'postgres', false)", /permission denied for function set_config/);
      await refused(client, "DO $$ BEGIN EXECUTE 'RESET ROLE'; END $$", /permission denied for language plpgsql/);
      await refused(client, 'CREATE TEMP TABLE scratch (id int)', /permission denied/);
      // A refusal inside a transaction fails it, as any error does; the session is then as before.
      await client.query('BEGIN');
      await refused(client, 'SET LOCAL ROLE postgres');
      await expect(client.query('SELECT 1')).rejects.toThrow(/current transaction is aborted/);
      await client.query('ROLLBACK');
      // Through the extended protocol too, as a named statement.
      await expect(client.query({ name: 'attempt', text: 'SET ROLE postgres' })).rejects.toMatchObject({
        code: '42501',
        message: expect.stringMatching(/SET ROLE is refused/),
      });
      expect((await client.query('SELECT current_user AS who, 1 + 1 AS two')).rows[0]).toEqual({ who: APP_ROLE, two: 2 });
    });
  });

  it("keeps the job queue's tables for the owner: the app only reads and writes their rows", async () => {
    const queues = await appSession(async (client) => {
      await refused(client, `SELECT pgboss.create_queue('scratch', '{"policy":"standard"}')`);
      return (await client.query<{ name: string }>('SELECT name FROM pgboss.queue ORDER BY name')).rows.map((r) => r.name);
    });
    // Made as the owner during migration, pg-boss's cron queue with ours.
    expect(queues).toContain(CRON_QUEUE);
    expect(queues).toContain('mail.deliver');
  });

  it.runIf(onPostgres)('as the owner, the triggers still refuse to change the ledger, the audit log or the record views (a second line)', async () => {
    const owner = new pg.Client({ connectionString: t.ownerUrl });
    await owner.connect();
    try {
      await expect(owner.query(`UPDATE journal_entries SET amount_cents = 1 WHERE id = ${entry.id}`)).rejects.toThrow(/append-only/);
      await expect(owner.query(`DELETE FROM business_events WHERE business_id = '${businessId}'`)).rejects.toThrow(/append-only/);
      await owner.query(
        `INSERT INTO patient_record_views (business_id, patient_id, actor, what) VALUES ('${businessId}', 'pat_owner_check', 'owner@db-role.example', 'record')`,
      );
      await expect(owner.query(`UPDATE patient_record_views SET actor = 'x' WHERE patient_id = 'pat_owner_check'`)).rejects.toThrow(/append-only/);
      await expect(owner.query(`DELETE FROM patient_record_views WHERE patient_id = 'pat_owner_check'`)).rejects.toThrow(/append-only/);
      await expect(owner.query('TRUNCATE patient_record_views')).rejects.toThrow(/append-only/);
    } finally {
      await owner.end();
    }
  });
});

describe.runIf(onPostgres)("DATABASE_URL of the app's own login", () => {
  let ownerUrl: string;
  let appUrl: string;
  let login: string;
  let admin: pg.Client;

  beforeAll(async () => {
    ownerUrl = (await freshDatabaseUrl())!;
    login = `tay_t_login_${randomBytes(5).toString('hex')}`;
    admin = new pg.Client({ connectionString: ownerUrl });
    await admin.connect();
    await admin.query(`CREATE ROLE ${login} LOGIN PASSWORD 'not-the-owners'`);
    const url = new URL(ownerUrl);
    url.username = login;
    url.password = 'not-the-owners';
    appUrl = url.toString();
  });
  afterAll(async () => {
    // The role has privileges in this database only: drop the database, then the role.
    const name = new URL(ownerUrl).pathname.slice(1);
    await admin.end();
    const server = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await server.connect();
    await server.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await server.query(`DROP ROLE IF EXISTS ${login}`);
    await server.end();
  });

  function start(urls: { DATABASE_URL: string; DATABASE_MIGRATION_URL?: string }) {
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: 'memory://', LOG_LEVEL: 'silent', ...urls });
    return startRuntime(config, { work: false, log: silentLogger });
  }

  async function appOnly(runtime: Runtime) {
    expect(runtime.database.role).toBe(login);
    const { rows } = await runtime.database.pool.query<{ who: string }>('SELECT current_user AS who');
    expect(rows[0]!.who).toBe(login);
    await expect(runtime.database.pool.query('SET session_replication_role = replica')).rejects.toMatchObject({ code: '42501' });
    await expect(runtime.database.pool.query('UPDATE journal_entries SET amount_cents = 1')).rejects.toThrow(/permission denied/);
    await expect(runtime.database.pool.query('CREATE TABLE scratch (id int)')).rejects.toThrow(/permission denied/);
    // What the app does, it can: write rows, queue a job.
    await runtime.database.pool.query(`INSERT INTO processor_events (event_id, type) VALUES ($1, 'charge.succeeded')`, [
      `evt_${randomBytes(4).toString('hex')}`,
    ]);
    expect(await runtime.jobs.send('maintenance.purge-outbox', {})).toEqual(expect.any(String));
  }

  it("with DATABASE_MIGRATION_URL: migrates as the owner and runs the app as DATABASE_URL's login, with the app's privileges only", async () => {
    const runtime = await start({ DATABASE_MIGRATION_URL: ownerUrl, DATABASE_URL: appUrl });
    try {
      await appOnly(runtime);
    } finally {
      await runtime.close();
    }
  });

  it('alone, once migrated: runs as that login and migrates nothing; with a migration pending it does not start', async () => {
    const runtime = await start({ DATABASE_URL: appUrl });
    try {
      await appOnly(runtime);
    } finally {
      await runtime.close();
    }
    const { rows } = await admin.query<{ version: string; file: string; checksum: string }>(
      'DELETE FROM schema_migrations WHERE version = (SELECT max(version) FROM schema_migrations) RETURNING version, file, checksum',
    );
    const last = rows[0]!;
    try {
      await expect(start({ DATABASE_URL: appUrl })).rejects.toThrow(
        new RegExp(`has not been migrated: ${last.file} not applied\\. Apply them with \`npm run db:migrate\`, DATABASE_MIGRATION_URL`),
      );
    } finally {
      await admin.query('INSERT INTO schema_migrations (version, file, checksum) VALUES ($1, $2, $3)', [last.version, last.file, last.checksum]);
    }
  });

  it('refuses to start when DATABASE_URL logs in as the owner beside DATABASE_MIGRATION_URL', async () => {
    const sameOwner = `${withDatabase(ownerUrl, new URL(ownerUrl).pathname.slice(1))}?application_name=tay-app`;
    await expect(start({ DATABASE_MIGRATION_URL: ownerUrl, DATABASE_URL: sameOwner })).rejects.toThrow(
      /The app's database role \w+ is a superuser.*DATABASE_MIGRATION_URL/s,
    );
  });
});
