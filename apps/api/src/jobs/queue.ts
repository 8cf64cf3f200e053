import PgBoss from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import type { Database } from '../db/database';
import { MAIL_DELIVERY_ATTEMPTS, type IntegrationProvider } from '@tay/contract';

/** Every queue the product uses and the data its jobs carry. */
export interface JobPayloads {
  'mail.deliver': { messageId: string };
  'maintenance.purge-outbox': Record<string, never>;
  /** Drops live-update notices past their hour (ADR 025). */
  'maintenance.purge-changes': Record<string, never>;
  /** Drops rate-limit counters whose window has ended (they would only be reset on next use). */
  'maintenance.purge-rate-limits': Record<string, never>;
  /** SANDBOX_AUTO_APPROVE: approve a submitted business that is still Pending and complete. */
  'business.auto-approve': { businessId: string };
  /** Requests to pay: scheduled sends, expiry and reminders (cron). */
  'requests.send-scheduled': Record<string, never>;
  'requests.expire': Record<string, never>;
  'requests.remind': Record<string, never>;
  /** The sandbox processor moves a charge one step on (debit → succeeded/failed → settled → returned). */
  'sandbox.advance-charge': { chargeId: string; to: 'succeeded' | 'failed' | 'settled' | 'returned' };
  /** The sandbox processor pays or returns one credit to a bank account (ADR 035). */
  'sandbox.advance-payout': { processorPayoutId: string };
  /** The sandbox processor finishes one bank refund (ADR 051). */
  'sandbox.advance-refund': { processorRefundId: string; to: 'succeeded' | 'failed' };
  /** The sandbox processor's disputes (ADR 051): the disputed test card's dispute opens; the bank decides one under review. */
  'sandbox.open-dispute': { chargeId: string };
  'sandbox.close-dispute': { processorDisputeId: string; outcome: 'won' | 'lost'; unanswered?: boolean };
  /** Tells the processor a dispute's answer (evidence or acceptance), or asks again after a crash (ADR 051). */
  'disputes.send': { businessId: string; disputeId: string };
  /** E-mails owners and admins a week before a dispute's evidence is due (hourly). */
  'disputes.remind': Record<string, never>;
  /** Sends one refund to the processor, or asks again after a crash (queued in the refunding transaction, ADR 051). */
  'refunds.send': { businessId: string; refundId: string };
  /** Sends one approved payout to the processor (queued in the approving transaction, ADR 035). */
  'payouts.send': { businessId: string; payoutId: string };
  /** The sandbox processor delivers one signed webhook to PROCESSOR_WEBHOOK_URL. */
  'sandbox.deliver-webhook': { webhookId: string };
  /** Bulk batches (ADR 032): check every row of a mapping; send the valid rows; resume runs whose process died. */
  'batches.check': { businessId: string; batchId: string; version: number };
  'batches.send': { businessId: string; batchId: string };
  'batches.resume': Record<string, never>;
  /** Finishes a payment left Pending by a crash between creating it and recording the charge. */
  'payments.reconcile': { businessId: string; paymentId: string; processorToken: string };
  /** Student billing cycles (ADR 036): runs each cycle whose run day has come at its business's midnight, and every missed one. */
  'billing-cycles.run': Record<string, never>;
  /** Accounting integrations (ADR 041): one run of a sync; the five-minute sweep that queues them. */
  'integrations.sync': { businessId: string; provider: IntegrationProvider; manual?: boolean; carried?: { pushed: number; failed: number } };
  'integrations.sweep': Record<string, never>;
}
export type JobName = keyof JobPayloads;

export interface QueueDefinition {
  retryLimit: number;
  retryDelay: number;
  retryBackoff: boolean;
  expireInSeconds: number;
}

