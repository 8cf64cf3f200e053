import { createHmac } from 'node:crypto';

/**
 * TOTP as RFC 6238 defines it (HMAC-SHA1 over the 8-byte big-endian count of periods since the
 * Unix epoch, truncated as RFC 4226 §5.3), written from the RFC for the tests: an authenticator
 * app of our own, independent of the server's code.
 */
export const TOTP_PERIOD = 30;

export function totpAt(key: Buffer, unixSeconds: number, digits = 6, period = TOTP_PERIOD): string {
  return totpOfStep(key, Math.floor(unixSeconds / period), digits);
}

export function totpOfStep(key: Buffer, step: number, digits = 6): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const hash = createHmac('sha1', key).update(counter).digest();
  const offset = hash[hash.length - 1]! & 0xf;
  const code = hash.readUInt32BE(offset) & 0x7fffffff;
  return (code % 10 ** digits).toString().padStart(digits, '0');
}

export const currentStep = () => Math.floor(Date.now() / 1000 / TOTP_PERIOD);

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32, as otpauth URIs carry the secret. */
export function fromBase32(text: string): Buffer {
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const char of text.replace(/=+$/, '').toUpperCase()) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error(`not base32: ${char}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** The HMAC key of an `otpauth://totp/…?secret=…` URI, as an authenticator app reads it. */
export function keyOfUri(uri: string): Buffer {
  const secret = new URL(uri).searchParams.get('secret');
  if (!secret) throw new Error(`no secret in ${uri}`);
  return fromBase32(secret);
}
