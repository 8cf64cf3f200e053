import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Auth } from './auth/better-auth';
import type { PublicConfig } from '@tay/contract';
import type { Config } from './config';
import type { Database } from './db/database';
import type { Jobs } from './jobs/queue';
import type { Mailer } from './mail/mailer';
import { authSecretsOf } from './lib/secret-box';
import { AccessLog, appLogger } from './plugins/access-log';
import { authenticate } from './plugins/authenticate';
import { compression } from './plugins/compression';
import { errorHandler, frameworkError } from './plugins/error-handler';
import { jsonBody } from './plugins/json-body';
import { openapi } from './plugins/openapi';
import { responseSerializer } from './plugins/response-serializer';
import { rateLimit } from './plugins/rate-limit';
import { security } from './plugins/security';
import { textInput } from './plugins/text-input';
import { web } from './plugins/web';
import type { PaymentProcessor } from './processor/port';
import { sandboxProcessorRoutes } from './processor/sandbox/routes';
import { refundRoutes } from './routes/refunds';
import { disputeRoutes } from './routes/disputes';
import { accountingStandInRoutes } from './accounting/standin-routes';
import { integrationRoutes } from './routes/integrations';
import { authRoutes } from './routes/auth';
import { balanceRoutes } from './routes/balances';
import { businessRoutes } from './routes/businesses';
import { devMailRoutes } from './routes/dev-mail';
import { healthRoutes } from './routes/health';
import { liveUpdateRoutes } from './routes/live-updates';
import { payerRoutes } from './routes/payers';
import { teamRoutes } from './routes/team';
import { batchRoutes } from './routes/batches';
import { paymentRequestRoutes } from './routes/payment-requests';
import { studentRequestRoutes } from './routes/student-requests';
import { patientStatementRoutes } from './routes/patient-statements';
import { invoiceRoutes } from './routes/invoices';
import { payerFirstScreens } from './routes/payer-first-screens';
import { publicPayRoutes } from './routes/public-pay';
import { publicQrRoutes, qrCodeRoutes } from './routes/qr-codes';
import { publicReceiverRoutes, receiverRoutes } from './routes/receivers';
import { reportRoutes } from './routes/reports';
import { searchRoutes } from './routes/search';
import { patientRoutes } from './routes/patients';
import { studentRoutes } from './routes/students';
import { programRoutes } from './routes/programs';
import { checkInRoutes, eventRoutes } from './routes/events';
import { billingCycleRoutes } from './routes/billing-cycles';
import { studentBillingRoutes } from './routes/student-billing';
import { payoutRoutes } from './routes/payouts';
import { userRoutes } from './routes/user';
import { webhookRoutes } from './routes/webhooks';

export interface AppDeps {
  config: Config;
  database: Database;
  jobs: Jobs;
  mailer: Mailer;
  auth: Auth;
  processor: PaymentProcessor;
}

export interface BuildAppOptions {
  /** `false` silences logs (tests); otherwise pino JSON at the configured level. */
  logger?: boolean;
}