export const QUEUES: Record<JobName, QueueDefinition> = {
  // MAIL_DELIVERY_ATTEMPTS tries in all: the request's detail says "given up" after the last.
  'mail.deliver': { retryLimit: MAIL_DELIVERY_ATTEMPTS - 1, retryDelay: 15, retryBackoff: true, expireInSeconds: 120 },
  'maintenance.purge-outbox': { retryLimit: 2, retryDelay: 60, retryBackoff: false, expireInSeconds: 600 },
  'maintenance.purge-changes': { retryLimit: 2, retryDelay: 60, retryBackoff: false, expireInSeconds: 300 },
  'maintenance.purge-rate-limits': { retryLimit: 2, retryDelay: 60, retryBackoff: false, expireInSeconds: 300 },
  'business.auto-approve': { retryLimit: 5, retryDelay: 10, retryBackoff: true, expireInSeconds: 60 },
  'requests.send-scheduled': { retryLimit: 1, retryDelay: 30, retryBackoff: false, expireInSeconds: 300 },
  'requests.expire': { retryLimit: 1, retryDelay: 60, retryBackoff: false, expireInSeconds: 600 },
  'requests.remind': { retryLimit: 1, retryDelay: 60, retryBackoff: false, expireInSeconds: 900 },
  'sandbox.advance-charge': { retryLimit: 10, retryDelay: 5, retryBackoff: true, expireInSeconds: 60 },
  'sandbox.deliver-webhook': { retryLimit: 12, retryDelay: 2, retryBackoff: true, expireInSeconds: 60 },
  'sandbox.advance-payout': { retryLimit: 10, retryDelay: 5, retryBackoff: true, expireInSeconds: 60 },
  'payouts.send': { retryLimit: 10, retryDelay: 15, retryBackoff: true, expireInSeconds: 120 },
  'sandbox.advance-refund': { retryLimit: 10, retryDelay: 5, retryBackoff: true, expireInSeconds: 60 },
  'refunds.send': { retryLimit: 10, retryDelay: 15, retryBackoff: true, expireInSeconds: 120 },
  'sandbox.open-dispute': { retryLimit: 10, retryDelay: 5, retryBackoff: true, expireInSeconds: 60 },
  'sandbox.close-dispute': { retryLimit: 10, retryDelay: 5, retryBackoff: true, expireInSeconds: 60 },
  'disputes.send': { retryLimit: 10, retryDelay: 15, retryBackoff: true, expireInSeconds: 120 },
  'disputes.remind': { retryLimit: 1, retryDelay: 60, retryBackoff: false, expireInSeconds: 600 },
  'payments.reconcile': { retryLimit: 10, retryDelay: 30, retryBackoff: true, expireInSeconds: 120 },
  // A run of 100,000 rows takes minutes on a small host; one that dies is resumed by batches.resume.
  'batches.check': { retryLimit: 5, retryDelay: 5, retryBackoff: true, expireInSeconds: 1800 },
  'batches.send': { retryLimit: 5, retryDelay: 5, retryBackoff: true, expireInSeconds: 1800 },
  'batches.resume': { retryLimit: 1, retryDelay: 30, retryBackoff: false, expireInSeconds: 120 },
  // A tick that fails is only retried by the next minute's tick (it finds the same due cycles).
  'billing-cycles.run': { retryLimit: 0, retryDelay: 60, retryBackoff: false, expireInSeconds: 600 },
  // A run that fails on our side is retried with back-off; the provider's 429 and outages are handled in the run.
  'integrations.sync': { retryLimit: 5, retryDelay: 30, retryBackoff: true, expireInSeconds: 900 },
  'integrations.sweep': { retryLimit: 0, retryDelay: 60, retryBackoff: false, expireInSeconds: 300 },
};

/** Cron schedules (UTC) of recurring jobs; pg-boss guarantees one run per slot across processes. */
export const SCHEDULES: Partial<Record<JobName, string>> = {
  'maintenance.purge-outbox': '17 3 * * *',
  'maintenance.purge-changes': '*/10 * * * *',
  'maintenance.purge-rate-limits': '41 * * * *',
  'requests.send-scheduled': '* * * * *',
  'requests.expire': '*/10 * * * *',
  'requests.remind': '7 * * * *',
  'batches.resume': '* * * * *',
  'billing-cycles.run': '* * * * *',
  'integrations.sweep': '*/5 * * * *',
  'disputes.remind': '23 * * * *',
};

export type JobHandler<N extends JobName> = (data: JobPayloads[N], jobId: string) => Promise<void>;
export type JobHandlers = { [N in JobName]: JobHandler<N> };

