import { createHmac, timingSafeEqual } from 'node:crypto';

/** Webhooks older or newer than this are refused: a captured request cannot be replayed later. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export const SIGNATURE_HEADER = 'tay-signature';

function hmac(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` (the Stripe scheme). */
export function signatureHeader(secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)): string {
  return `t=${timestamp},v1=${hmac(secret, timestamp, body)}`;
}

export type SignatureCheck = { ok: true } | { ok: false; reason: string };

/**
 * Verifies a `Tay-Signature` header over the raw body. Every `v1` value is compared in constant
 * time (several may be present while a secret is rotated); the timestamp must be within
 * `SIGNATURE_TOLERANCE_SECONDS` of now, in either direction.
 */
export function verifySignature(secret: string, body: string, header: string | undefined, now = Math.floor(Date.now() / 1000)): SignatureCheck {
  if (!header) return { ok: false, reason: 'The Tay-Signature header is missing.' };
  let timestamp: number | null = null;
  const candidates: string[] = [];
  for (const part of header.split(',')) {
    const [key, value] = part.trim().split('=', 2);
    if (key === 't' && value && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && value) candidates.push(value);
  }
  if (timestamp === null || candidates.length === 0) {
    return { ok: false, reason: 'The Tay-Signature header is malformed; expected t=<timestamp>,v1=<signature>.' };
  }
  if (Math.abs(now - timestamp) > SIGNATURE_TOLERANCE_SECONDS) {
    return { ok: false, reason: 'The webhook timestamp is outside the 300-second tolerance.' };
  }
  const expected = Buffer.from(hmac(secret, timestamp, body), 'utf8');
  const matches = candidates.some((candidate) => {
    const given = Buffer.from(candidate, 'utf8');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  return matches ? { ok: true } : { ok: false, reason: 'The webhook signature does not match.' };
}
