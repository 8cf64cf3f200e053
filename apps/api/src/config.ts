import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { IntegrationProvider } from '@tay/contract';
import type { ProviderSettings } from './accounting/port';

/**
 * The one place that reads the environment (ARCHITECTURE.md §2). Every variable is documented in
 * `.env.example`; a bad value stops the boot with a readable list of what is wrong.
 */
const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off']).transform((v) => ['true', '1', 'yes', 'on'].includes(v));

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).optional(),
  PUBLIC_URL: z.url().optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  /** The schema owner's URL, for migrations only; DATABASE_URL is then the app's own login (ADR 022). */
  DATABASE_MIGRATION_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  DATA_DIR: z.string().min(1).default('./data'),
  AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Earlier AUTH_SECRETs, comma-separated, after a rotation: they still open what they sealed. */
  AUTH_SECRET_PREVIOUS: z
    .string()
    .optional()
    .transform((v) =>
      (v ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .refine((list) => list.every((s) => s.length >= 32), { message: 'each secret must be at least 32 characters' })
    .refine((list) => !list.some((s) => s.includes(' ')), { message: 'separate the secrets with commas' }),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Tay <no-reply@tay.local>'),
  /**
   * The SMS provider's Messages endpoint, Twilio's form (`To`, `From`, `Body`; HTTP basic auth from
   * the URL's user and password). Without it, text messages stay in the outbox like e-mails
   * without SMTP_URL (ADR 020).
   */
  SMS_API_URL: z
    .url()
    .regex(/^https?:\/\//, 'must be an http:// or https:// URL')
    .optional(),
  /** The number (E.164) or sender id text messages come from; needed with SMS_API_URL. */
  SMS_FROM: z.string().trim().min(3).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * API calls per signed-in session (per address without one) per window, shared by every replica
   * (ADR 044). The web app's files and pages are never counted.
   */
  RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(600),
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(60),
  TRUST_PROXY: bool.default(false),
  AUTH_IP_RATE_LIMIT_SCALE: z.coerce.number().int().min(1).max(10_000).default(1),
  JOBS_IN_PROCESS: bool.default(true),
  MARKETING_SITE_URL: z.url().default('https://tay.com'),
  WEB_DIST_DIR: z.string().optional(),
  SANDBOX_AUTO_APPROVE: bool.optional(),
  PROCESSOR_PUBLISHABLE_KEY: z
    .string()
    .regex(/^pk_(test|live)_[A-Za-z0-9]{16,}$/, 'must look like pk_test_… (16+ letters or digits after the prefix)')
    .optional(),
  PROCESSOR_SECRET_KEY: z
    .string()
    .regex(/^sk_(test|live)_[A-Za-z0-9]{16,}$/, 'must look like sk_test_… (16+ letters or digits after the prefix)')
    .optional(),
  PROCESSOR_WEBHOOK_SECRET: z.string().min(24, 'must be at least 24 characters').optional(),
  PROCESSOR_WEBHOOK_URL: z.url().optional(),
  SANDBOX_SETTLEMENT_SECONDS: z.coerce.number().int().min(0).max(86_400).default(5),
  FEE_CARD_BPS: z.coerce.number().int().min(0).max(10_000).default(290),
  FEE_CARD_FIXED_CENTS: z.coerce.number().int().min(0).max(100_000).default(30),
  FEE_BANK_BPS: z.coerce.number().int().min(0).max(10_000).default(80),
  FEE_BANK_CAP_CENTS: z.coerce.number().int().min(0).max(100_000).default(500),
  /** What the business pays per payout (ADR 035), fixed when the payout is approved. */
  FEE_PAYOUT_CENTS: z.coerce.number().int().min(0).max(100_000).default(25),
  /** A refund gives back the payment's fee in proportion (ADR 051); by default the fee is kept, as most processors do. */
  FEE_REFUND_RETURNS_FEE: bool.optional(),
  /** What a dispute costs the business when it opens (ADR 051), taken from the available balance with the disputed amount. */
  FEE_DISPUTE_CENTS: z.coerce.number().int().min(0).max(100_000).default(1500),
  /** A won dispute gives the dispute fee back too; by default it is kept, as most processors do. */
  FEE_DISPUTE_WON_RETURNS_FEE: bool.optional(),
  /**
   * Accounting providers (issue 24, ADR 041). Without a client id, the built-in stand-in on this
   * server answers (like the sandbox processor); with one, the real provider's hosts are the
   * defaults and each URL can be moved (a provider's sandbox, a proxy).
   */
  QUICKBOOKS_CLIENT_ID: z.string().min(1).optional(),
  QUICKBOOKS_CLIENT_SECRET: z.string().min(1).optional(),
  QUICKBOOKS_AUTH_URL: z.url().optional(),
  QUICKBOOKS_TOKEN_URL: z.url().optional(),
  QUICKBOOKS_REVOKE_URL: z.url().optional(),
  QUICKBOOKS_API_URL: z.url().optional(),
  FRESHBOOKS_CLIENT_ID: z.string().min(1).optional(),
  FRESHBOOKS_CLIENT_SECRET: z.string().min(1).optional(),
  FRESHBOOKS_AUTH_URL: z.url().optional(),
  FRESHBOOKS_TOKEN_URL: z.url().optional(),
  FRESHBOOKS_REVOKE_URL: z.url().optional(),
  FRESHBOOKS_API_URL: z.url().optional(),
});

export type Env = z.infer<typeof EnvSchema>;

export interface Config {
  env: Env['NODE_ENV'];
  isProduction: boolean;
  port: number;
  host: string;
  publicUrl: string;
  /**
   * PostgreSQL: `url` is what the app logs in with; `migrationUrl` the owner's, which migrates.
   * Without `migrationUrl`, `url` is the owner's and the app logs in as its own role (ADR 022).
   */
  database: { kind: 'postgres'; url: string; migrationUrl: string | undefined; poolMax: number } | { kind: 'pglite'; dataDir: string; poolMax: number };
  dataDir: string;
  authSecret: string;
  /**
   * Secrets AUTH_SECRET replaced (AUTH_SECRET_PREVIOUS), newest first: bank account numbers they
   * sealed still open, and the pay links they made can still be shown and e-mailed again.
   */
  previousAuthSecrets: string[];
  mail: { smtpUrl: string | undefined; from: string; smsApiUrl: string | undefined; smsFrom: string | undefined };
  logLevel: Env['LOG_LEVEL'];
  /** The API's request budget per session, or per address without one (ADR 044). */
  rateLimit: { max: number; windowSeconds: number };
  /** Multiplies the per-IP limits on sign-in, sign-up and codes (the per-account limits stay). */
  authIpRateLimitScale: number;
  trustProxy: boolean;
  jobsInProcess: boolean;
  marketingSiteUrl: string;
  /** The dev-only outbox pages (`/dev/mail`, `/api/dev/outbox`) exist only outside production. */
  devToolsEnabled: boolean;
  webDistDir: string;
  /**
   * A submitted business is approved by a background job a few seconds later, as if operations
   * had reviewed it. On by default with the embedded database (a demo or developer machine).
   */
  sandboxAutoApprove: boolean;
  processor: ProcessorConfig;
  fees: FeeSchedule;
  /** The fee per payout, in cents (FEE_PAYOUT_CENTS, ADR 035). */
  payoutFeeCents: number;
  /**
   * QuickBooks Online and FreshBooks: the real ones when configured, else this server's stand-ins
   * (ADR 041) — outside production only: in production an unconfigured provider is `null`, not offered.
   */
  accounting: Record<IntegrationProvider, ProviderSettings | null>;
}

/** The payment processor's keys and the sandbox processor's timing (ARCHITECTURE.md §5). */
export interface ProcessorConfig {
  /** Given to the browser's card field (docs/product.md §7: the key is chosen by environment). */
  publishableKey: string;
  secretKey: string;
  /** Signs the webhooks the processor sends us (`Tay-Signature`). */
  webhookSecret: string;
  /** Where the processor delivers webhooks. */
  webhookUrl: string;
  /** Seconds between the sandbox's steps: debit → succeeded → settled → returned. */
  settlementSeconds: number;
}

/** Fees per method in integer cents: basis points (1/100 of a percent), plus a fixed part or a cap. */
export interface FeeSchedule {
  card: { bps: number; fixedCents: number };
  bankAccount: { bps: number; capCents: number };
  /** FEE_REFUND_RETURNS_FEE: a refund gives back its share of the payment's fee. */
  refundReturnsFee?: boolean;
  /** FEE_DISPUTE_CENTS and FEE_DISPUTE_WON_RETURNS_FEE (ADR 051). */
  dispute?: { disputeCents: number; wonReturnsFee: boolean };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Empty strings count as unset, so `.env.example` can list every variable with no value. */
function clean(source: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(source)) {
    if (value !== undefined && value.trim() !== '') out[key] = value.trim();
  }
  return out;
}

export function loadConfig(source: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const parsed = EnvSchema.safeParse(clean(source));
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.') || '(environment)'}: ${issue.message}`));
  }
  const env = parsed.data;
  const isProduction = env.NODE_ENV === 'production';
  const problems: string[] = [];
  if (isProduction && !env.AUTH_SECRET) problems.push('AUTH_SECRET: required when NODE_ENV=production');
  if (isProduction && !env.PUBLIC_URL) problems.push('PUBLIC_URL: required when NODE_ENV=production (links in e-mails)');
  if (env.SMS_API_URL && !env.SMS_FROM) problems.push('SMS_FROM: required with SMS_API_URL (the number text messages come from)');
  if (env.DATABASE_MIGRATION_URL && !env.DATABASE_URL) {
    problems.push("DATABASE_URL: required with DATABASE_MIGRATION_URL (the app's own login to the same database)");
  }
  if (env.DATABASE_MIGRATION_URL && env.DATABASE_MIGRATION_URL === env.DATABASE_URL) {
    problems.push("DATABASE_MIGRATION_URL: must differ from DATABASE_URL; the app must not log in as the schema's owner");
  }
  for (const prefix of ['QUICKBOOKS', 'FRESHBOOKS'] as const) {
    if (Boolean(env[`${prefix}_CLIENT_ID`]) !== Boolean(env[`${prefix}_CLIENT_SECRET`])) {
      problems.push(`${prefix}_CLIENT_SECRET: ${prefix}_CLIENT_ID and ${prefix}_CLIENT_SECRET are set together (the app's credentials at the provider)`);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);

  // `memory://` keeps nothing on disk (tests): an in-memory database and a per-process secret.
  const inMemory = env.DATA_DIR === 'memory://';
  const dataDir = inMemory ? env.DATA_DIR : path.resolve(cwd, env.DATA_DIR);
  const host = env.HOST ?? (isProduction ? '0.0.0.0' : '127.0.0.1');
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, '');
  const authSecret = env.AUTH_SECRET ?? (inMemory ? randomBytes(32).toString('base64url') : localSecret(dataDir));
  return {
    env: env.NODE_ENV,
    isProduction,
    port: env.PORT,
    host,
    publicUrl,
    database: env.DATABASE_URL
      ? { kind: 'postgres', url: env.DATABASE_URL, migrationUrl: env.DATABASE_MIGRATION_URL, poolMax: env.DATABASE_POOL_MAX }
      : { kind: 'pglite', dataDir: inMemory ? 'memory://' : path.join(dataDir, 'pglite'), poolMax: env.DATABASE_POOL_MAX },
    dataDir,
    authSecret,
    previousAuthSecrets: env.AUTH_SECRET_PREVIOUS.filter((s) => s !== authSecret),
    mail: { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, smsApiUrl: env.SMS_API_URL, smsFrom: env.SMS_FROM },
    logLevel: env.LOG_LEVEL,
    rateLimit: { max: env.RATE_LIMIT_MAX, windowSeconds: env.RATE_LIMIT_WINDOW_SECONDS },
    authIpRateLimitScale: env.AUTH_IP_RATE_LIMIT_SCALE,
    trustProxy: env.TRUST_PROXY,
    jobsInProcess: env.JOBS_IN_PROCESS,
    marketingSiteUrl: env.MARKETING_SITE_URL,
    devToolsEnabled: !isProduction,
    webDistDir: path.resolve(cwd, env.WEB_DIST_DIR ?? path.join(repoRoot(), 'apps/web/dist')),
    sandboxAutoApprove: env.SANDBOX_AUTO_APPROVE ?? !env.DATABASE_URL,
    processor: {
      publishableKey: env.PROCESSOR_PUBLISHABLE_KEY ?? `pk_test_${derivedKey(authSecret, 'publishable-key')}`,
      secretKey: env.PROCESSOR_SECRET_KEY ?? `sk_test_${derivedKey(authSecret, 'secret-key')}`,
      webhookSecret: env.PROCESSOR_WEBHOOK_SECRET ?? `whsec_${derivedKey(authSecret, 'webhook-secret')}`,
      webhookUrl: env.PROCESSOR_WEBHOOK_URL ?? `${publicUrl}/api/webhooks/processor`,
      settlementSeconds: env.SANDBOX_SETTLEMENT_SECONDS,
    },
    fees: {
      card: { bps: env.FEE_CARD_BPS, fixedCents: env.FEE_CARD_FIXED_CENTS },
      bankAccount: { bps: env.FEE_BANK_BPS, capCents: env.FEE_BANK_CAP_CENTS },
      refundReturnsFee: env.FEE_REFUND_RETURNS_FEE ?? false,
      dispute: { disputeCents: env.FEE_DISPUTE_CENTS, wonReturnsFee: env.FEE_DISPUTE_WON_RETURNS_FEE ?? false },
    },
    payoutFeeCents: env.FEE_PAYOUT_CENTS,
    accounting: accountingSettings(env, publicUrl, authSecret, isProduction),
  };
}

