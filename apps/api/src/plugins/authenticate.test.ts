import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { tokenFromBearer } from './authenticate';

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
