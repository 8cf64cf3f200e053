import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountNumberContext, bankAccountNumberBox } from '../../src/domain/businesses/add-bank-account';
import { resealBankAccounts } from '../../src/domain/businesses/reseal-bank-accounts';
import { sendReminders } from '../../src/domain/payment-requests/background';
import { getRequest } from '../../src/domain/payment-requests/get-request';
import type { RequestContext } from '../../src/domain/payment-requests/request-context';
import { payToken, payTokenHash, todayIn } from '../../src/domain/payment-requests/request-record';
import { COMMANDS } from '../../src/ops/commands';
import { approvedBusiness, inDays, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { BANK, request } from '../support/businesses';
import { get } from '../support/identity';
import { createTestApp, type TestApp } from '../support/test-app';

// AUTH_SECRET was OLD and is now NEW (ADR 018).
const OLD = 'the-secret-before-the-rotation-0123456789';
const NEW = 'the-secret-after-the-rotation-9876543210';
const GONE = 'a-secret-nobody-configured-any-more-000000';

let t: TestApp;
let biz: ApprovedBusiness;

beforeAll(async () => {
  t = await createTestApp({ AUTH_SECRET: NEW, AUTH_SECRET_PREVIOUS: OLD });
  biz = await approvedBusiness(t.app, t.runtime.database.db, 'owner@rotation.example');
});
afterAll(async () => t?.close());

const db = () => t.runtime.database.db;
const ctx = (previous: string[]): RequestContext => ({
  db: db(),
  mailer: t.runtime.mailer,
  authSecret: NEW,
  previousAuthSecrets: previous,
  publicUrl: t.runtime.config.publicUrl,
});

/** A request sent to a new payer, due today, as if it had been sent while AUTH_SECRET was OLD. */
async function sentBeforeTheRotation(email: string) {
  const payerId = await insertPayer(db(), biz.businessId, { email, displayName: 'Rory Rotation' });
  const created = await request(t.app, 'POST', `/api/businesses/${biz.businessId}/payment-requests`, biz.token, {
    payerId,
    amountCents: 4_200,
    memo: 'Term fees',
    dueDate: inDays(5),
    allowPartial: false,
    mode: 'send',
  });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().data.transactionId as string;
  const row = await db().selectFrom('payment_requests').select(['sent_at']).where('id', '=', id).executeTakeFirstOrThrow();
  const oldToken = payToken(OLD, id, row.sent_at!);
  await db()
    .updateTable('payment_requests')
    .set({ pay_token_hash: payTokenHash(oldToken), due_date: todayIn('America/New_York'), expires_on: inDays(30) })
    .where('id', '=', id)
    .execute();
  return { id, oldToken, sentAt: row.sent_at! };
}

const payPage = async (token: string) => (await get(t.app, `/api/public/pay/${token}`)).statusCode;
const newestMail = async (to: string) => ((await get(t.app, `/api/dev/outbox?to=${to}`)).json() as { text: string }[])[0]!.text;

describe('rotating AUTH_SECRET: pay links', () => {
  it('with the earlier secret in AUTH_SECRET_PREVIOUS, the business still sees and the reminder still carries the link the payer has', async () => {
    const email = 'kept@payers.example';
    const { id, oldToken } = await sentBeforeTheRotation(email);
    expect(await payPage(oldToken)).toBe(200);
    const detail = (await get(t.app, `/api/businesses/${biz.businessId}/payment-requests/${id}`, biz.token)).json().data;
    expect(detail.payLink).toBe(`${t.runtime.config.publicUrl}/pay/${oldToken}`);

    expect(await sendReminders(ctx([OLD]))).toBeGreaterThanOrEqual(1);
    expect(await newestMail(email)).toContain(`/pay/${oldToken}`);
    expect(await payPage(oldToken)).toBe(200);
  });

  it('without it, no link is shown, and the reminder brings a new link that replaces the one that can no longer be made', async () => {
    const email = 'renewed@payers.example';
    const { id, oldToken, sentAt } = await sentBeforeTheRotation(email);
    const detail = await getRequest({ db: db(), businessId: biz.businessId, requestId: id, authSecret: NEW, publicUrl: t.runtime.config.publicUrl });
    expect(detail.payLink).toBe('');

    expect(await sendReminders(ctx([GONE]))).toBeGreaterThanOrEqual(1);
    const newToken = payToken(NEW, id, sentAt);
    expect(await newestMail(email)).toContain(`/pay/${newToken}`);
    expect(await payPage(newToken)).toBe(200);
    expect(await payPage(oldToken)).toBe(404);
    const after = (await get(t.app, `/api/businesses/${biz.businessId}/payment-requests/${id}`, biz.token)).json().data;
    expect(after.payLink).toBe(`${t.runtime.config.publicUrl}/pay/${newToken}`);
    expect(after.timeline.at(-1).detail).toMatch(/^Reminder e-mailed to renewed@payers\.example on the due date, with a new link: /);
  });
});

describe('rotating AUTH_SECRET: bank account numbers', () => {
  const number = BANK.accountNumber;

  async function account() {
    return db()
      .selectFrom('bank_accounts')
      .select(['business_id', 'id', 'account_number_encrypted'])
      .where('business_id', '=', biz.businessId)
      .where('is_settlement', '=', true)
      .executeTakeFirstOrThrow();
  }
  async function sealUnder(secret: string) {
    const row = await account();
    const sealed = bankAccountNumberBox([secret]).seal(number, accountNumberContext(row.business_id, row.id));
    await db()
      .updateTable('bank_accounts')
      .set({ account_number_encrypted: sealed })
      .where('business_id', '=', row.business_id)
      .where('id', '=', row.id)
      .execute();
    return sealed;
  }

  it('reseal-secrets encrypts what the earlier secret sealed under the new one; a second run changes nothing', async () => {
    await sealUnder(OLD);
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      await COMMANDS['reseal-secrets']!.run(t.runtime, []);
      expect(log.mock.calls[0]![0]).toMatch(/^Bank account numbers: [1-9]\d* encrypted again under the current AUTH_SECRET/);
    } finally {
      log.mockRestore();
    }
    const row = await account();
    const context = accountNumberContext(row.business_id, row.id);
    // The new secret alone opens it now; the old one no longer does.
    expect(bankAccountNumberBox([NEW]).open(row.account_number_encrypted, context)).toBe(number);
    expect(() => bankAccountNumberBox([OLD]).open(row.account_number_encrypted, context)).toThrow();

    const again = await resealBankAccounts({ db: db(), secretBox: bankAccountNumberBox([NEW, OLD]) });
    expect(again.resealed).toBe(0);
    expect(again.unreadable).toEqual([]);
    expect((await account()).account_number_encrypted).toBe(row.account_number_encrypted);
  });

  it('a number no configured secret opens is named, left as it is, and the command fails', async () => {
    const sealed = await sealUnder(GONE);
    const row = await account();
    const outcome = await resealBankAccounts({ db: db(), secretBox: bankAccountNumberBox([NEW, OLD]), batchSize: 1 });
    expect(outcome.unreadable).toEqual([accountNumberContext(row.business_id, row.id)]);
    expect((await account()).account_number_encrypted).toBe(sealed);

    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      await COMMANDS['reseal-secrets']!.run(t.runtime, []);
      expect(error.mock.calls[0]![0]).toContain(
        `could not be opened with AUTH_SECRET or AUTH_SECRET_PREVIOUS and were left as they are (business:account): ${accountNumberContext(row.business_id, row.id)}`,
      );
      expect(process.exitCode).toBe(1);
    } finally {
      process.exitCode = undefined;
      error.mockRestore();
      log.mockRestore();
    }
  });
});
