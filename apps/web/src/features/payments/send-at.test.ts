import { afterEach, describe, expect, it } from 'vitest';
import { isoToLocalInput, localInputToIso } from './send-at';

const originalTz = process.env.TZ;
afterEach(() => {
  process.env.TZ = originalTz;
});

describe('the scheduled send time in a datetime-local input', () => {
  it.each(['UTC', 'America/Los_Angeles', 'Asia/Kolkata', 'Pacific/Auckland'])('round-trips the same instant in %s', (zone) => {
    process.env.TZ = zone;
    for (const iso of ['2026-07-04T16:45:00.000Z', '2026-01-15T03:05:00.000Z', '2026-12-31T23:30:00.000Z']) {
      expect(localInputToIso(isoToLocalInput(iso)), `${iso} in ${zone}`).toBe(iso);
    }
  });

  it('shows wall-clock time of the browser’s zone, not the UTC text cut short', () => {
    process.env.TZ = 'America/Los_Angeles';
    // 16:45 UTC in July is 09:45 in Los Angeles (UTC-7).
    expect(isoToLocalInput('2026-07-04T16:45:00.000Z')).toBe('2026-07-04T09:45');
    expect(localInputToIso('2026-07-04T09:45')).toBe('2026-07-04T16:45:00.000Z');
    process.env.TZ = 'Asia/Kolkata';
    expect(isoToLocalInput('2026-07-04T16:45:00.000Z')).toBe('2026-07-04T22:15');
  });

  it('keeps the instant across a daylight-saving change', () => {
    process.env.TZ = 'America/New_York';
    // The night clocks go forward (Mar 8, 2026): 2:30 does not exist, 3:30 is EDT.
    expect(isoToLocalInput('2026-03-08T07:30:00.000Z')).toBe('2026-03-08T03:30');
    expect(localInputToIso('2026-03-08T03:30')).toBe('2026-03-08T07:30:00.000Z');
  });

  it('reads nothing from an empty, malformed or impossible value', () => {
    expect(isoToLocalInput(null)).toBe('');
    expect(isoToLocalInput('nope')).toBe('');
    expect(localInputToIso('')).toBeNull();
    expect(localInputToIso('2026-02-30T10:00')).toBeNull();
    expect(localInputToIso('10:00')).toBeNull();
  });
});
