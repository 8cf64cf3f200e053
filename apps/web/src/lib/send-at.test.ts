import { afterEach, describe, expect, it } from 'vitest';
import { isoToZonedInput, zonedInputToIso } from './send-at';

const originalTz = process.env.TZ;
afterEach(() => {
  process.env.TZ = originalTz;
});

describe('the scheduled send time, on the clock of the business’s time zone', () => {
  it.each(['UTC', 'America/Los_Angeles', 'Asia/Kolkata', 'Pacific/Auckland', 'America/New_York'])('round-trips the same instant in %s', (zone) => {
    for (const iso of [
      '2026-07-04T16:45:00.000Z',
      '2026-01-15T03:05:00.000Z',
      '2026-12-31T23:30:00.000Z',
      '2026-03-08T07:30:00.000Z',
      '2026-11-01T05:30:00.000Z',
    ]) {
      expect(zonedInputToIso(isoToZonedInput(iso, zone), zone), `${iso} in ${zone}`).toBe(iso);
    }
  });

  it('reads the business’s wall clock whatever the browser’s zone is', () => {
    for (const browser of ['Asia/Tokyo', 'Europe/London', 'America/New_York']) {
      process.env.TZ = browser;
      // 9:45 in Los Angeles in July (UTC-7) is 16:45 UTC.
      expect(zonedInputToIso('2026-07-04T09:45', 'America/Los_Angeles'), browser).toBe('2026-07-04T16:45:00.000Z');
      expect(isoToZonedInput('2026-07-04T16:45:00.000Z', 'America/Los_Angeles'), browser).toBe('2026-07-04T09:45');
      expect(isoToZonedInput('2026-07-04T16:45:00.000Z', 'Asia/Kolkata'), browser).toBe('2026-07-04T22:15');
    }
  });

  it('keeps the instant across a daylight-saving change, and refuses the hour that does not exist', () => {
    // The night clocks go forward in New York (Mar 8, 2026): 2:30 does not exist, 3:30 is EDT.
    expect(zonedInputToIso('2026-03-08T03:30', 'America/New_York')).toBe('2026-03-08T07:30:00.000Z');
    expect(zonedInputToIso('2026-03-08T01:30', 'America/New_York')).toBe('2026-03-08T06:30:00.000Z');
    expect(zonedInputToIso('2026-03-08T02:30', 'America/New_York')).toBeNull();
  });

  it('reads nothing from an empty, malformed or impossible value', () => {
    expect(isoToZonedInput(null, 'UTC')).toBe('');
    expect(isoToZonedInput('nope', 'UTC')).toBe('');
    expect(zonedInputToIso('', 'UTC')).toBeNull();
    expect(zonedInputToIso('2026-02-30T10:00', 'UTC')).toBeNull();
    expect(zonedInputToIso('10:00', 'UTC')).toBeNull();
  });
});
