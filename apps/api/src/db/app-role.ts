import { createHmac } from 'node:crypto';
import type pg from 'pg';

/**
 * The app's sessions run as a role that owns nothing and may only read and write rows (ADR 022):
 * no DDL, no `session_replication_role`, no switching triggers off, and on the append-only tables
 * no UPDATE or DELETE. Migrations run as the schema's owner and grant the app what it needs.
 */

/** The app's role when DATABASE_URL is the owner's (no DATABASE_MIGRATION_URL), and on the embedded database. */
export const APP_ROLE = 'tay_app';

/**
 * Tables whose rows are the record: the app adds to them and reads them, and never changes or
 * removes a row. A migration that adds such a table adds it here too.
 */
export const APPEND_ONLY_TABLES = ['journal_transactions', 'journal_entries', 'business_events', 'patient_record_views', 'user_security_events'] as const;

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/**
 * Gives `role` exactly the app's privileges on the tables, sequences and functions of `schemas`,
 * whatever it had before (run after every migration, so new tables are covered). In one
 * transaction, so a running app never sees its privileges half-granted.
 */
export async function grantAppPrivileges(
  owner: pg.ClientBase,
  { role, schemas, embedded }: { role: string; schemas: string[]; embedded: boolean },
): Promise<void> {
  const r = quote(role);
  const all = schemas.map(quote).join(', ');
  const { rows } = await owner.query<{ db: string }>('SELECT current_database() AS db');
  const database = quote(rows[0]!.db);
  const statements = [
    `GRANT CONNECT ON DATABASE ${database} TO ${r}`,
    `REVOKE CREATE ON DATABASE ${database} FROM ${r}`,
    `GRANT USAGE ON SCHEMA ${all} TO ${r}`,
    `REVOKE CREATE ON SCHEMA ${all} FROM ${r}`,
    `REVOKE ALL ON ALL TABLES IN SCHEMA ${all} FROM ${r}`,
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${all} TO ${r}`,
    `REVOKE UPDATE, DELETE ON ${APPEND_ONLY_TABLES.join(', ')} FROM ${r}`,
    // The app checks what was applied (a second process on the embedded database) and nothing more.
    `REVOKE INSERT, UPDATE, DELETE ON schema_migrations FROM ${r}`,
    // The kinds of source a request may have are the migrations' to add (ADR 045).
    `REVOKE INSERT, UPDATE, DELETE ON request_source_kinds FROM ${r}`,
    `REVOKE ALL ON ALL SEQUENCES IN SCHEMA ${all} FROM ${r}`,
    `GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA ${all} TO ${r}`,
    `GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA ${all} TO ${r}`,
  ];
  if (embedded) {
    statements.push(
      // The embedded database has no autovacuum, and no other role anyone can reach: ANALYZE
      // (after a bulk load, as the bench does) has to be possible as the app.
      `GRANT MAINTAIN ON ALL TABLES IN SCHEMA ${all} TO ${r}`,
      // Its one session can take back the superuser it was opened as: close every way SQL
      // could get there indirectly (role-guard.ts refuses the direct ones). No temporary
      // objects (so no functions of its own), no DO blocks, no set_config().
      `REVOKE TEMPORARY ON DATABASE ${database} FROM PUBLIC`,
      `REVOKE USAGE ON LANGUAGE plpgsql FROM PUBLIC`,
      `REVOKE EXECUTE ON FUNCTION pg_catalog.set_config(text, text, boolean) FROM PUBLIC`,
      `ALTER ROLE ${r} RESET ALL`,
    );
  }
  await owner.query('BEGIN');
  try {
    for (const statement of statements) await owner.query(statement);
    await owner.query('COMMIT');
  } catch (error) {
    await owner.query('ROLLBACK');
    throw error;
  }
}

/**
 * DATABASE_URL alone is the owner's; the app logs in to the same database as APP_ROLE, with a
 * password derived from the owner's (so every process, and every database on the server, agrees
 * on it), or none when the owner's URL has none (trust or peer authentication).
 */
export function appLogin(ownerUrl: string): { url: string; password: string | null } {
  const url = new URL(ownerUrl);
  const ownerPassword = url.searchParams.get('password') ?? (url.password ? decodeURIComponent(url.password) : '');
  const password = ownerPassword ? createHmac('sha256', ownerPassword).update(`${APP_ROLE} login`).digest('base64url') : null;
  url.username = '';
  url.password = '';
  url.searchParams.set('user', APP_ROLE);
  if (password) url.searchParams.set('password', password);
  else url.searchParams.delete('password');
  return { url: url.toString(), password };
}

/**
 * Creates the app's login role if the server has none yet. Roles belong to the whole server, and
 * several databases (test runs, CI) may start at once: a role made meanwhile by another is fine.
 */
export async function ensureAppLogin(owner: pg.ClientBase, password: string | null): Promise<void> {
  const { rows } = await owner.query<{ rolcanlogin: boolean }>('SELECT rolcanlogin FROM pg_roles WHERE rolname = $1', [APP_ROLE]);
  if (rows[0]?.rolcanlogin) return;
  const options = `LOGIN PASSWORD ${password ? literal(password) : 'NULL'}`;
  try {
    await owner.query(rows[0] ? `ALTER ROLE ${quote(APP_ROLE)} ${options}` : `CREATE ROLE ${quote(APP_ROLE)} ${options}`);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === '42710' || code === '23505') return; // created by another process meanwhile
    if (code === '42501') {
      throw new Error(
        `DATABASE_URL's role may not create the app's role ${APP_ROLE} (it needs CREATEROLE). Create a login role for the app, ` +
          'then set DATABASE_MIGRATION_URL to the owner\'s URL and DATABASE_URL to the app\'s (README, "Running against PostgreSQL").',
        { cause: error },
      );
    }
    throw error;
  }
}

/** Sets the app's password again: the owner's password changed, or another owner's URL set it. */
export async function resetAppPassword(owner: pg.ClientBase, password: string | null): Promise<void> {
  await owner.query(`ALTER ROLE ${quote(APP_ROLE)} PASSWORD ${password ? literal(password) : 'NULL'}`);
}

/** The embedded database's app role: no login of its own, the session becomes it (PgliteServer.lockDown). */
export async function ensureEmbeddedRole(owner: pg.ClientBase): Promise<void> {
  const { rowCount } = await owner.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [APP_ROLE]);
  if (!rowCount) await owner.query(`CREATE ROLE ${quote(APP_ROLE)} NOLOGIN`);
}

/**
 * Before anything is granted to DATABASE_URL's login: it must be neither a superuser nor the
 * owner (nor able to act as the owner), or granting would only trim the owner's own privileges.
 */
export async function refuseOwnerAsApp(owner: pg.ClientBase, role: string, hint: string): Promise<void> {
  const { rows } = await owner.query<{ superuser: boolean; owner: boolean }>(
    `SELECT rolsuper AS superuser, pg_has_role($1, current_user, 'MEMBER') AS owner FROM pg_roles WHERE rolname = $1`,
    [role],
  );
  if (rows[0]?.superuser) throw new Error(`The app's database role ${role} is a superuser. ${hint}`);
  if (rows[0]?.owner) throw new Error(`The app's database role ${role} is the owner DATABASE_MIGRATION_URL logs in as (or a member of it). ${hint}`);
}

/** The role a URL logs in as (DATABASE_URL beside DATABASE_MIGRATION_URL). */
export async function loginRole(client: pg.ClientBase): Promise<string> {
  const { rows } = await client.query<{ role: string }>('SELECT current_user AS role');
  return rows[0]!.role;
}

/**
 * Refuses to run the app on a session that could rewrite the record: checked on every start, so
 * a DATABASE_URL that logs in as the owner (or a superuser, or a role that can make itself one)
 * stops the start instead of quietly running with the owner's powers.
 */
export async function checkAppSession(app: pg.Pool, hint: string): Promise<void> {
  const { rows } = await app.query<{
    role: string;
    superuser: boolean;
    createrole: boolean;
    owner: boolean;
    replication_role: boolean;
    creates: boolean;
    changes: string[];
  }>(
    `SELECT current_user AS role, r.rolsuper AS superuser, r.rolcreaterole AS createrole,
            EXISTS (SELECT 1 FROM unnest($1::text[]) t JOIN pg_class c ON c.oid = t::regclass
                     WHERE pg_has_role(current_user, c.relowner, 'USAGE')) AS owner,
            has_parameter_privilege('session_replication_role', 'SET') AS replication_role,
            has_schema_privilege('public', 'CREATE') OR has_database_privilege(current_database(), 'CREATE') AS creates,
            ARRAY(SELECT t FROM unnest($1::text[]) t
                   WHERE has_table_privilege(t, 'UPDATE') OR has_table_privilege(t, 'DELETE') OR has_table_privilege(t, 'TRUNCATE')) AS changes
       FROM pg_roles r WHERE r.rolname = current_user`,
    [APPEND_ONLY_TABLES],
  );
  const session = rows[0]!;
  const problems = [
    session.superuser && 'is a superuser',
    session.createrole && 'may create roles (and so join the owner)',
    session.owner && 'owns the tables (or is a member of their owner)',
    session.replication_role && 'may set session_replication_role',
    session.creates && 'may create tables or schemas',
    session.changes.length > 0 && `may update or delete rows of ${session.changes.join(', ')}`,
  ].filter(Boolean);
  if (problems.length > 0) {
    throw new Error(`The app's database role ${session.role} ${problems.join('; ')}. ${hint}`);
  }
}