export interface Jobs {
  send<N extends JobName>(name: N, data: JobPayloads[N], options?: PgBoss.SendOptions): Promise<string | null>;
  /** Many jobs of one queue in one statement, with the queue's retry policy (`options.db`: in a transaction). */
  insert<N extends JobName>(name: N, jobs: { data: JobPayloads[N]; singletonKey?: string }[], options?: PgBoss.InsertOptions): Promise<void>;
  /** Starts the workers: this process then runs jobs (in-process under `npm start`, or `npm run worker`). */
  work(handlers: JobHandlers): Promise<void>;
  stop(): Promise<void>;
  boss: PgBoss;
}

export interface JobsOptions {
  database: Database;
  log: FastifyBaseLogger;
  /** Seconds between polls for new jobs when a queue is idle (pg-boss minimum: 0.5). */
  pollingIntervalSeconds?: number;
}

export const JOBS_SCHEMA = 'pgboss';
/** pg-boss's own queue for cron jobs (`Timekeeper`); it would create it at start, as the owner only can. */
export const CRON_QUEUE = '__pgboss__send-it';

/**
 * As the schema's owner, during migration: pg-boss's schema, and each queue, which pg-boss keeps
 * in a table of its own (creating a queue is DDL, which the app's role may not do; ADR 022).
 */
export async function prepareJobs(owner: pg.ClientBase): Promise<void> {
  const boss = new PgBoss({
    db: { executeSql: (text: string, values: unknown[]) => owner.query(text, values) },
    schema: JOBS_SCHEMA,
    migrate: true,
    supervise: false,
    schedule: false,
  });
  await boss.start();
  try {
    for (const [name, definition] of Object.entries(QUEUES)) {
      await boss.createQueue(name, { name, ...definition });
    }
    await boss.createQueue(CRON_QUEUE);
  } finally {
    await boss.stop({ graceful: false, close: false });
  }
}

/** The queues this code uses that the owner has not made yet (`npm run db:migrate` makes them). */
export async function missingQueues(app: pg.Pool): Promise<string[]> {
  const { rows } = await app.query<{ name: string }>(`SELECT name FROM ${JOBS_SCHEMA}.queue`);
  const made = new Set(rows.map((r) => r.name));
  return [...Object.keys(QUEUES), CRON_QUEUE].filter((name) => !made.has(name));
}

export async function startJobs({ database, log, pollingIntervalSeconds = 1 }: JobsOptions): Promise<Jobs> {
  const boss = new PgBoss({
    ...database.connection,
    schema: JOBS_SCHEMA,
    max: 4,
    application_name: 'tay-jobs',
    // Its schema and queues were made by the owner (prepareJobs); here it only checks the version.
    migrate: false,
    // Maintenance and cron are cheap; every process may run them, pg-boss coordinates.
    supervise: true,
    schedule: true,
  });
  boss.on('error', (error) => log.error({ err: error }, 'job queue error'));
  await boss.start();
  const workers: string[] = [];
  return {
    boss,
    send(name, data, options) {
      return options ? boss.send(name, data, options) : boss.send(name, data);
    },
    async insert(name, jobs, options) {
      const { retryLimit, retryDelay, retryBackoff, expireInSeconds } = QUEUES[name];
      const rows = jobs.map((job) => ({ name, retryLimit, retryDelay, retryBackoff, expireInSeconds, ...job }));
      await (options ? boss.insert(rows, options) : boss.insert(rows));
    },
    async work(handlers) {
      for (const name of Object.keys(QUEUES) as JobName[]) {
        const handler = handlers[name] as JobHandler<JobName>;
        workers.push(
          await boss.work<JobPayloads[JobName]>(name, { pollingIntervalSeconds, batchSize: 1 }, async (jobs) => {
            for (const job of jobs) {
              const started = Date.now();
              try {
                await handler(job.data, job.id);
                log.info({ job: name, jobId: job.id, ms: Date.now() - started }, 'job done');
              } catch (error) {
                log.warn({ job: name, jobId: job.id, err: error }, 'job failed; it will be retried');
                throw error;
              }
            }
          }),
        );
      }
      for (const [name, cron] of Object.entries(SCHEDULES)) {
        await boss.schedule(name, cron, {});
      }
    },
    async stop() {
      await boss.stop({ graceful: true, timeout: 10_000, wait: true });
    },
  };
}
