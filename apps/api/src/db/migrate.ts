import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { repoRoot } from '../config';

export interface Migration {
  version: string;
  file: string;
  sql: string;
  checksum: string;
}

export function migrationsDir(): string {
  return path.join(repoRoot(), 'apps', 'api', 'migrations');
}

/** SQL files named `NNNN_description.sql`, applied in name order. */
export function loadMigrations(dir = migrationsDir()): Migration[] {
  return readdirSync(dir)
    .filter((name) => /^\d{4}_[a-z0-9_]+\.sql$/.test(name))
    .sort()
    .map((file) => {
      const sql = readFileSync(path.join(dir, file), 'utf8');
      return {
        version: file.slice(0, 4),
        file,
        sql,
        checksum: createHash('sha256').update(sql).digest('hex'),
      };
    });
}

// Any constant works; it only has to be the same in every process that migrates.
const MIGRATION_LOCK = 7_301_991;

/**
 * Runs `work` holding the migration lock, which keeps two processes from migrating (and granting)
 * at once.
 */
export async function withMigrationLock<T>(client: pg.ClientBase, work: () => Promise<T>): Promise<T> {
  await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
  try {
    return await work();
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
  }
}

/**
 * Applies every migration not yet recorded, each in its own transaction, on the owner's session
 * (which holds the migration lock: `withMigrationLock`). An applied file that was edited
 * afterwards is refused, because the database would no longer match the repository.
 */
export async function migrate(client: pg.ClientBase, migrations = loadMigrations()): Promise<string[]> {
  const applied: string[] = [];
  await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version text PRIMARY KEY,
    file text NOT NULL,
    checksum text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`);
  const done = await appliedMigrations(client);
  for (const migration of migrations) {
    const previous = done.get(migration.version);
    if (previous) {
      if (previous.checksum !== migration.checksum) throw changedAfterApplied(migration);
      continue;
    }
    await client.query('BEGIN');
    try {
      await client.query(migration.sql);
      await client.query('INSERT INTO schema_migrations (version, file, checksum) VALUES ($1, $2, $3)', [
        migration.version,
        migration.file,
        migration.checksum,
      ]);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw new Error(`Migration ${migration.file} failed: ${(error as Error).message}`, { cause: error });
    }
    applied.push(migration.file);
  }
  return applied;
}

/** The migrations not yet applied, read without migrating (by a session that may not). */
export async function pendingMigrations(client: pg.ClientBase | pg.Pool, migrations = loadMigrations()): Promise<string[]> {
  const done = await appliedMigrations(client);
  return migrations
    .filter((migration) => {
      const previous = done.get(migration.version);
      if (previous && previous.checksum !== migration.checksum) throw changedAfterApplied(migration);
      return !previous;
    })
    .map((migration) => migration.file);
}

async function appliedMigrations(client: pg.ClientBase | pg.Pool) {
  const { rows } = await client.query<{ version: string; file: string; checksum: string }>('SELECT version, file, checksum FROM schema_migrations');
  return new Map(rows.map((r) => [r.version, r]));
}

function changedAfterApplied(migration: Migration): Error {
  return new Error(`Migration ${migration.file} was changed after it was applied; add a new migration instead.`);
}
