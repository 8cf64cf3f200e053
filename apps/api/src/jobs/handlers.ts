import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';
import type { Mailer } from '../mail/mailer';
import type { JobHandlers, Jobs } from './queue';
import { purgeOutbox } from '../mail/purge-outbox';
import { purgeExpiredRateLimits } from '../lib/rate-limiter';
import { autoApproveBusiness } from '../domain/businesses/auto-approve-business';
import { purgeChanges } from '../domain/changes/purge-changes';
import { expireRequests, sendReminders, sendScheduledRequests } from '../domain/payment-requests/background';
import { reconcilePayment } from '../domain/payments/reconcile-payment';
import { checkBatch } from '../domain/batches/check-batch';
import { resumeBatches, sendBatch } from '../domain/batches/submit-batch';
import type { ProcessorConfig } from '../config';
import type { PaymentProcessor } from '../processor/port';
import { deliverWebhook } from '../processor/sandbox/deliver-webhook';
import { advanceCharge } from '../processor/sandbox/sandbox-processor';
import { advanceSandboxPayout } from '../processor/sandbox/sandbox-payouts';
import { advanceSandboxRefund } from '../processor/sandbox/sandbox-refunds';
import { sendRefund } from '../domain/refunds/refunds';
import { remindDisputes, sendDisputeAnswer } from '../domain/disputes/disputes';
import { closeSandboxDispute, openSandboxDispute } from '../processor/sandbox/sandbox-disputes';
import { sendApprovedPayout } from '../domain/payouts/send-payout';
import { bankAccountNumberBox } from '../domain/businesses/add-bank-account';
import { runDueBillingCycles } from '../domain/billing-cycles/run-cycle';
import type { IntegrationProvider } from '@tay/contract';
import type { ProviderSettings } from '../accounting/port';
import { accountingProviders } from '../accounting/providers';
import { integrationTokenBox } from '../domain/integrations/deps';
import { runSync, sweepIntegrations } from '../domain/integrations/sync';

export interface HandlerDeps {
  db: Kysely<DB>;
  mailer: Mailer;
  /** Keys the payer links in request e-mails; the secrets it replaced made earlier links (ADR 018). */
  authSecret: string;
  previousAuthSecrets: readonly string[];
  publicUrl: string;
  jobs: Pick<Jobs, 'send'>;
  processor: PaymentProcessor;
  processorConfig: ProcessorConfig;
  /** FEE_PAYOUT_CENTS: a payouts batch approved as it finishes (ADR 035). */
  payoutFeeCents: number;
  /** QuickBooks Online and FreshBooks (ADR 041). */
  accounting: Record<IntegrationProvider, ProviderSettings | null>;
  /** Bulk rows are stored with `COPY … FROM STDIN`: PostgreSQL (the embedded database's server takes no COPY data). */
  copyRowsIn?: boolean;
}

export function createJobHandlers({
  db,
  mailer,
  authSecret,
  previousAuthSecrets,
  publicUrl,
  jobs,
  processor,
  processorConfig,
  payoutFeeCents,
  accounting,
  copyRowsIn = false,
}: HandlerDeps): JobHandlers {
  const requests = { db, mailer, authSecret, previousAuthSecrets, publicUrl };
  const integrations = { db, jobs, publicUrl, providers: accountingProviders(accounting), box: integrationTokenBox([authSecret, ...previousAuthSecrets]) };
  return {
    'requests.send-scheduled': async () => {
      await sendScheduledRequests(requests);
    },
    'requests.expire': async () => {
      await expireRequests(requests);
    },
    'requests.remind': async () => {
      await sendReminders(requests);
    },
    'mail.deliver': async ({ messageId }) => mailer.deliver(messageId),
    'maintenance.purge-outbox': async () => {
      await purgeOutbox({ db });
    },
    'maintenance.purge-changes': async () => {
      await purgeChanges({ db });
    },
    'maintenance.purge-rate-limits': async () => {
      await purgeExpiredRateLimits(db);
    },
    'business.auto-approve': async ({ businessId }) => {
      await autoApproveBusiness({ db, businessId, mail: { mailer, publicUrl } });
    },
    'sandbox.advance-charge': async (data) => {
      await advanceCharge({ db, jobs, settlementSeconds: processorConfig.settlementSeconds }, data);
    },
    'sandbox.deliver-webhook': async ({ webhookId }) => {
      await deliverWebhook({ db, url: processorConfig.webhookUrl, secret: processorConfig.webhookSecret, webhookId });
    },
    'batches.check': async (data) => {
      await checkBatch(db, data, { copy: copyRowsIn });
    },
    'batches.send': async (data) => {
      await sendBatch(requests, data, { jobs, payoutFeeCents });
    },
    'batches.resume': async () => {
      await resumeBatches(db, jobs);
    },
    'sandbox.advance-payout': async (data) => {
      await advanceSandboxPayout({ db, jobs }, data);
    },
    'sandbox.advance-refund': async (data) => {
      await advanceSandboxRefund({ db, jobs }, data);
    },
    'refunds.send': async (data) => {
      await sendRefund({ db, processor, mailer }, data);
    },
    'sandbox.open-dispute': async (data) => {
      await openSandboxDispute({ db, jobs }, data);
    },
    'sandbox.close-dispute': async (data) => {
      await closeSandboxDispute({ db, jobs }, data);
    },
    'disputes.send': async (data) => {
      await sendDisputeAnswer({ db, processor }, data);
    },
    'disputes.remind': async () => {
      await remindDisputes({ db, mailer, publicUrl });
    },
    'payouts.send': async (data) => {
      await sendApprovedPayout({ db, processor, accountBox: bankAccountNumberBox([authSecret, ...previousAuthSecrets]) }, data);
    },
    'payments.reconcile': async (data) => {
      await reconcilePayment({ db, processor, mailer }, data);
    },
    'billing-cycles.run': async () => {
      await runDueBillingCycles({ db, jobs });
    },
    'integrations.sync': async (data) => {
      await runSync(integrations, data);
    },
    'integrations.sweep': async () => {
      await sweepIntegrations(integrations);
    },
  };
}
