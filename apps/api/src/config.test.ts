import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('works with nothing set: embedded database under ./data, port 3000, outbox mail', () => {
    const config = loadConfig({ DATA_DIR: 'memory://' }, '/srv/tay');
    expect(config.port).toBe(3000);
    expect(config.database.kind).toBe('pglite');
    expect(config.mail.smtpUrl).toBeUndefined();
    expect(config.devToolsEnabled).toBe(true);
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(loadConfig({}, '/srv/tay').database).toMatchObject({ kind: 'pglite', dataDir: '/srv/tay/data/pglite' });
  });

  it('uses PostgreSQL when DATABASE_URL is set, with no other change', () => {
    const config = loadConfig({ DATA_DIR: 'memory://', DATABASE_URL: 'postgres://u@db:5432/tay' });
    expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://u@db:5432/tay', migrationUrl: undefined, poolMax: 10 });
  });

  it('migrates with DATABASE_MIGRATION_URL when it is set, which needs a DATABASE_URL of its own', () => {
    const config = loadConfig({ DATA_DIR: 'memory://', DATABASE_URL: 'postgres://app@db:5432/tay', DATABASE_MIGRATION_URL: 'postgres://owner@db:5432/tay' });
    expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://app@db:5432/tay', migrationUrl: 'postgres://owner@db:5432/tay', poolMax: 10 });
    expect(() => loadConfig({ DATA_DIR: 'memory://', DATABASE_MIGRATION_URL: 'postgres://owner@db:5432/tay' })).toThrow(
      /DATABASE_URL: required with DATABASE_MIGRATION_URL/,
    );
    expect(() => loadConfig({ DATA_DIR: 'memory://', DATABASE_URL: 'postgres://o@db/tay', DATABASE_MIGRATION_URL: 'postgres://o@db/tay' })).toThrow(
      /DATABASE_MIGRATION_URL: must differ from DATABASE_URL/,
    );
    expect(() => loadConfig({ DATA_DIR: 'memory://', DATABASE_URL: 'postgres://a@db/tay', DATABASE_MIGRATION_URL: 'mysql://o@db/tay' })).toThrow(
      /DATABASE_MIGRATION_URL: must be a postgres:\/\/ or postgresql:\/\/ URL/,
    );
  });

  it('treats empty values as unset, so .env.example works as it is', () => {
    const config = loadConfig({ DATA_DIR: 'memory://', DATABASE_URL: '', SMTP_URL: '  ', PORT: '' });
    expect(config.database.kind).toBe('pglite');
    expect(config.port).toBe(3000);
  });

  it('lists every problem at once, readably', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', SMTP_URL: 'http://mail', LOG_LEVEL: 'loud' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const { problems, message } = error as ConfigError;
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual(['DATABASE_URL', 'LOG_LEVEL', 'PORT', 'SMTP_URL']);
    expect(message).toContain('Invalid configuration:\n  - ');
  });

  it('production needs a secret and a public URL, and has no development tools', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: 'memory://' })).toThrow(/AUTH_SECRET[\s\S]*PUBLIC_URL/);
    const config = loadConfig({
      NODE_ENV: 'production',
      DATA_DIR: 'memory://',
      AUTH_SECRET: 's'.repeat(32),
      PUBLIC_URL: 'https://portal.example.com/',
    });
    expect(config.devToolsEnabled).toBe(false);
    expect(config.host).toBe('0.0.0.0');
    expect(config.publicUrl).toBe('https://portal.example.com');
  });

  it('keeps earlier secrets after a rotation, newest first, each 32+ characters', () => {
    const [a, b] = ['a'.repeat(32), 'b'.repeat(40)];
    expect(loadConfig({ DATA_DIR: 'memory://' }).previousAuthSecrets).toEqual([]);
    expect(loadConfig({ DATA_DIR: 'memory://', AUTH_SECRET: 'c'.repeat(32), AUTH_SECRET_PREVIOUS: ` ${a} , ${b},` }).previousAuthSecrets).toEqual([a, b]);
    // The current secret is not kept twice.
    expect(loadConfig({ DATA_DIR: 'memory://', AUTH_SECRET: a, AUTH_SECRET_PREVIOUS: `${a},${b}` }).previousAuthSecrets).toEqual([b]);
    expect(() => loadConfig({ DATA_DIR: 'memory://', AUTH_SECRET_PREVIOUS: `${a},short` })).toThrow(
      /AUTH_SECRET_PREVIOUS: each secret must be at least 32 characters/,
    );
    expect(() => loadConfig({ DATA_DIR: 'memory://', AUTH_SECRET_PREVIOUS: `${a} ${b}` })).toThrow(/AUTH_SECRET_PREVIOUS: separate the secrets with commas/);
  });

  it('auto-approves submitted businesses by default only on the embedded database', () => {
    expect(loadConfig({ DATA_DIR: 'memory://' }).sandboxAutoApprove).toBe(true);
    expect(loadConfig({ DATA_DIR: 'memory://', DATABASE_URL: 'postgres://u@db:5432/tay' }).sandboxAutoApprove).toBe(false);
    expect(loadConfig({ DATA_DIR: 'memory://', SANDBOX_AUTO_APPROVE: 'false' }).sandboxAutoApprove).toBe(false);
    expect(loadConfig({ DATA_DIR: 'memory://', DATABASE_URL: 'postgres://u@db:5432/tay', SANDBOX_AUTO_APPROVE: 'true' }).sandboxAutoApprove).toBe(true);
    expect(() => loadConfig({ DATA_DIR: 'memory://', SANDBOX_AUTO_APPROVE: 'maybe' })).toThrow(/SANDBOX_AUTO_APPROVE/);
  });

  it('derives stable processor keys from AUTH_SECRET unless they are set, and reads fees and settlement delay', () => {
    const base = { DATA_DIR: 'memory://', AUTH_SECRET: 'a'.repeat(32) };
    const config = loadConfig(base);
    expect(config.processor).toEqual({
      publishableKey: expect.stringMatching(/^pk_test_[0-9a-f]{32}$/),
      secretKey: expect.stringMatching(/^sk_test_[0-9a-f]{32}$/),
      webhookSecret: expect.stringMatching(/^whsec_[0-9a-f]{32}$/),
      webhookUrl: 'http://localhost:3000/api/webhooks/processor',
      settlementSeconds: 5,
    });
    expect(loadConfig(base).processor).toEqual(config.processor);
    expect(loadConfig({ ...base, AUTH_SECRET: 'b'.repeat(32) }).processor.publishableKey).not.toBe(config.processor.publishableKey);
    expect(config.fees).toEqual({
      card: { bps: 290, fixedCents: 30 },
      bankAccount: { bps: 80, capCents: 500 },
      refundReturnsFee: false,
      dispute: { disputeCents: 1500, wonReturnsFee: false },
    });

    const set = loadConfig({
      ...base,
      PROCESSOR_PUBLISHABLE_KEY: 'pk_test_0123456789abcdef',
      PROCESSOR_SECRET_KEY: 'sk_test_0123456789abcdef',
      PROCESSOR_WEBHOOK_SECRET: 'whsec_0123456789abcdef012345',
      PROCESSOR_WEBHOOK_URL: 'https://hooks.example.com/tay',
      SANDBOX_SETTLEMENT_SECONDS: '1',
      FEE_CARD_BPS: '250',
      FEE_BANK_CAP_CENTS: '0',
      FEE_REFUND_RETURNS_FEE: 'true',
      FEE_DISPUTE_CENTS: '2000',
      FEE_DISPUTE_WON_RETURNS_FEE: 'true',
    });
    expect(set.processor).toMatchObject({ publishableKey: 'pk_test_0123456789abcdef', webhookUrl: 'https://hooks.example.com/tay', settlementSeconds: 1 });
    expect(set.fees).toEqual({
      card: { bps: 250, fixedCents: 30 },
      bankAccount: { bps: 80, capCents: 0 },
      refundReturnsFee: true,
      dispute: { disputeCents: 2000, wonReturnsFee: true },
    });
    expect(() => loadConfig({ ...base, PROCESSOR_PUBLISHABLE_KEY: 'sk_test_0123456789abcdef', FEE_CARD_BPS: '-1' })).toThrow(
      /PROCESSOR_PUBLISHABLE_KEY[\s\S]*FEE_CARD_BPS|FEE_CARD_BPS[\s\S]*PROCESSOR_PUBLISHABLE_KEY/,
    );
  });

  it('takes an SMS provider only with the number its messages come from', () => {
    expect(() => loadConfig({ DATA_DIR: 'memory://', SMS_API_URL: 'https://sms.example/Messages.json' })).toThrow(/SMS_FROM: required with SMS_API_URL/);
    expect(() => loadConfig({ DATA_DIR: 'memory://', SMS_API_URL: 'ftp://sms.example', SMS_FROM: '+15550001111' })).toThrow(/SMS_API_URL/);
    const config = loadConfig({ DATA_DIR: 'memory://', SMS_API_URL: 'https://sid:token@sms.example/Messages.json', SMS_FROM: '+15550001111' });
    expect(config.mail).toMatchObject({ smsApiUrl: 'https://sid:token@sms.example/Messages.json', smsFrom: '+15550001111' });
    expect(loadConfig({ DATA_DIR: 'memory://' }).mail.smsApiUrl).toBeUndefined();
  });

  it('talks to the accounting stand-ins on this server until a provider is configured, then to its real hosts', () => {
    const standIn = loadConfig({ DATA_DIR: 'memory://', PUBLIC_URL: 'https://pay.example' }).accounting;
    expect(standIn.quickbooks).toMatchObject({
      standIn: true,
      authUrl: 'https://pay.example/sandbox/quickbooks/connect/oauth2',
      tokenUrl: 'https://pay.example/sandbox/quickbooks/oauth2/v1/tokens/bearer',
      apiUrl: 'https://pay.example/sandbox/quickbooks',
    });
    expect(standIn.freshbooks).toMatchObject({ standIn: true, authUrl: 'https://pay.example/sandbox/freshbooks/oauth/authorize' });

    const real = loadConfig({
      DATA_DIR: 'memory://',
      QUICKBOOKS_CLIENT_ID: 'ABc123',
      QUICKBOOKS_CLIENT_SECRET: 's3cret',
      QUICKBOOKS_API_URL: 'https://sandbox-quickbooks.api.intuit.com/',
    }).accounting;
    expect(real.quickbooks).toEqual({
      clientId: 'ABc123',
      clientSecret: 's3cret',
      authUrl: 'https://appcenter.intuit.com/connect/oauth2',
      tokenUrl: 'https://oauth.platform.intuit.com/oauth2/v1/tokens/bearer',
      revokeUrl: 'https://developer.api.intuit.com/v2/oauth2/tokens/revoke',
      apiUrl: 'https://sandbox-quickbooks.api.intuit.com',
      standIn: false,
    });
    expect(real.freshbooks?.standIn).toBe(true);
    // Production offers only what it has credentials for: no stand-in there.
    const production = loadConfig({
      DATA_DIR: 'memory://',
      NODE_ENV: 'production',
      AUTH_SECRET: 'p'.repeat(40),
      PUBLIC_URL: 'https://pay.example',
      QUICKBOOKS_CLIENT_ID: 'ABc123',
      QUICKBOOKS_CLIENT_SECRET: 's3cret',
    }).accounting;
    expect(production.quickbooks?.standIn).toBe(false);
    expect(production.freshbooks).toBeNull();
    expect(() => loadConfig({ DATA_DIR: 'memory://', FRESHBOOKS_CLIENT_ID: 'only-the-id' })).toThrow(
      /FRESHBOOKS_CLIENT_SECRET: FRESHBOOKS_CLIENT_ID and FRESHBOOKS_CLIENT_SECRET are set together/,
    );
  });
});
