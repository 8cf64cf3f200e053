import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig, repoRoot } from './config';
import { openDatabase } from './db/database';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from './lib/app-error';
import { COMMANDS, usage } from './ops/commands';
import { schemaSetup, startRuntime, startServer } from './runtime';

/**
 * Entry point: `serve` (default; HTTP + in-process worker), `worker` (jobs only),
 * `migrate` (apply migrations and exit). Reads `.env` from the repository root if present.
 */
async function main(argv: string[]): Promise<void> {
  const envFile = path.join(repoRoot(), '.env');
  if (existsSync(envFile)) process.loadEnvFile(envFile);
  const mode = argv[0] ?? 'serve';
  const config = loadConfig();

  if (mode === 'migrate') {
    let applied: string[] = [];
    // Opening it checks too that the app can log in with only its own privileges.
    const database = await openDatabase(
      config.database,
      schemaSetup((files) => (applied = files)),
    );
    await database.close();
    console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'The database is up to date.');
    return;
  }

  if (mode === 'ops') {
    const [name, ...args] = argv.slice(1);
    const command = name ? COMMANDS[name] : undefined;
    if (!command) {
      console.error(name ? `Unknown command "${name}".\n\n${usage()}` : usage());
      process.exitCode = 2;
      return;
    }
    const runtime = await startRuntime(config, { work: false, log: pino({ level: 'warn' }) as FastifyBaseLogger });
    try {
      await command.run(runtime, args);
    } catch (error) {
      if (error instanceof AppError) {
        console.error(error.message);
        process.exitCode = 1;
      } else throw error;
    } finally {
      await runtime.close();
    }
    return;
  }

  if (mode === 'worker') {
    const runtime = await startRuntime(config, { work: true });
    runtime.log.info({ database: runtime.database.kind }, 'worker started');
    onShutdown(async () => runtime.close(), runtime.log);
    return;
  }

  if (mode !== 'serve') throw new Error(`Unknown mode "${mode}". Use serve, worker, migrate or ops.`);
  const runtime = await startRuntime(config, { work: config.jobsInProcess });
  const app = await startServer(runtime);
  onShutdown(async () => app.close(), app.log);
  await app.listen({ port: config.port, host: config.host });
  app.log.info({ url: config.publicUrl, database: runtime.database.kind, mail: runtime.mailer.transport }, `Tay is ready on ${config.publicUrl}`);
}

function onShutdown(close: () => Promise<void>, log: { info(msg: string): void; error(obj: object, msg: string): void }) {
  let closing = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      if (closing) return;
      closing = true;
      log.info(`${signal} received: finishing in-flight work and shutting down`);
      const timer = setTimeout(() => {
        log.error({}, 'shutdown took longer than 20 s; exiting');
        process.exit(1);
      }, 20_000);
      timer.unref();
      close().then(
        () => process.exit(0),
        (error: unknown) => {
          log.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
