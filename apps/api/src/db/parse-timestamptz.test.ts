import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { parseTimestamptz } from './parse-timestamptz';

const driver = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ) as (text: string) => unknown;
const parse = (text: string) => parseTimestamptz(text, driver);
const time = (value: unknown) => (value instanceof Date ? value.getTime() : value);

describe('parseTimestamptz', () => {
  it('reads what the driver reads, for the forms PostgreSQL prints', () => {
    const samples = [
      '2026-11-22 18:10:11+00',
      '2026-11-22 18:10:11.2+00',
      '2026-11-22 18:10:11.238+00',
      '2026-11-22 18:10:11.238123+00',
      '2026-11-22 18:10:11.999999+00',
      '2026-11-22 13:10:11.5-05',
      '2026-11-23 00:40:11.5+05:30',
      '1883-11-18 12:03:58+00:56:02',
      '2024-02-29 23:59:59.000001-11',
      '0100-01-01 00:00:00+00',
    ];
    for (const text of samples) expect(time(parse(text)), text).toBe(time(driver(text)));
  });

  it('agrees with the driver on thousands of instants and offsets', () => {
    for (let i = 0; i < 5000; i++) {
      const ms = Date.UTC(1970, 0, 1) + i * 7_919_993_117;
      const offsetMinutes = ((i * 37) % 27) * 30 - 720;
      const local = new Date(ms + offsetMinutes * 60_000).toISOString();
      const hh = String(Math.floor(Math.abs(offsetMinutes) / 60)).padStart(2, '0');
      const mm = String(Math.abs(offsetMinutes) % 60).padStart(2, '0');
      const text = `${local.slice(0, 10)} ${local.slice(11, 23)}${i % 3 === 0 ? '456' : ''}${offsetMinutes < 0 ? '-' : '+'}${hh}${mm === '00' ? '' : `:${mm}`}`;
      expect(time(parse(text)), text).toBe(ms);
      expect(time(parse(text)), text).toBe(time(driver(text)));
    }
  });

  it('leaves the unusual forms to the driver', () => {
    for (const text of ['infinity', '-infinity', '0044-03-15 12:00:00+00 BC', '12026-01-01 00:00:00+00', '2026-11-22T18:10:11Z', '2026-11-22 18:10:11+0x']) {
      expect(time(parse(text)), text).toEqual(time(driver(text)));
    }
  });
});
