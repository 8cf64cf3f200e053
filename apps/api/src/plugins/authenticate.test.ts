import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bearerTokens, tokenFromBearer } from './authenticate';

const secret = 's'.repeat(40);
const token = 'AbCdEfGhIjKlMnOpQrStUvWxYz012345';
const signature = createHmac('sha256', secret).update(token).digest('base64');

describe('tokenFromBearer', () => {
  it('accepts the signed token as sign-in returns it (URL-encoded) and decoded', () => {
    expect(tokenFromBearer(`Bearer ${encodeURIComponent(`${token}.${signature}`)}`, secret)).toBe(token);
    expect(tokenFromBearer(`Bearer ${token}.${signature}`, secret)).toBe(token);
    expect(tokenFromBearer(`bearer ${token}.${signature}`, secret)).toBe(token);
  });

  it('accepts the bare session token', () => {
    expect(tokenFromBearer(`Bearer ${token}`, secret)).toBe(token);
  });

  it('refuses a wrong signature, another secret, junk and other schemes', () => {
    expect(tokenFromBearer(`Bearer ${token}.${signature.replace(/^./, 'x')}`, secret)).toBeNull();
    expect(tokenFromBearer(`Bearer ${token}.${signature}`, 't'.repeat(40))).toBeNull();
    expect(tokenFromBearer('Bearer %E0%A4%A', secret)).toBeNull();
    expect(tokenFromBearer('Bearer a b', secret)).toBeNull();
    expect(tokenFromBearer(`Basic ${token}`, secret)).toBeNull();
    expect(tokenFromBearer(undefined, secret)).toBeNull();
  });
});

describe('bearerTokens', () => {
  const signed = (t: string) => `Bearer ${t}.${createHmac('sha256', secret).update(t).digest('base64')}`;

  it('gives what tokenFromBearer gives, and keeps only well-signed headers', () => {
    const bearers = bearerTokens(secret);
    expect(bearers.token(signed(token))).toBe(token);
    expect(bearers.token(signed(token))).toBe(token);
    expect(bearers.size).toBe(1);
    // A wrong signature for the same token stays refused, however often it comes, and is not kept.
    const forged = `Bearer ${token}.${signature.replace(/^./, 'x')}`;
    expect(bearers.token(forged)).toBeNull();
    expect(bearers.token(forged)).toBeNull();
    expect(bearers.token(undefined)).toBeNull();
    expect(bearers.token('Bearer junk junk')).toBeNull();
    expect(bearers.size).toBe(1);
  });

  it('keeps at most as many as it is told, dropping the oldest', () => {
    const bearers = bearerTokens(secret, 3);
    const tokens = ['a', 'b', 'c', 'd'].map((c) => c.repeat(32));
    for (const t of tokens) expect(bearers.token(signed(t))).toBe(t);
    expect(bearers.size).toBe(3);
    // Dropped or kept, each header still gives its token.
    for (const t of tokens) expect(bearers.token(signed(t))).toBe(t);
    expect(bearers.size).toBe(3);
  });
});