/** Composes the HTTP application: external plugins, then app plugins, then routes (ARCHITECTURE.md §3). */
export async function buildApp(deps: AppDeps, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const { config, database, auth } = deps;
  const app = Fastify({
    // Requests and replies are logged without their headers, so nothing needs redacting; a
    // request's own logger is made only if something logs through it (access-log.ts).
    ...(options.logger === false ? { logger: false } : { loggerInstance: appLogger(config.logLevel) }),
    trustProxy: config.trustProxy,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    bodyLimit: 1024 * 1024,
    logController: new AccessLog(),
    frameworkErrors: frameworkError,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializer);
  await app.register(errorHandler);
  // Security headers and the request id on every response.
  await app.register(security, { isProduction: config.isProduction });
  // Per session, or per address without one (ADR 044); the session reader is authenticate's, read per request.
  await app.register(rateLimit, { db: database.db, rule: config.rateLimit, sessionToken: (request) => app.sessions.token(request) });
  await app.register(compression);
  await app.register(openapi, { serve: !config.isProduction });
  await app.register(authenticate, { auth, db: database.db, secret: config.authSecret });
  await app.register(jsonBody);
  await app.register(textInput);

  await app.register(healthRoutes, { database });
  await app.register(authRoutes, { auth, db: database.db, mailer: deps.mailer, publicUrl: config.publicUrl, ipLimitScale: config.authIpRateLimitScale });
  await app.register(userRoutes, { db: database.db, mailer: deps.mailer, publicUrl: config.publicUrl });
  await app.register(businessRoutes, {
    db: database.db,
    jobs: deps.jobs,
    authSecrets: authSecretsOf(config),
    sandboxAutoApprove: config.sandboxAutoApprove,
  });
  await app.register(payerRoutes, { db: database.db, mailer: deps.mailer, publicUrl: config.publicUrl });
  await app.register(paymentRequestRoutes, {
    db: database.db,
    ctx: { db: database.db, mailer: deps.mailer, authSecret: config.authSecret, previousAuthSecrets: config.previousAuthSecrets, publicUrl: config.publicUrl },
  });
  await app.register(invoiceRoutes, {
    db: database.db,
    ctx: { db: database.db, mailer: deps.mailer, authSecret: config.authSecret, previousAuthSecrets: config.previousAuthSecrets, publicUrl: config.publicUrl },
  });
  await app.register(publicPayRoutes, {
    db: database.db,
    publicUrl: config.publicUrl,
    payments: { db: database.db, processor: deps.processor, mailer: deps.mailer, jobs: deps.jobs, fees: config.fees },
  });
  await app.register(qrCodeRoutes, { db: database.db, publicUrl: config.publicUrl });
  await app.register(publicQrRoutes, {
    db: database.db,
    authSecret: config.authSecret,
    secureCookies: config.publicUrl.startsWith('https:'),
    payments: { db: database.db, processor: deps.processor, mailer: deps.mailer, jobs: deps.jobs, fees: config.fees },
  });
  await app.register(receiverRoutes, { db: database.db, mailer: deps.mailer, publicUrl: config.publicUrl });
  await app.register(publicReceiverRoutes, { db: database.db, authSecrets: authSecretsOf(config) });
  await app.register(eventRoutes, { db: database.db, publicUrl: config.publicUrl });
  await app.register(checkInRoutes, { db: database.db, mailer: deps.mailer, publicUrl: config.publicUrl });
  await app.register(teamRoutes, { db: database.db, mailer: deps.mailer, publicUrl: config.publicUrl });
  await app.register(batchRoutes, { db: database.db, jobs: deps.jobs });
  await app.register(studentRoutes, { db: database.db });
  await app.register(patientRoutes, { db: database.db });
  await app.register(programRoutes, { db: database.db });
  await app.register(studentRequestRoutes, {
    db: database.db,
    ctx: { db: database.db, mailer: deps.mailer, authSecret: config.authSecret, previousAuthSecrets: config.previousAuthSecrets, publicUrl: config.publicUrl },
  });
  await app.register(patientStatementRoutes, {
    db: database.db,
    ctx: { db: database.db, mailer: deps.mailer, authSecret: config.authSecret, previousAuthSecrets: config.previousAuthSecrets, publicUrl: config.publicUrl },
  });
  await app.register(billingCycleRoutes, { db: database.db, jobs: deps.jobs });
  await app.register(studentBillingRoutes, { db: database.db });
  await app.register(balanceRoutes, { db: database.db });
  await app.register(reportRoutes, { db: database.db });
  await app.register(searchRoutes, { db: database.db });
  await app.register(payoutRoutes, { db: database.db, jobs: deps.jobs, payoutFeeCents: config.payoutFeeCents });
  await app.register(refundRoutes, {
    db: database.db,
    processor: deps.processor,
    jobs: deps.jobs,
    mailer: deps.mailer,
    refundReturnsFee: config.fees.refundReturnsFee ?? false,
  });
  await app.register(disputeRoutes, { db: database.db, processor: deps.processor, jobs: deps.jobs });
  await app.register(liveUpdateRoutes, { db: database.db });
  await app.register(webhookRoutes, {
    db: database.db,
    mailer: deps.mailer,
    webhookSecret: config.processor.webhookSecret,
    disputeFees: config.fees.dispute ?? { disputeCents: 1500, wonReturnsFee: false },
    publicUrl: config.publicUrl,
  });
  await app.register(sandboxProcessorRoutes, {
    db: database.db,
    publishableKey: config.processor.publishableKey,
    secretKey: config.processor.secretKey,
  });
  await app.register(integrationRoutes, {
    db: database.db,
    jobs: deps.jobs,
    publicUrl: config.publicUrl,
    authSecrets: authSecretsOf(config),
    accounting: config.accounting,
  });
  await app.register(accountingStandInRoutes, { db: database.db, ...config.accounting });
  if (config.devToolsEnabled) await app.register(devMailRoutes, { db: database.db });

  const publicConfig: PublicConfig = {
    environment: config.env,
    marketingSiteUrl: config.marketingSiteUrl,
    processorPublishableKey: deps.processor.publishableKey,
    processorElementsUrl: deps.processor.elementsUrl,
  };
  // For the Vite dev server, which serves the page without the server's meta tag.
  app.get('/api/public-config', { schema: { hide: true } }, async () => publicConfig);
  await app.register(web, {
    distDir: config.webDistDir,
    publicConfig,
    sourceMaps: !config.isProduction,
    firstScreens: payerFirstScreens({ db: database.db, secureCookies: config.publicUrl.startsWith('https:') }),
  });
  return app;
}
