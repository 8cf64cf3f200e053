import { describe, expect, it, vi } from 'vitest';

// The viewer sits in Tokyo: nothing below may come out on their clock unless it says so.
vi.hoisted(() => {
  (globalThis as unknown as { process: { env: Record<string, string> } }).process.env.TZ = 'Asia/Tokyo';
});

import { formatZonedDate, formatZonedDateTime, zoneLabel } from './zoned-time';

describe('a business’s times (docs/product.md §9)', () => {
  it('are on the business’s clock, labelled with its zone, whatever the viewer’s clock', () => {
    expect(new Date('2026-03-08T10:30:00Z').getHours()).toBe(19);
    expect(formatZonedDateTime('2026-03-08T10:30:00Z', 'America/Los_Angeles')).toBe('Mar 08, 2026 3:30 PDT');
    expect(formatZonedDateTime('2026-01-15T18:30:00Z', 'America/New_York')).toBe('Jan 15, 2026 13:30 EST');
    expect(formatZonedDateTime(new Date('2026-11-24T10:00:00Z'), 'Pacific/Auckland')).toBe('Nov 24, 2026 23:00 GMT+13');
  });

  it('name the viewer’s own clock when the business’s zone is not known', () => {
    expect(formatZonedDateTime('2026-03-08T10:30:00Z')).toBe('Mar 08, 2026 19:30 GMT+9');
  });

  it('give the business’s calendar day of an instant', () => {
    // 02:00 UTC on the 9th is still the 8th in New York, and already the 9th in Tokyo.
    expect(formatZonedDate('2026-03-09T02:00:00Z', 'America/New_York')).toBe('Mar 08, 2026');
    expect(formatZonedDate('2026-03-09T02:00:00Z')).toBe('Mar 09, 2026');
  });

  it('read Invalid Date for a missing or broken value', () => {
    expect(formatZonedDateTime(null, 'America/New_York')).toBe('Invalid Date');
    expect(formatZonedDateTime('yesterday', 'America/New_York')).toBe('Invalid Date');
    expect(formatZonedDate(undefined, 'America/New_York')).toBe('Invalid Date');
    expect(zoneLabel('nope', 'America/New_York')).toBe('');
  });
});
