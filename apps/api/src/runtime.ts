import pino from 'pino';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { buildApp, type AppDeps } from './app';
import { createAuth } from './auth/better-auth';
import type { Config } from './config';
import { openDatabase, type DatabaseSetup } from './db/database';
import { migrate, pendingMigrations } from './db/migrate';
import { createJobHandlers } from './jobs/handlers';
import { JOBS_SCHEMA, missingQueues, prepareJobs, startJobs } from './jobs/queue';
import { attachmentRenderers } from './domain/request-sources';
import { createMailer } from './mail/mailer';
import { createSandboxProcessor } from './processor/sandbox/sandbox-processor';

/** What the app runs on (`AppDeps`), with the process's log and the way to close it all. */
export interface Runtime extends AppDeps {
  log: FastifyBaseLogger;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  /** Run job handlers in this process (`npm start`, `npm run worker`). */
  work: boolean;
  log?: FastifyBaseLogger;
  pollingIntervalSeconds?: number;
  /** An in-memory embedded database starts from this snapshot (the API tests' migrated database). */
  embeddedFrom?: Blob;
}

/**
 * What the schema's owner does before the app's sessions open: the migrations and the job queue's
 * tables; `migrated` hears which migrations were applied.
 */
export function schemaSetup(migrated: (files: string[]) => void): DatabaseSetup {
  return {
    schemas: ['public', JOBS_SCHEMA],
    async prepare(owner) {
      migrated(await migrate(owner));
      await prepareJobs(owner);
    },
    async check(app, hint) {
      const pending = await pendingMigrations(app);
      if (pending.length > 0) throw new Error(`The database has not been migrated: ${pending.join(', ')} not applied. ${hint}`);
      const missing = await missingQueues(app);
      if (missing.length > 0) throw new Error(`The job queue has no ${missing.join(', ')} queue. ${hint}`);
    },
  };
}

/** Opens the database (migrating it as the owner), starts the job queue and the mailer. */
export async function startRuntime(config: Config, options: RuntimeOptions): Promise<Runtime> {
  const log = options.log ?? (pino({ level: config.logLevel }) as FastifyBaseLogger);
  const database = await openDatabase(
    config.database,
    schemaSetup((applied) => {
      if (applied.length > 0) log.info({ migrations: applied }, 'database migrated');
    }),
    { log, ...(options.embeddedFrom ? { embeddedFrom: options.embeddedFrom } : {}) },
  );
  try {
    const jobs = await startJobs({
      database,
      log,
      ...(options.pollingIntervalSeconds ? { pollingIntervalSeconds: options.pollingIntervalSeconds } : {}),
    });
    const { smsApiUrl, smsFrom } = config.mail;
    const sms = smsApiUrl && smsFrom ? { apiUrl: smsApiUrl, from: smsFrom } : undefined;
    const mailer = createMailer({
      db: database.db,
      jobs,
      log,
      smtpUrl: config.mail.smtpUrl,
      from: config.mail.from,
      sms,
      // The files the requests' sources send that the delivery job makes (an invoice's PDF, ADR 045).
      renderers: attachmentRenderers(database.db),
    });
    const auth = createAuth({ config, pool: database.pool, mailer, log });
    const processor = createSandboxProcessor({
      db: database.db,
      jobs,
      publishableKey: config.processor.publishableKey,
      settlementSeconds: config.processor.settlementSeconds,
    });
    if (options.work) {
      await jobs.work(
        createJobHandlers({
          db: database.db,
          mailer,
          authSecret: config.authSecret,
          previousAuthSecrets: config.previousAuthSecrets,
          publicUrl: config.publicUrl,
          jobs,
          processor,
          processorConfig: config.processor,
          payoutFeeCents: config.payoutFeeCents,
          accounting: config.accounting,
          copyRowsIn: database.kind === 'postgres',
        }),
      );
      // A batch whose run died with the last process goes on now, not at the next minute.
      await jobs.send('batches.resume', {});
      // Billing cycles' runs missed while no process was up happen now (ADR 036), not at the next minute.
      await jobs.send('billing-cycles.run', {});
    }
    return {
      config,
      database,
      jobs,
      mailer,
      auth,
      processor,
      log,
      async close() {
        await jobs.stop();
        mailer.close();
        await database.close();
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}

/** The HTTP server over a runtime; closing the server closes the runtime. */
export async function startServer(runtime: Runtime, options: { logger?: boolean } = {}): Promise<FastifyInstance> {
  const app = await buildApp(runtime, options);
  app.addHook('onClose', async () => runtime.close());
  return app;
}
