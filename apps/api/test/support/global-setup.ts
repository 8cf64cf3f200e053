import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { loadConfig } from '../../src/config';
import { startRuntime } from '../../src/runtime';
import { silentLogger } from './silent-logger';

/**
 * On PostgreSQL (DATABASE_URL set) the suite builds one migrated template database; every test
 * file then gets its own copy (CREATE DATABASE … TEMPLATE), dropped at the end of the run.
 * On PGlite the suite migrates one in-memory database and writes its files to a tarball; every
 * test file then starts its own in-memory database from that tarball instead of migrating anew.
 */
export default async function setup(project: TestProject) {
  const url = process.env.DATABASE_URL;
  if (!url) return embeddedSnapshot(project);
  const template = `tay_tpl_${process.pid}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${template}`);
  const templateUrl = withDatabase(url, template);
  const runtime = await startRuntime(loadConfig({ DATABASE_URL: templateUrl, DATA_DIR: 'memory://', LOG_LEVEL: 'silent' }), {
    work: false,
    log: silentLogger,
  });
  await runtime.close();
  // Backends of closed connections exit asynchronously; a template must have none.
  for (let i = 0; i < 100; i++) {
    const { rows } = await admin.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [template]);
    if (rows[0]?.n === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  project.provide('templateDatabase', template);
  project.provide('embeddedSnapshot', undefined);

  return async () => {
    const { rows } = await admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE $1 OR datname = $2`, [
      `tay_t_${process.pid}_%`,
      template,
    ]);
    for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    await admin.end();
  };
}

async function embeddedSnapshot(project: TestProject) {
  const runtime = await startRuntime(loadConfig({ DATA_DIR: 'memory://', LOG_LEVEL: 'silent' }), { work: false, log: silentLogger });
  const dir = mkdtempSync(path.join(tmpdir(), 'tay-api-tests-'));
  const file = path.join(dir, 'migrated.tar');
  try {
    const snapshot = await runtime.database.snapshot?.();
    if (!snapshot) throw new Error('The embedded database gave no snapshot');
    writeFileSync(file, Buffer.from(await snapshot.arrayBuffer()));
  } finally {
    await runtime.close();
  }
  project.provide('embeddedSnapshot', file);
  project.provide('templateDatabase', undefined);
  return () => rmSync(dir, { recursive: true, force: true });
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

declare module 'vitest' {
  export interface ProvidedContext {
    templateDatabase: string | undefined;
    /** On PGlite: the file holding the migrated database's tarball. */
    embeddedSnapshot: string | undefined;
  }
}
