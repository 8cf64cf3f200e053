import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { regexes } from 'zod/v4/core';
import { EMAIL_ADDRESS } from './email-address';

describe('EMAIL_ADDRESS', () => {
  it('is the pattern of zod’s .email()', () => {
    expect(EMAIL_ADDRESS.source).toBe(regexes.email.source);
    expect(EMAIL_ADDRESS.flags).toBe(regexes.email.flags);
  });

  it.each(['name@example.com', 'first.last+tag@mail.example.co.uk', 'a@b', 'no-at-sign', 'two@@example.com', '.lead@example.com', 'x@example.c'])(
    'agrees with zod on %s',
    (address) => {
      expect(EMAIL_ADDRESS.test(address)).toBe(z.string().email().safeParse(address).success);
    },
  );
});
