import { createHmac, timingSafeEqual } from 'node:crypto';
import type { BetterAuthPlugin } from 'better-auth';
import { createAuthMiddleware } from 'better-auth/api';
import { parseSetCookieHeader, setRequestCookie } from 'better-auth/cookies';
import { symmetricDecrypt } from 'better-auth/crypto';
import type { Executor } from '../db/executor';

/**
 * The second factor (ADR 052): better-auth's two-factor plugin, an authenticator app (TOTP,
 * RFC 6238: HMAC-SHA1, 30-second steps, 6 digits, one step either side) and ten one-time recovery
 * codes. What better-auth keeps in cookies travels in headers here, as the session token does.
 */

export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps either side of now that better-auth accepts (its default): a code lives up to 90 s. */
export const TOTP_WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;
/** How long "trust this device" skips the code on that device. */
export const TRUST_DEVICE_SECONDS = 30 * 24 * 3600;
/** How long a sign-in that passed the password may take to give its code. */
export const TWO_FACTOR_PENDING_SECONDS = 600;

/** Wrong codes per person (TOTP and recovery codes together) before a wait, counted in `rate_limits`. */
export const TWO_FACTOR_CODE_RULE = { max: 5, windowSeconds: 900 };

/**
 * The pending sign-in (password right, code still to come): answered by sign-in in
 * `set-two-factor-token` and sent back with the code in `x-two-factor-token`.
 */
export const TWO_FACTOR_TOKEN_HEADER = 'x-two-factor-token';
export const SET_TWO_FACTOR_TOKEN_HEADER = 'set-two-factor-token';
/** A trusted device: answered by a verify with `trustDevice: true`, sent with later sign-ins. */
export const TRUST_DEVICE_TOKEN_HEADER = 'x-trust-device-token';
export const SET_TRUST_DEVICE_TOKEN_HEADER = 'set-trust-device-token';

/** better-auth's names for the two cookies (before its prefix). */
const TWO_FACTOR_COOKIE = 'two_factor';
const TRUST_DEVICE_COOKIE = 'trust_device';

/** The better-auth endpoints that check a code. */
export const CODE_CHECK_PATHS = new Set(['/two-factor/verify-totp', '/two-factor/verify-backup-code']);

/**
 * better-auth keeps the pending sign-in and the trusted device in signed cookies. Our route drops
 * every cookie a browser sends and every cookie better-auth sets (ADR 007); this plugin carries
 * the two values in headers instead, as the bearer plugin carries the session: a header in becomes
 * the cookie for better-auth's handler (on the handler's headers only, never on the request, so
 * better-auth's own origin check still sees a request without cookies), and the cookie better-auth
 * sets goes out as a header. A request with a session (`Authorization`) is left alone: none of the
 * two-factor endpoints needs both, and the session wins in better-auth anyway.
 */
