import { describe, expect, it } from 'vitest';
import { createSecretBox } from './secret-box';

const SECRET = 'a-test-secret-that-is-long-enough-0123456789';

describe('createSecretBox', () => {
  it('round-trips, and never contains the plaintext', () => {
    const box = createSecretBox(SECRET, 'bank-account-number');
    const sealed = box.seal('000123456789', 'biz_1:ba_1');
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain('000123456789');
    expect(box.open(sealed, 'biz_1:ba_1')).toBe('000123456789');
  });

  it('uses a fresh nonce every time', () => {
    const box = createSecretBox(SECRET, 'bank-account-number');
    expect(box.seal('123456', 'ctx')).not.toBe(box.seal('123456', 'ctx'));
  });

  it('does not open under another context, purpose or secret, nor when tampered with', () => {
    const box = createSecretBox(SECRET, 'bank-account-number');
    const sealed = box.seal('987654321', 'biz_1:ba_1');
    expect(() => box.open(sealed, 'biz_2:ba_1')).toThrow();
    expect(() => createSecretBox(SECRET, 'other-purpose').open(sealed, 'biz_1:ba_1')).toThrow();
    expect(() => createSecretBox(`${SECRET}!`, 'bank-account-number').open(sealed, 'biz_1:ba_1')).toThrow();
    const [v, iv, ct, tag] = sealed.split('.');
    const flipped = Buffer.from(ct!, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(() => box.open([v, iv, flipped.toString('base64url'), tag].join('.'), 'biz_1:ba_1')).toThrow();
    expect(() => box.open('not-sealed', 'biz_1:ba_1')).toThrow('Unrecognised sealed value');
  });

  it('after a rotation opens what earlier secrets sealed, and seals under the new one only', () => {
    const before = createSecretBox(SECRET, 'bank-account-number');
    const old = before.seal('000111222333', 'biz_1:ba_1');
    const NEW = 'the-rotated-secret-which-is-also-long-enough';
    const rotated = createSecretBox([NEW, SECRET], 'bank-account-number');
    expect(rotated.open(old, 'biz_1:ba_1')).toBe('000111222333');
    expect(rotated.isCurrent(old, 'biz_1:ba_1')).toBe(false);
    const resealed = rotated.seal(rotated.open(old, 'biz_1:ba_1'), 'biz_1:ba_1');
    expect(rotated.isCurrent(resealed, 'biz_1:ba_1')).toBe(true);
    // Under the new secret alone: the re-sealed value opens, the old one does not.
    expect(createSecretBox(NEW, 'bank-account-number').open(resealed, 'biz_1:ba_1')).toBe('000111222333');
    expect(() => createSecretBox(NEW, 'bank-account-number').open(old, 'biz_1:ba_1')).toThrow();
    // The earlier secret still guards the context: a value moved to another row does not open.
    expect(() => rotated.open(old, 'biz_2:ba_1')).toThrow();
    expect(before.isCurrent(old, 'biz_1:ba_1')).toBe(true);
  });
});
