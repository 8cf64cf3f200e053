import { describe, expect, it } from 'vitest';
import { eventStreamParser } from './live-stream';

function parseAll(chunks: string[]): [string, string][] {
  const events: [string, string][] = [];
  const parse = eventStreamParser((event, data) => events.push([event, data]));
  chunks.forEach(parse);
  return events;
}

describe('eventStreamParser', () => {
  it('reads named events whose lines arrive split anywhere', () => {
    const text = 'event: ready\ndata: {}\n\nevent: change\ndata: {"kind":"request","id":"req_1"}\n\n';
    const whole = parseAll([text]);
    expect(whole).toEqual([
      ['ready', '{}'],
      ['change', '{"kind":"request","id":"req_1"}'],
    ]);
    for (let cut = 1; cut < text.length; cut++) expect(parseAll([text.slice(0, cut), text.slice(cut)])).toEqual(whole);
    const crlf = text.replaceAll('\n', '\r\n');
    for (let cut = 1; cut < crlf.length; cut++) expect(parseAll([crlf.slice(0, cut), crlf.slice(cut)])).toEqual(whole);
  });

  it('skips comment lines, joins data lines, takes CRLF, and names an unnamed event "message"', () => {
    expect(parseAll([': ping\r\n\r\ndata: a\r\ndata:b\r\n\r\nevent: x\ndata\n\n'])).toEqual([
      ['message', 'a\nb'],
      ['x', ''],
    ]);
  });

  it('sends nothing for an event that has not ended yet', () => {
    expect(parseAll(['event: change\ndata: {}\n'])).toEqual([]);
  });
});
