import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { COMMANDS } from '../../src/ops/commands';
import { approvedBusiness, insertPayer } from '../support/approved-business';
import { errorOf } from '../support/identity';
import { dayIn, outbox, requestsApi, setPayerActive, snapshot } from '../support/requests';
import { createTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
const db = () => t.runtime.database.db;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

/** Runs an operator command as `npm run ops` does. */
async function ops(name: string, ...args: string[]): Promise<void> {
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  try {
    await COMMANDS[name]!.run(t.runtime, args);
  } finally {
    log.mockRestore();
  }
}

describe('a deactivated payer is not e-mailed', () => {
  it('send and resend are refused with who, why and what to do; nothing changes and nothing is e-mailed', async () => {
    const biz = await approvedBusiness(t.app, db(), 'owner@deactivated-payer.example');
    const api = requestsApi(t.app, biz);
    const email = 'dora@deactivated-payer.example';
    const payerId = await insertPayer(db(), biz.businessId, { email, displayName: 'Dora Xu' });
    const draft = await api.create(payerId);
    const sent = await api.create(payerId, { mode: 'send' });
    await setPayerActive(t.app, biz, payerId, false);

    for (const [id, command, verb] of [
      [draft.transactionId, 'send', 'sent'],
      [sent.transactionId, 'resend', 'resent'],
    ] as const) {
      const before = await snapshot(db(), id);
      const res = await api.command(id, command);
      expect(res.statusCode, res.body).toBe(409);
      expect(errorOf(res).message).toBe(
        `Dora Xu (${email}) is deactivated, so this request was not ${verb} and nothing was e-mailed. Activate the payer on the Payers page, then ${command} it again.`,
      );
      expect(await snapshot(db(), id)).toEqual(before);
    }
    expect(await outbox(t.app, email)).toHaveLength(1);

    // Sending a scheduled request now (an edit) is refused the same way.
    const scheduled = await api.create(await insertPayer(db(), biz.businessId, { email: 'sam@deactivated-payer.example' }), {
      mode: 'schedule',
      sendAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    await setPayerActive(t.app, biz, scheduled.payerId, false);
    const now = await api.patch(scheduled.transactionId, api.body(scheduled.payerId, { mode: 'send' }));
    expect(now.statusCode).toBe(400);
    expect(errorOf(now).fields).toEqual({ payerId: 'This payer is deactivated; activate them first.' });
    expect(await outbox(t.app, 'sam@deactivated-payer.example')).toEqual([]);

    // Active again: both go out.
    await setPayerActive(t.app, biz, payerId, true);
    expect((await api.command(draft.transactionId, 'send')).json().data.transactionState).toBe('Sent');
    expect((await api.command(sent.transactionId, 'resend')).json().data.transactionState).toBe('Resent');
    expect(await outbox(t.app, email)).toHaveLength(3);
  });
});

describe('only an Approved business may send', () => {
  it('once operations disable it, create, send and resend are refused with the reason; nothing is sent', async () => {
    const biz = await approvedBusiness(t.app, db(), 'owner@disabled-sender.example');
    const api = requestsApi(t.app, biz);
    const email = 'pat@disabled-sender.example';
    const payerId = await insertPayer(db(), biz.businessId, { email });
    const draft = await api.create(payerId);
    const sent = await api.create(payerId, { mode: 'send' });
    const requests = async () => db().selectFrom('payment_requests').select('id').where('business_id', '=', biz.businessId).execute();
    const countBefore = (await requests()).length;

    await ops('disable-business', biz.businessId, '--reason', 'Chargeback review');
    const message = 'This business is disabled, so it cannot request payments. Contact Tay support.';

    for (const mode of ['draft', 'send', 'schedule']) {
      const res = await api.post(api.body(payerId, { mode, sendAt: new Date(Date.now() + 3_600_000).toISOString(), dueDate: dayIn(5) }));
      expect(res.statusCode, mode).toBe(403);
      expect(errorOf(res)).toEqual({ code: 'BUSINESS_NOT_APPROVED', message });
    }
    expect(await requests()).toHaveLength(countBefore);

    for (const [id, command] of [
      [draft.transactionId, 'send'],
      [sent.transactionId, 'resend'],
    ] as const) {
      const before = await snapshot(db(), id);
      const res = await api.command(id, command);
      expect(res.statusCode, command).toBe(403);
      expect(errorOf(res)).toEqual({ code: 'BUSINESS_NOT_APPROVED', message });
      expect(await snapshot(db(), id)).toEqual(before);
    }
    expect(await outbox(t.app, email)).toHaveLength(1);

    // Enabled again by operations: sending works.
    await ops('enable-business', biz.businessId);
    expect((await api.command(draft.transactionId, 'send')).statusCode).toBe(200);
  });
});
