import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, get, GOOD_PASSWORD, registeredUser } from '../support/identity';
import { createTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

function signInFrom(remoteAddress: string, email: string, password: string, code?: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    payload: code === undefined ? { email, password } : { email, password, code },
    remoteAddress,
  });
}

/** 20 wrong passwords for `email`, 5 from each of four addresses under `prefix`: the per-account limit. */
async function hammer(email: string, prefix: string) {
  for (let s = 1; s <= 4; s++) {
    for (let i = 0; i < 5; i++) {
      const res = await signInFrom(`${prefix}.${s}`, email, `Guess-${s}-${i}-xyz`);
      expect(res.statusCode).toBe(401);
    }
  }
}

/** The per-account count as 20 wrong passwords from all over would leave it, without the wait. */
async function atAccountLimit(email: string) {
  await t.runtime.database.db
    .insertInto('rate_limits')
    .values({ key: `auth:/sign-in/email:account:${email}`, count: 20, window_ends_at: new Date(Date.now() + 900_000) })
    .onConflict((oc) => oc.column('key').doUpdateSet({ count: 20, window_ends_at: new Date(Date.now() + 900_000) }))
    .execute();
}

// Every wrong password costs a full password hash: these tests take their time on a busy machine.
const SLOW = 180_000;

async function mail(email: string) {
  return (await get(t.app, `/api/dev/outbox?to=${encodeURIComponent(email)}`)).json() as { subject: string; text: string }[];
}

const WARNING = 'Someone is trying to sign in to your Tay account';
const signInCodes = async (email: string) => (await mail(email)).filter((m) => m.subject.startsWith('Your Tay sign-in code:'));
const codeOf = (message: { subject: string }) => message.subject.match(/(\d{6})$/)![1]!;

describe('one source hammering one account', () => {
  it(
    'is refused at its own source, while the owner signs in elsewhere with the password alone',
    async () => {
      const email = 'hammered@example.com';
      await registeredUser(t.app, email);
      for (let i = 0; i < 10; i++) expect((await signInFrom('203.0.113.9', email, `Wrong-Guess-${i}`)).statusCode).toBe(401);

      const attacker = await signInFrom('203.0.113.9', email, GOOD_PASSWORD);
      expect(attacker.statusCode).toBe(429);
      expect(errorOf(attacker).code).toBe('RATE_LIMITED');
      expect(errorOf(attacker).message).toMatch(/^Too many attempts\. For your security, please wait \d+ minutes? before trying again\.$/);
      expect(Number(attacker.headers['retry-after'])).toBeGreaterThan(0);

      const owner = await signInFrom('198.51.100.20', email, GOOD_PASSWORD);
      expect(owner.statusCode).toBe(200);
      expect((await get(t.app, '/api/user', owner.headers['set-auth-token'] as string)).statusCode).toBe(200);
      // One source is not an attack on the account: no warning, no code.
      expect((await mail(email)).map((m) => m.subject)).not.toContain(WARNING);
    },
    SLOW,
  );

  it(
    'counts an IPv6 client by its /64 network, so fresh addresses from it do not get more tries',
    async () => {
      const email = 'six@example.com';
      await registeredUser(t.app, email);
      for (let i = 1; i <= 10; i++) expect((await signInFrom(`2001:db8:aa:1::${i.toString(16)}`, email, `Wrong-Guess-${i}`)).statusCode).toBe(401);
      expect((await signInFrom('2001:db8:aa:1:ffff:ffff:ffff:fffe', email, GOOD_PASSWORD)).statusCode).toBe(429);
      expect((await signInFrom('2001:db8:aa:2::1', email, GOOD_PASSWORD)).statusCode).toBe(200);
    },
    SLOW,
  );
});

