import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestEmail } from '@tay/contract';
import { approvedBusiness, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { requestsApi } from '../support/requests';
import { createTestApp, eventually, type TestApp } from '../support/test-app';

type Detail = { emails: RequestEmail[] };

describe('a request lists the e-mails sent about it (no mail server: the outbox)', () => {
  let t: TestApp;
  let biz: ApprovedBusiness;
  let other: ApprovedBusiness;
  beforeAll(async () => {
    t = await createTestApp();
    biz = await approvedBusiness(t.app, t.runtime.database.db, 'owner@request-emails.example');
    other = await approvedBusiness(t.app, t.runtime.database.db, 'owner@request-emails-other.example');
  });
  afterAll(async () => t?.close());

  it('a draft has none; the send and each resend add one, newest first, to the payer’s address', async () => {
    const api = requestsApi(t.app, biz);
    const payerId = await insertPayer(t.runtime.database.db, biz.businessId, { email: 'mia@payers.example', displayName: 'Mia Payer' });
    const draft = await api.create(payerId);
    expect(((await api.detail(draft.transactionId)) as unknown as Detail).emails).toEqual([]);

    expect((await api.command(draft.transactionId, 'send', { 'idempotency-key': 'emails-send-1' })).statusCode).toBe(200);
    expect((await api.command(draft.transactionId, 'resend', { 'idempotency-key': 'emails-resend-1' })).statusCode).toBe(200);
    const { emails } = (await api.detail(draft.transactionId)) as unknown as Detail;
    expect(emails).toHaveLength(2);
    for (const e of emails) {
      expect(e).toMatchObject({ to: 'mia@payers.example', delivery: 'outbox', attempts: 0, lastError: null, sentAt: null });
      expect(e.subject).toMatch(/\$125\.00/);
    }
    expect(Date.parse(emails[0]!.createdAt)).toBeGreaterThanOrEqual(Date.parse(emails[1]!.createdAt));
  });

  it('another business’s request e-mails are not listed, nor e-mails about nothing (a verification link)', async () => {
    const mine = requestsApi(t.app, biz);
    const theirs = requestsApi(t.app, other);
    const shared = 'shared@payers.example';
    const myPayer = await insertPayer(t.runtime.database.db, biz.businessId, { email: shared, displayName: 'Sam Shared' });
    const theirPayer = await insertPayer(t.runtime.database.db, other.businessId, { email: shared, displayName: 'Sam Shared' });
    const myRequest = await mine.create(myPayer, { mode: 'send' });
    await theirs.create(theirPayer, { mode: 'send' });
    await theirs.create(theirPayer, { mode: 'send' });
    await t.runtime.mailer.send({ to: shared, subject: 'Confirm your e-mail address', text: 'x' });
    const { emails } = (await mine.detail(myRequest.transactionId)) as unknown as Detail;
    expect(emails).toHaveLength(1);
  });
});

describe('a request whose e-mail the mail server refuses says so, with the server’s reason', () => {
  let t: TestApp;
  let biz: ApprovedBusiness;
  beforeAll(async () => {
    // Nothing listens on port 1: every delivery fails, as with a mail server that is down.
    t = await createTestApp({ SMTP_URL: 'smtp://127.0.0.1:1' });
    biz = await approvedBusiness(t.app, t.runtime.database.db, 'owner@request-emails-down.example');
  });
  afterAll(async () => t?.close());

  it('retrying while attempts remain; given up ("failed") after the last', async () => {
    const api = requestsApi(t.app, biz);
    const payerId = await insertPayer(t.runtime.database.db, biz.businessId, { email: 'down@payers.example', displayName: 'Dee Down' });
    const sent = await api.create(payerId, { mode: 'send' });
    const email = await eventually(async () => {
      const { emails } = (await api.detail(sent.transactionId)) as unknown as Detail;
      return emails[0]?.delivery === 'retrying' ? emails[0] : undefined;
    });
    expect(email).toMatchObject({ to: 'down@payers.example', sentAt: null });
    expect(email.attempts).toBeGreaterThanOrEqual(1);
    expect(email.lastError).toMatch(/ECONNREFUSED|connect/i);

    // The job's last attempt (MAIL_DELIVERY_ATTEMPTS) leaves it failed for good.
    await t.runtime.database.db.updateTable('mail_outbox').set({ attempts: 9 }).where('id', '=', email.messageId).execute();
    const { emails } = (await api.detail(sent.transactionId)) as unknown as Detail;
    expect(emails[0]).toMatchObject({ messageId: email.messageId, delivery: 'failed' });
  });
});
