import { describe, expect, it } from 'vitest';
import { newId } from './ids';

describe('newId', () => {
  it('is prefixed, url-safe and 26 characters after the prefix', () => {
    const id = newId('req');
    expect(id).toMatch(/^req_[0-9a-hjkmnp-tv-z]{26}$/);
  });

  it('never repeats and sorts by creation time', async () => {
    const first = newId('x');
    await new Promise((r) => setTimeout(r, 2));
    const ids = Array.from({ length: 10_000 }, () => newId('x'));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => id > first)).toBe(true);
  });
});
