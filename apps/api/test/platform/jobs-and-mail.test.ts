// PostgreSQL pass: the job queue and the mail outbox.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { createMailer } from '../../src/mail/mailer';
import { startRuntime } from '../../src/runtime';
import { createTestApp, eventually, freshDatabaseUrl, type TestApp } from '../support/test-app';
import { silentLogger } from '../support/silent-logger';

describe('outbox mode (no SMTP_URL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('stores messages and lists them newest first, filtered by recipient', async () => {
    await t.runtime.mailer.send({ to: 'Ana@Example.com', subject: 'First', text: 'one' });
    await new Promise((r) => setTimeout(r, 5));
    await t.runtime.mailer.send({ to: 'ana@example.com', subject: 'Second', text: 'two', html: '<p>two</p>' });
    await t.runtime.mailer.send({ to: 'bo@example.com', subject: 'Other', text: 'three' });

    const res = await t.app.inject({ method: 'GET', url: '/api/dev/outbox?to=ana@example.com' });
    expect(res.statusCode).toBe(200);
    const list = res.json();
    expect(list.map((m: { subject: string }) => m.subject)).toEqual(['Second', 'First']);
    expect(list[0]).toMatchObject({ to: 'ana@example.com', subject: 'Second', text: 'two', html: '<p>two</p>' });
    expect(new Date(list[0].createdAt).toString()).not.toBe('Invalid Date');

    const page = await t.app.inject({ method: 'GET', url: '/dev/mail?to=ana@example.com' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Second');
    expect(page.body).not.toContain('Other');
  });

  it('escapes message content on the outbox page', async () => {
    await t.runtime.mailer.send({ to: 'x@example.com', subject: '<script>alert(1)</script>', text: 'a & b' });
    const page = await t.app.inject({ method: 'GET', url: '/dev/mail?to=x@example.com' });
    expect(page.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page.body).not.toContain('<script>alert(1)');
  });

  it('a message sent inside a rolled-back transaction never exists', async () => {
    await expect(
      t.runtime.database.db.transaction().execute(async (trx) => {
        await t.runtime.mailer.send({ to: 'rollback@example.com', subject: 'Nope', text: 'x' }, trx);
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    const res = await t.app.inject({ method: 'GET', url: '/api/dev/outbox?to=rollback@example.com' });
    expect(res.json()).toEqual([]);
  });
});

describe('attachments made by the delivery job', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it("keeps a file's recipe with the message, makes it once in the job, and the outbox then holds the bytes", async () => {
    const db = t.runtime.database.db;
    const made: unknown[] = [];
    // The mailer's own job queue stands aside: this test runs the job's step itself.
    const mailer = createMailer({
      db,
      jobs: { send: async () => null, insert: async () => undefined },
      log: silentLogger,
      smtpUrl: undefined,
      from: 'Tay <no-reply@tay.example>',
      renderers: {
        note: async (recipe) => {
          made.push(recipe);
          return new TextEncoder().encode(`made for ${String(recipe.who)}`);
        },
      },
    });
    const id = await mailer.send({
      to: 'files@example.com',
      subject: 'With a file',
      text: 'x',
      attachments: [
        { filename: 'kept.txt', contentType: 'text/plain', content: new TextEncoder().encode('as given') },
        { filename: 'made.txt', contentType: 'text/plain', render: { kind: 'note', who: 'Ana' } },
      ],
    });
    const stored = async () => (await db.selectFrom('mail_outbox').select('attachments').where('id', '=', id).executeTakeFirstOrThrow()).attachments!;
    expect(await stored()).toEqual([
      { filename: 'kept.txt', contentType: 'text/plain', content: Buffer.from('as given').toString('base64') },
      { filename: 'made.txt', contentType: 'text/plain', render: { kind: 'note', who: 'Ana' } },
    ]);
    expect(made).toHaveLength(0);

    await mailer.deliver(id);
    await mailer.deliver(id);
    expect(made).toEqual([{ kind: 'note', who: 'Ana' }]);
    expect((await stored())[1]).toEqual({ filename: 'made.txt', contentType: 'text/plain', content: Buffer.from('made for Ana').toString('base64') });
  });

  it('a recipe no renderer knows fails the job (which retries), and the message keeps its recipe', async () => {
    const db = t.runtime.database.db;
    const made = await t.runtime.mailer.send({
      to: 'pdf@example.com',
      subject: 'Unknown renderer',
      text: 'x',
      attachments: [{ filename: 'x.pdf', contentType: 'application/pdf', render: { kind: 'no-such-kind' } }],
    });
    await expect(t.runtime.mailer.deliver(made)).rejects.toThrow(/No renderer for attachments of kind no-such-kind/);
    const row = await db.selectFrom('mail_outbox').select('attachments').where('id', '=', made).executeTakeFirstOrThrow();
    expect(row.attachments).toEqual([{ filename: 'x.pdf', contentType: 'application/pdf', render: { kind: 'no-such-kind' } }]);
  });
});

describe('background jobs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('a job round-trips: sent, picked up by the in-process worker, done', async () => {
    const { db } = t.runtime.database;
    const old = new Date(Date.now() - 200 * 24 * 3600 * 1000);
    await db
      .insertInto('mail_outbox')
      .values([
        {
          id: 'msg_old',
          to_address: 'a@example.com',
          subject: 'old',
          text_body: 'x',
          html_body: null,
          transport: 'outbox',
          status: 'stored',
          last_error: null,
          sent_at: null,
          created_at: old,
        },
        {
          id: 'msg_new',
          to_address: 'a@example.com',
          subject: 'new',
          text_body: 'x',
          html_body: null,
          transport: 'outbox',
          status: 'stored',
          last_error: null,
          sent_at: null,
        },
      ])
      .execute();
    const jobId = await t.runtime.jobs.send('maintenance.purge-outbox', {});
    expect(jobId).toBeTruthy();
    const job = await eventually(async () => {
      const found = await t.runtime.jobs.boss.getJobById('maintenance.purge-outbox', jobId!);
      return found?.state === 'completed' ? found : undefined;
    });
    expect(job.state).toBe('completed');
    const left = await db.selectFrom('mail_outbox').select('id').where('id', 'in', ['msg_old', 'msg_new']).execute();
    expect(left.map((r) => r.id)).toEqual(['msg_new']);
  });

  it('the hourly purge drops rate-limit counters whose window has ended, and keeps running ones', async () => {
    const { db } = t.runtime.database;
    const hour = 3600 * 1000;
    await db
      .insertInto('rate_limits')
      .values([
        { key: 'test:ended', count: 9, window_ends_at: new Date(Date.now() - hour) },
        { key: 'test:running', count: 3, window_ends_at: new Date(Date.now() + hour) },
      ])
      .execute();
    const jobId = await t.runtime.jobs.send('maintenance.purge-rate-limits', {});
    await eventually(async () => (await t.runtime.jobs.boss.getJobById('maintenance.purge-rate-limits', jobId!))?.state === 'completed');
    const left = await db.selectFrom('rate_limits').select('key').where('key', 'like', 'test:%').execute();
    expect(left.map((r) => r.key)).toEqual(['test:running']);
  });
});