describe('many sources hammering one account', () => {
  it(
    'the owner still signs in, with the password and the code e-mailed to them',
    async () => {
      const email = 'besieged@example.com';
      await registeredUser(t.app, email);
      await hammer(email, '192.0.2');

      const asked = await signInFrom('198.51.100.30', email, GOOD_PASSWORD);
      expect(asked.statusCode).toBe(401);
      expect(errorOf(asked).code).toBe('SIGN_IN_CODE_REQUIRED');
      expect(errorOf(asked).message).toMatch(/We have e-mailed a 6-digit code/);
      const codes = await signInCodes(email);
      expect(codes).toHaveLength(1);
      expect(codes[0]!.text).toContain('expires in 10 minutes');
      const code = codeOf(codes[0]!);

      // A wrong code, or the right code with a wrong password: one answer for both.
      const wrongCode = await signInFrom('198.51.100.30', email, GOOD_PASSWORD, code === '000000' ? '111111' : '000000');
      const wrongPassword = await signInFrom('198.51.100.30', email, 'Not-The-Password-1', code);
      for (const res of [wrongCode, wrongPassword]) {
        expect(res.statusCode).toBe(401);
        expect(errorOf(res)).toEqual({
          code: 'INVALID_PASSWORD_OR_CODE',
          message: 'The password or the code is not right, or the code has expired. Check both, or ask for a new code.',
        });
        expect(res.headers['set-auth-token']).toBeUndefined();
      }

      const owner = await signInFrom('198.51.100.30', email, GOOD_PASSWORD, code);
      expect(owner.statusCode).toBe(200);
      const token = owner.headers['set-auth-token'] as string;
      expect((await get(t.app, '/api/user', token)).statusCode).toBe(200);
      // The code works once.
      expect(errorOf(await signInFrom('198.51.100.31', email, GOOD_PASSWORD, code)).code).toBe('INVALID_PASSWORD_OR_CODE');
    },
    SLOW,
  );

  it(
    'without a code the answer is the same whether the password is right or not',
    async () => {
      const email = 'no-oracle@example.com';
      await registeredUser(t.app, email);
      await atAccountLimit(email);
      const right = await signInFrom('192.0.2.101', email, GOOD_PASSWORD);
      const wrong = await signInFrom('192.0.2.102', email, 'Some-Other-Guess-9');
      expect(right.statusCode).toBe(401);
      expect(wrong.statusCode).toBe(401);
      expect(errorOf(right).code).toBe('SIGN_IN_CODE_REQUIRED');
      expect(errorOf(wrong).code).toBe('SIGN_IN_CODE_REQUIRED');
      expect(right.headers['set-auth-token']).toBeUndefined();
    },
    SLOW,
  );

  it(
    'tells the owner once that someone is trying, and e-mails a code at most every 5 minutes',
    async () => {
      const email = 'warned@example.com';
      await registeredUser(t.app, email);
      await hammer(email, '10.20.0');
      for (let i = 0; i < 5; i++) expect(errorOf(await signInFrom(`10.20.1.${i}`, email, `Guess-${i}-more`)).code).toBe('SIGN_IN_CODE_REQUIRED');

      const warnings = (await mail(email)).filter((m) => m.subject === WARNING);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]!.text).toContain('has not let anyone in');
      expect(await signInCodes(email)).toHaveLength(1);

      const again = await signInFrom('198.51.100.40', email, GOOD_PASSWORD);
      expect(errorOf(again).code).toBe('SIGN_IN_CODE_REQUIRED');
      expect(errorOf(again).message).toMatch(/less than 5 minutes ago/);
      expect(await signInCodes(email)).toHaveLength(1);

      // Five minutes later a new code goes out (and replaces the first); still one warning.
      const first = codeOf((await signInCodes(email))[0]!);
      await t.runtime.database.db
        .updateTable('rate_limits')
        .set({ window_ends_at: new Date(Date.now() - 1000) })
        .where('key', '=', `auth:sign-in-code:${email}`)
        .execute();
      expect(errorOf(await signInFrom('198.51.100.41', email, GOOD_PASSWORD)).message).toMatch(/We have e-mailed a 6-digit code/);
      const codes = await signInCodes(email);
      expect(codes).toHaveLength(2);
      const second = codeOf(codes[0]!);
      if (second !== first) expect((await signInFrom('198.51.100.41', email, GOOD_PASSWORD, first)).statusCode).toBe(401);
      expect((await signInFrom('198.51.100.41', email, GOOD_PASSWORD, second)).statusCode).toBe(200);
      expect((await mail(email)).filter((m) => m.subject === WARNING)).toHaveLength(1);
    },
    SLOW,
  );

  it(
    'an address without an account gets the same answers and no e-mail',
    async () => {
      const email = 'nobody-here@example.com';
      await hammer(email, '10.30.0');
      const res = await signInFrom('198.51.100.50', email, GOOD_PASSWORD);
      expect(res.statusCode).toBe(401);
      expect(errorOf(res).code).toBe('SIGN_IN_CODE_REQUIRED');
      expect(errorOf(res).message).toMatch(/We have e-mailed a 6-digit code/);
      expect(await mail(email)).toEqual([]);
    },
    SLOW,
  );

  it(
    'refuses a code that is not 6 digits with a field error, before looking at the password',
    async () => {
      const email = 'typo@example.com';
      await registeredUser(t.app, email);
      await atAccountLimit(email);
      const res = await signInFrom('198.51.100.60', email, GOOD_PASSWORD, '12 34');
      expect(res.statusCode).toBe(400);
      expect(errorOf(res)).toEqual({
        code: 'VALIDATION_FAILED',
        message: 'Enter the 6 digits of the code we e-mailed you.',
        fields: { code: 'Enter the 6 digits of the code we e-mailed you.' },
      });
    },
    SLOW,
  );
});