export function twoFactorHeaders() {
  return {
    id: 'tay-two-factor-headers',
    hooks: {
      before: [
        {
          matcher: (ctx) =>
            !ctx.headers?.has('authorization') && Boolean(ctx.headers?.get(TWO_FACTOR_TOKEN_HEADER) || ctx.headers?.get(TRUST_DEVICE_TOKEN_HEADER)),
          handler: createAuthMiddleware(async (ctx) => {
            const headers = new Headers(ctx.headers);
            for (const [header, cookie] of [
              [TWO_FACTOR_TOKEN_HEADER, TWO_FACTOR_COOKIE],
              [TRUST_DEVICE_TOKEN_HEADER, TRUST_DEVICE_COOKIE],
            ] as const) {
              const value = headers.get(header)?.trim();
              headers.delete(header);
              if (value) setRequestCookie(headers, ctx.context.createAuthCookie(cookie).name, value);
            }
            return { context: { headers } };
          }),
        },
      ],
      after: [
        {
          matcher: () => true,
          handler: createAuthMiddleware(async (ctx) => {
            const setCookie = ctx.context.responseHeaders?.get('set-cookie');
            if (!setCookie) return;
            const cookies = parseSetCookieHeader(setCookie);
            for (const [cookie, header] of [
              [TWO_FACTOR_COOKIE, SET_TWO_FACTOR_TOKEN_HEADER],
              [TRUST_DEVICE_COOKIE, SET_TRUST_DEVICE_TOKEN_HEADER],
            ] as const) {
              const set = cookies.get(ctx.context.createAuthCookie(cookie).name);
              if (set?.value && set['max-age'] !== 0) ctx.setHeader(header, set.value);
            }
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}

/** RFC 4226 HOTP: HMAC-SHA1 of the 8-byte big-endian counter, dynamically truncated. */
export function hotp(key: Uint8Array, counter: number, digits = TOTP_DIGITS): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', key).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

export const totpStep = (atMs: number) => Math.floor(atMs / 1000 / TOTP_PERIOD_SECONDS);

/**
 * The time step whose code `code` is, among the steps better-auth accepts now (one either side),
 * or null: a code that matches none is wrong, and better-auth refuses it on its own.
 */
export function matchingStep(key: Uint8Array, code: string, atMs = Date.now()): number | null {
  const given = Buffer.from(code);
  let found: number | null = null;
  const now = totpStep(atMs);
  for (let step = now - TOTP_WINDOW; step <= now + TOTP_WINDOW; step++) {
    const expected = Buffer.from(hotp(key, step));
    if (given.length === expected.length && timingSafeEqual(given, expected)) found = step;
  }
  return found;
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function base32Bytes(text: string): Uint8Array {
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of text.toUpperCase().replace(/=+$/, '')) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error('not base32');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Uint8Array.from(out);
}

/**
 * The HMAC key of a person's authenticator, from better-auth's encrypted column: it generates a
 * 32-character secret and uses its UTF-8 bytes; an imported one is stored as `base32:<secret>`.
 */
export async function totpKey(encryptedSecret: string, secretConfig: Parameters<typeof symmetricDecrypt>[0]['key']): Promise<Uint8Array> {
  const secret = await symmetricDecrypt({ key: secretConfig, data: encryptedSecret });
  return secret.startsWith('base32:') ? base32Bytes(secret.slice(7)) : new TextEncoder().encode(secret);
}

/**
 * Claims the time step of an accepted code for the person, atomically: true for the first
 * request with a code of a step newer than the last one accepted, false for any other (the same
 * code again, an older one, or a second request racing the first). better-auth itself would take
 * one code as often as it is sent while it lives.
 */
export async function claimTotpStep(db: Executor, userId: string, step: number): Promise<boolean> {
  const row = await db
    .updateTable('two_factors')
    .set({ last_totp_step: step })
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('last_totp_step', 'is', null), eb('last_totp_step', '<', step)]))
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** How many recovery codes the person has left (better-auth keeps them encrypted, as JSON). */
export async function recoveryCodesLeft(
  db: Executor,
  userId: string,
  secretConfig: Parameters<typeof symmetricDecrypt>[0]['key'],
): Promise<number | undefined> {
  const row = await db.selectFrom('two_factors').select('backup_codes').where('user_id', '=', userId).executeTakeFirst();
  if (!row) return undefined;
  try {
    const codes = JSON.parse(await symmetricDecrypt({ key: secretConfig, data: row.backup_codes })) as unknown;
    return Array.isArray(codes) ? codes.length : undefined;
  } catch {
    return undefined;
  }
}

const base64url = (text: string) => text.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** The value of better-auth's signed cookie form `<value>.<base64 HMAC-SHA256>`, or null when the signature is wrong. */
export function signedValue(signed: string, secret: string): string | null {
  let text = signed.trim();
  if (text.includes('%')) {
    try {
      text = decodeURIComponent(text);
    } catch {
      return null;
    }
  }
  const dot = text.lastIndexOf('.');
  if (dot <= 0) return null;
  const value = text.slice(0, dot);
  const given = Buffer.from(base64url(text.slice(dot + 1)));
  const expected = Buffer.from(base64url(createHmac('sha256', secret).update(value).digest('base64')));
  return given.length === expected.length && timingSafeEqual(given, expected) ? value : null;
}

/**
 * The person a pending sign-in belongs to: the signed token names better-auth's verification row,
 * whose value is the user's id. Null for a token that is forged, used up or expired.
 */
export async function pendingSignInUser(db: Executor, token: string, secret: string): Promise<{ id: string; email: string } | null> {
  const identifier = signedValue(token, secret);
  if (!identifier || !identifier.startsWith('2fa-')) return null;
  const row = await db
    .selectFrom('verifications as v')
    .innerJoin('users as u', 'u.id', 'v.value')
    .select(['u.id', 'u.email'])
    .where('v.identifier', '=', identifier)
    .where('v.expires_at', '>', new Date())
    .executeTakeFirst();
  return row ?? null;
}

/** Forgets every device the person trusted (better-auth keeps one verification row per device). */
export async function forgetTrustedDevices(db: Executor, userId: string): Promise<void> {
  await db.deleteFrom('verifications').where('identifier', 'like', 'trust-device-%').where('value', '=', userId).execute();
}