describe('standalone worker (npm run worker)', () => {
  it('runs jobs that the API process sends, on the same database', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'tay-worker-'));
    const databaseUrl = await freshDatabaseUrl();
    const env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      AUTH_SECRET: 'x'.repeat(32),
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    };
    // On PostgreSQL both use one fresh database; on PGlite the worker attaches to the API's socket.
    const api = await startRuntime(loadConfig(env), { work: false, log: silentLogger });
    const worker = await startRuntime(loadConfig(env), { work: true, log: silentLogger, pollingIntervalSeconds: 0.5 });
    try {
      const id = `msg_worker_${Date.now()}`;
      await api.database.db
        .insertInto('mail_outbox')
        .values({
          id,
          to_address: 'w@example.com',
          subject: 'old',
          text_body: 'x',
          html_body: null,
          transport: 'outbox',
          status: 'stored',
          last_error: null,
          sent_at: null,
          created_at: new Date(0),
        })
        .execute();
      const jobId = await api.jobs.send('maintenance.purge-outbox', {});
      await eventually(async () => (await api.jobs.boss.getJobById('maintenance.purge-outbox', jobId!))?.state === 'completed');
      const row = await api.database.db.selectFrom('mail_outbox').select('id').where('id', '=', id).executeTakeFirst();
      expect(row).toBeUndefined();
    } finally {
      await worker.close();
      await api.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('SMTP mode', () => {
  const received: { to: string; raw: string }[] = [];
  let smtp: SMTPServer;
  let port: number;
  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        let raw = '';
        stream.on('data', (chunk: Buffer) => (raw += chunk.toString()));
        stream.on('end', () => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), raw });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    port = (smtp.server.address() as AddressInfo).port;
  });
  afterAll(async () => new Promise<void>((resolve) => smtp.close(() => resolve())));

  it('delivers through the mail.deliver job and records it as sent', async () => {
    const t = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}` });
    try {
      const id = await t.runtime.mailer.send({ to: 'smtp@example.com', subject: 'Your code', text: 'Code: 123456' });
      const row = await eventually(async () => {
        const r = await t.runtime.database.db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirst();
        return r?.status === 'sent' ? r : undefined;
      });
      expect(row.attempts).toBe(1);
      const delivered = received.find((m) => m.to === 'smtp@example.com');
      expect(delivered?.raw).toContain('Subject: Your code');
      expect(delivered?.raw).toContain('Code: 123456');
    } finally {
      await t.close();
    }
  });

  it('records a failed delivery with its reason instead of losing it', async () => {
    const t = await createTestApp({ SMTP_URL: 'smtp://127.0.0.1:1' });
    try {
      const id = await t.runtime.mailer.send({ to: 'fail@example.com', subject: 'Hello', text: 'x' });
      const row = await eventually(async () => {
        const r = await t.runtime.database.db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirst();
        return r?.status === 'failed' ? r : undefined;
      });
      expect(row.attempts).toBeGreaterThanOrEqual(1);
      expect(row.last_error).toMatch(/ECONNREFUSED|connect/i);
    } finally {
      await t.close();
    }
  });
});

describe('production mode', () => {
  it('has no development outbox', async () => {
    const t = await createTestApp({ NODE_ENV: 'production', AUTH_SECRET: 'p'.repeat(40), PUBLIC_URL: 'https://portal.example.com' });
    try {
      expect((await t.app.inject({ method: 'GET', url: '/api/dev/outbox' })).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'GET', url: '/dev/mail' })).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