/** The real providers' hosts (their public documentation), used once a client id is configured. */
const ACCOUNTING_HOSTS: Record<IntegrationProvider, { authUrl: string; tokenUrl: string; revokeUrl: string; apiUrl: string }> = {
  quickbooks: {
    authUrl: 'https://appcenter.intuit.com/connect/oauth2',
    tokenUrl: 'https://oauth.platform.intuit.com/oauth2/v1/tokens/bearer',
    revokeUrl: 'https://developer.api.intuit.com/v2/oauth2/tokens/revoke',
    apiUrl: 'https://quickbooks.api.intuit.com',
  },
  freshbooks: {
    authUrl: 'https://auth.freshbooks.com/oauth/authorize',
    tokenUrl: 'https://api.freshbooks.com/auth/oauth/token',
    revokeUrl: 'https://api.freshbooks.com/auth/oauth/revoke',
    apiUrl: 'https://api.freshbooks.com',
  },
};

/** The stand-ins' paths on this server: the real paths under `/sandbox/<provider>` (`apps/api/src/accounting/standin-routes.ts`). */
const STANDIN_PATHS: Record<IntegrationProvider, { authUrl: string; tokenUrl: string; revokeUrl: string; apiUrl: string }> = {
  quickbooks: {
    authUrl: '/sandbox/quickbooks/connect/oauth2',
    tokenUrl: '/sandbox/quickbooks/oauth2/v1/tokens/bearer',
    revokeUrl: '/sandbox/quickbooks/v2/oauth2/tokens/revoke',
    apiUrl: '/sandbox/quickbooks',
  },
  freshbooks: {
    authUrl: '/sandbox/freshbooks/oauth/authorize',
    tokenUrl: '/sandbox/freshbooks/auth/oauth/token',
    revokeUrl: '/sandbox/freshbooks/auth/oauth/revoke',
    apiUrl: '/sandbox/freshbooks',
  },
};

