import { describe, expect, it } from 'vitest';
import { formatPhone, toE164 } from './phone';

describe('phone numbers (US by default)', () => {
  it.each([
    ['(415) 555-2671', '+14155552671'],
    ['415.555.2671', '+14155552671'],
    ['+44 20 7946 0958', '+442079460958'],
  ])('%s → %s', (input, e164) => expect(toE164(input)).toBe(e164));

  it.each(['', '12345', '555-0100', 'call me'])('refuses %j', (input) => expect(toE164(input)).toBeNull());

  it('formats for display', () => {
    expect(formatPhone('+14155552671')).toBe('(415) 555-2671');
    expect(formatPhone(null)).toBe('');
  });
});
