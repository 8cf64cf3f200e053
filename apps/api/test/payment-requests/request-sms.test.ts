import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_MOBILE_MESSAGE, type RequestEmail } from '@tay/contract';
import { sendReminders } from '../../src/domain/payment-requests/background';
import { approvedBusiness, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { errorOf, get } from '../support/identity';
import { dayIn, requestContext, requestsApi } from '../support/requests';
import { createTestApp, eventually, type TestApp } from '../support/test-app';

type Detail = { channel: 'email' | 'sms'; emails: RequestEmail[]; timeline: { event: string; detail: string | null }[] };
type Outboxed = { channel: 'email' | 'sms'; to: string; subject: string; text: string };

async function payerWithMobile(t: TestApp, biz: ApprovedBusiness, email: string, mobile: string | null): Promise<string> {
  const id = await insertPayer(t.runtime.database.db, biz.businessId, { email, displayName: 'Tex Payer' });
  await t.runtime.database.db.updateTable('payers').set({ mobile_number: mobile }).where('id', '=', id).execute();
  return id;
}

const outbox = async (t: TestApp, to: string) => (await get(t.app, `/api/dev/outbox?to=${encodeURIComponent(to)}`)).json() as Outboxed[];
const tokenIn = (text: string) => /\/pay\/([\w.-]+)/.exec(text)?.[1];

describe('a request sent by text message (no SMS provider: the outbox)', () => {
  let t: TestApp;
  let biz: ApprovedBusiness;
  beforeAll(async () => {
    t = await createTestApp();
    biz = await approvedBusiness(t.app, t.runtime.database.db, 'owner@request-sms.example');
  });
  afterAll(async () => t?.close());

  it('texts the link to the payer’s mobile, which opens the pay page; a resend texts a new one', async () => {
    const api = requestsApi(t.app, biz);
    const payerId = await payerWithMobile(t, biz, 'tex@payers.example', '+15550001234');
    const sent = await api.create(payerId, { mode: 'send', channel: 'sms' });

    const texts = await outbox(t, '+15550001234');
    expect(texts).toHaveLength(1);
    expect(texts[0]).toMatchObject({ channel: 'sms', subject: '' });
    expect(texts[0]!.text).toMatch(/^.+ requests \$125\.00 \(TRX-\d+\), due .+\. Pay or decline: http.+\/pay\/.+$/);
    // Nothing went by e-mail.
    expect(await outbox(t, 'tex@payers.example')).toEqual([]);
    const token = tokenIn(texts[0]!.text)!;
    expect((await get(t.app, `/api/public/pay/${token}`)).json().data.status).toBe('payable');

    let detail = (await api.detail(sent.transactionId)) as unknown as Detail;
    expect(detail.channel).toBe('sms');
    expect(detail.emails).toEqual([expect.objectContaining({ channel: 'sms', to: '+15550001234', subject: '', delivery: 'outbox' })]);
    expect(detail.timeline.at(-1)).toMatchObject({ event: 'send', detail: 'Texted to +15550001234' });

    expect((await api.command(sent.transactionId, 'resend', { 'idempotency-key': 'sms-resend-1' })).statusCode).toBe(200);
    const again = await outbox(t, '+15550001234');
    expect(again).toHaveLength(2);
    expect(tokenIn(again[0]!.text)).not.toBe(token);
    detail = (await api.detail(sent.transactionId)) as unknown as Detail;
    expect(detail.timeline.at(-1)!.detail).toMatch(/^Texted to \+15550001234/);
  });

  it('refuses text messages for a payer with no mobile number, naming the field, and saves nothing', async () => {
    const api = requestsApi(t.app, biz);
    const payerId = await payerWithMobile(t, biz, 'nomobile@payers.example', null);
    const count = async () =>
      (
        await t.runtime.database.db
          .selectFrom('payment_requests')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('business_id', '=', biz.businessId)
          .executeTakeFirstOrThrow()
      ).n;
    const before = await count();
    for (const mode of ['draft', 'send'] as const) {
      const res = await api.post(api.body(payerId, { mode, channel: 'sms' }));
      expect(res.statusCode).toBe(400);
      expect(errorOf(res).fields).toEqual({ channel: NO_MOBILE_MESSAGE });
    }
    expect(await count()).toBe(before);
    expect(await outbox(t, 'nomobile@payers.example')).toEqual([]);
    // An unknown channel is refused by the schema.
    expect((await api.post(api.body(payerId, { channel: 'fax' }))).statusCode).toBe(400);
  });

  it('a draft keeps its channel when edited; if the payer’s mobile was removed since, the send goes by e-mail and says so', async () => {
    const api = requestsApi(t.app, biz);
    const payerId = await payerWithMobile(t, biz, 'gone.mobile@payers.example', '+15550004321');
    const draft = await api.create(payerId, { channel: 'sms' });
    expect(((await api.detail(draft.transactionId)) as unknown as Detail).channel).toBe('sms');
    await t.runtime.database.db.updateTable('payers').set({ mobile_number: null }).where('id', '=', payerId).execute();

    expect((await api.command(draft.transactionId, 'send', { 'idempotency-key': 'sms-fallback-1' })).statusCode).toBe(200);
    const mail = await outbox(t, 'gone.mobile@payers.example');
    expect(mail).toHaveLength(1);
    expect(mail[0]!.channel).toBe('email');
    const detail = (await api.detail(draft.transactionId)) as unknown as Detail;
    expect(detail.timeline.at(-1)!.detail).toBe('E-mailed to gone.mobile@payers.example (the payer has no mobile number now, so not by text message)');
  });

  it('reminders go by text message too, with the link already sent', async () => {
    const api = requestsApi(t.app, biz);
    const payerId = await payerWithMobile(t, biz, 'remind.tex@payers.example', '+15550007777');
    const sent = await api.create(payerId, { mode: 'send', channel: 'sms' });
    const token = tokenIn((await outbox(t, '+15550007777'))[0]!.text);
    // Due today in the business's time zone: the 0-day step of the default schedule (-3, 0, 3).
    await t.runtime.database.db
      .updateTable('payment_requests')
      .set({ due_date: dayIn(0), expires_on: dayIn(30) })
      .where('id', '=', sent.transactionId)
      .execute();
    expect(await sendReminders(requestContext(t.runtime))).toBeGreaterThanOrEqual(1);
    const texts = await outbox(t, '+15550007777');
    expect(texts).toHaveLength(2);
    expect(texts[0]!.text).toMatch(/^Reminder: .+ is waiting for your payment of \$125\.00/);
    expect(tokenIn(texts[0]!.text)).toBe(token);
    const detail = (await api.detail(sent.transactionId)) as unknown as Detail;
    expect(detail.timeline.at(-1)).toMatchObject({ event: 'reminder', detail: 'Reminder texted to +15550007777 on the due date' });
  });
});

/** A stand-in for the SMS provider's Messages API: records each request, answers as told. */
async function fakeProvider(answer: (form: URLSearchParams) => { status: number; body: string }) {
  const received: { authorization: string | undefined; path: string; form: URLSearchParams }[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      received.push({ authorization: req.headers.authorization, path: req.url ?? '', form });
      const { status, body: out } = answer(form);
      res.writeHead(status, { 'content-type': 'application/json' }).end(out);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://AC123:secret-token@127.0.0.1:${port}/2010-04-01/Accounts/AC123/Messages.json`,
    received,
    close: () => new Promise((r) => server.close(r)),
  };
}

describe('text messages through the SMS provider’s API', () => {
  let t: TestApp;
  let biz: ApprovedBusiness;
  let provider: Awaited<ReturnType<typeof fakeProvider>>;
  beforeAll(async () => {
    provider = await fakeProvider((form) =>
      form.get('To') === '+15559999999'
        ? { status: 400, body: JSON.stringify({ code: 21211, message: "The 'To' number +15559999999 is not a valid phone number." }) }
        : { status: 201, body: JSON.stringify({ sid: 'SM1', status: 'queued' }) },
    );
    t = await createTestApp({ SMS_API_URL: provider.url, SMS_FROM: '+15550000000' });
    biz = await approvedBusiness(t.app, t.runtime.database.db, 'owner@request-sms-api.example');
  });
  afterAll(async () => {
    await t?.close();
    await provider?.close();
  });

  it('hands the text to the provider with its credentials, and the detail shows it delivered', async () => {
    const api = requestsApi(t.app, biz);
    const payerId = await payerWithMobile(t, biz, 'api.tex@payers.example', '+15550002222');
    const sent = await api.create(payerId, { mode: 'send', channel: 'sms' });
    const text = await eventually(async () => {
      const { emails } = (await api.detail(sent.transactionId)) as unknown as Detail;
      return emails[0]?.delivery === 'delivered' ? emails[0] : undefined;
    });
    expect(text).toMatchObject({ channel: 'sms', to: '+15550002222', attempts: 1, lastError: null });
    const call = provider.received.find((r) => r.form.get('To') === '+15550002222')!;
    expect(call.path).toBe('/2010-04-01/Accounts/AC123/Messages.json');
    expect(call.authorization).toBe(`Basic ${Buffer.from('AC123:secret-token').toString('base64')}`);
    expect(call.form.get('From')).toBe('+15550000000');
    expect(call.form.get('Body')).toMatch(/Pay or decline: http.+\/pay\/.+/);
  });

  it('a number the provider refuses is retried, with the provider’s own reason on the request', async () => {
    const api = requestsApi(t.app, biz);
    const payerId = await payerWithMobile(t, biz, 'bad.number@payers.example', '+15559999999');
    const sent = await api.create(payerId, { mode: 'send', channel: 'sms' });
    const text = await eventually(async () => {
      const { emails } = (await api.detail(sent.transactionId)) as unknown as Detail;
      return emails[0]?.delivery === 'retrying' ? emails[0] : undefined;
    });
    expect(text.lastError).toBe("The SMS provider answered 400: The 'To' number +15559999999 is not a valid phone number.");
    expect(text.sentAt).toBeNull();
  });
});
