import { describe, expect, it } from 'vitest';
import { signatureHeader, verifySignature } from './signature';

const secret = 'whsec_0123456789abcdef0123456789abcdef';
const body = '{"id":"evt_1","type":"charge.settled"}';
const now = 1_800_000_000;

describe('webhook signatures', () => {
  it('accepts its own signature over the exact body', () => {
    expect(verifySignature(secret, body, signatureHeader(secret, body, now), now)).toEqual({ ok: true });
  });

  it('refuses a changed body, another secret, and a missing or malformed header', () => {
    const header = signatureHeader(secret, body, now);
    expect(verifySignature(secret, body.replace('settled', 'returned'), header, now).ok).toBe(false);
    expect(verifySignature(`${secret}x`, body, header, now).ok).toBe(false);
    expect(verifySignature(secret, body, undefined, now).ok).toBe(false);
    expect(verifySignature(secret, body, 'v1=abc', now).ok).toBe(false);
    expect(verifySignature(secret, body, `t=${now}`, now).ok).toBe(false);
  });

  it('allows 300 seconds either way and no more', () => {
    expect(verifySignature(secret, body, signatureHeader(secret, body, now - 300), now).ok).toBe(true);
    expect(verifySignature(secret, body, signatureHeader(secret, body, now + 300), now).ok).toBe(true);
    expect(verifySignature(secret, body, signatureHeader(secret, body, now - 301), now)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/tolerance/),
    });
    expect(verifySignature(secret, body, signatureHeader(secret, body, now + 301), now).ok).toBe(false);
  });

  it('accepts any matching v1 (secret rotation)', () => {
    const good = signatureHeader(secret, body, now).split(',')[1];
    expect(verifySignature(secret, body, `t=${now},v1=${'0'.repeat(64)},${good}`, now).ok).toBe(true);
  });
});
