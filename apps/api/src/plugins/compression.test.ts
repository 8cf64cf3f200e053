import { describe, expect, it } from 'vitest';
import { compressible } from './compression';

describe('compressible', () => {
  it('compresses JSON, CSV, pages, scripts and SVG', () => {
    for (const type of [
      'application/json; charset=utf-8',
      'application/problem+json',
      'text/csv; charset=utf-8',
      'text/html; charset=utf-8',
      'text/javascript; charset=utf-8',
      'application/javascript',
      'text/css',
      'image/svg+xml',
    ]) {
      expect(compressible(type), type).toBe(true);
    }
  });

  it('never holds back an event stream, and leaves images and PDFs alone', () => {
    for (const type of ['text/event-stream', 'text/event-stream; charset=utf-8', 'TEXT/EVENT-STREAM', 'application/pdf', 'image/png', 'image/jpeg']) {
      expect(compressible(type), type).toBe(false);
    }
  });
});
