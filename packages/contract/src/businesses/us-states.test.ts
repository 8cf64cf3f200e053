import { describe, expect, it } from 'vitest';
import { searchUsStates, timeZoneForState, US_STATE_NAMES, US_STATE_TIME_ZONES, US_STATES } from './us-states';

describe('US states', () => {
  it('names every state and gives it a time zone that exists', () => {
    for (const code of US_STATES) {
      expect(US_STATE_NAMES[code], code).toMatch(/\w/);
      expect(() => new Intl.DateTimeFormat('en-US', { timeZone: US_STATE_TIME_ZONES[code] }), code).not.toThrow();
    }
    expect(Object.keys(US_STATE_TIME_ZONES).sort()).toEqual([...US_STATES].sort());
  });

  it('defaults a state split between zones to where most of its people live', () => {
    expect(timeZoneForState('CA')).toBe('America/Los_Angeles');
    expect(timeZoneForState('TX')).toBe('America/Chicago');
    expect(timeZoneForState('FL')).toBe('America/New_York');
    expect(timeZoneForState('AZ')).toBe('America/Phoenix');
    expect(timeZoneForState('ID')).toBe('America/Boise');
    expect(timeZoneForState(null)).toBeNull();
    expect(timeZoneForState('XX')).toBeNull();
    expect(timeZoneForState('toString')).toBeNull();
  });

  it('finds a state by part of its name or by its code, best match first', () => {
    expect(searchUsStates('Calif')).toEqual(['CA']);
    expect(searchUsStates('calif')).toEqual(['CA']);
    expect(searchUsStates('ca')[0]).toBe('CA');
    expect(searchUsStates('carolina').sort()).toEqual(['NC', 'SC']);
    expect(searchUsStates('new')).toEqual(['NH', 'NJ', 'NM', 'NY']);
    expect(searchUsStates('ia')[0]).toBe('IA');
    expect(searchUsStates('ia')).toContain('CA');
    expect(searchUsStates('  ')).toHaveLength(US_STATES.length);
    expect(searchUsStates('zzz')).toEqual([]);
  });
});
