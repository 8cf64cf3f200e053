import { describe, expect, it, vi } from 'vitest';
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

  it('ascends within one millisecond, in the order the ids were made', () => {
    const now = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(now);
    try {
      const ids = Array.from({ length: 1_000 }, () => newId('x'));
      expect([...ids].sort()).toEqual(ids);
      expect(new Set(ids.map((id) => id.slice(2, 12))).size).toBe(1); // one millisecond
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('keeps ascending when the clock steps back', () => {
    const now = Date.now() + 60_000;
    const clock = vi.spyOn(Date, 'now').mockReturnValue(now);
    try {
      const before = newId('x');
      clock.mockReturnValue(now - 5_000);
      const after = newId('x');
      expect(after > before).toBe(true);
    } finally {
      vi.restoreAllMocks();
    }
  });
});