function accountingSettings(env: Env, publicUrl: string, authSecret: string, isProduction: boolean): Record<IntegrationProvider, ProviderSettings | null> {
  const settings = (provider: IntegrationProvider, prefix: 'QUICKBOOKS' | 'FRESHBOOKS'): ProviderSettings | null => {
    const clientId = env[`${prefix}_CLIENT_ID`];
    const clientSecret = env[`${prefix}_CLIENT_SECRET`];
    if (clientId && clientSecret) {
      const hosts = ACCOUNTING_HOSTS[provider];
      return {
        clientId,
        clientSecret,
        authUrl: env[`${prefix}_AUTH_URL`] ?? hosts.authUrl,
        tokenUrl: env[`${prefix}_TOKEN_URL`] ?? hosts.tokenUrl,
        revokeUrl: env[`${prefix}_REVOKE_URL`] ?? hosts.revokeUrl,
        apiUrl: (env[`${prefix}_API_URL`] ?? hosts.apiUrl).replace(/\/$/, ''),
        standIn: false,
      };
    }
    // A stand-in is for development and tests: production offers only the providers it has credentials for.
    if (isProduction) return null;
    const paths = STANDIN_PATHS[provider];
    return {
      clientId: `tay-standin-${provider}`,
      clientSecret: createHmac('sha256', authSecret).update(`accounting-standin:${provider}`).digest('hex').slice(0, 32),
      authUrl: `${publicUrl}${paths.authUrl}`,
      tokenUrl: `${publicUrl}${paths.tokenUrl}`,
      revokeUrl: `${publicUrl}${paths.revokeUrl}`,
      apiUrl: `${publicUrl}${paths.apiUrl}`,
      standIn: true,
    };
  };
  return { quickbooks: settings('quickbooks', 'QUICKBOOKS'), freshbooks: settings('freshbooks', 'FRESHBOOKS') };
}

/** Unset processor keys are derived from AUTH_SECRET: stable across restarts, different per installation. */
function derivedKey(secret: string, purpose: string): string {
  return createHmac('sha256', secret).update(`sandbox-processor:${purpose}`).digest('hex').slice(0, 32);
}

/**
 * Outside production a missing AUTH_SECRET is generated once and kept in the data directory,
 * so a fresh machine works with no `.env` and sessions survive a restart.
 */
function localSecret(dataDir: string): string {
  const file = path.join(dataDir, 'auth-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/** The repository root, found from this file both in `src/` (tsx, vitest) and in `dist/`. */
export function repoRoot(): string {
  let dir = path.dirname(new URL(import.meta.url).pathname);
  for (let i = 0; i < 6; i++) {
    if (existsSync(path.join(dir, 'apps', 'api', 'migrations'))) return dir;
    dir = path.dirname(dir);
  }
  throw new Error('Cannot locate the repository root from ' + import.meta.url);
}
