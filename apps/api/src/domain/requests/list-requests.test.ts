import { describe, expect, it } from 'vitest';
import { prefixSuccessor } from './list-requests';

const bytes = (s: string) => Buffer.from(s, 'utf8');

describe('prefixSuccessor', () => {
  it('raises the last code point, skipping the surrogates and carrying past the last one', () => {
    expect(prefixSuccessor('casey')).toBe('casez');
    expect(prefixSuccessor('casey payer 12')).toBe('casey payer 13');
    expect(prefixSuccessor('a\uD7FF')).toBe('a\uE000');
    expect(prefixSuccessor('az\u{10FFFF}')).toBe('a{');
    expect(prefixSuccessor('jos\u00e9')).toBe('jos\u00ea');
    expect(prefixSuccessor('\u{10FFFF}\u{10FFFF}')).toBeNull();
    expect(prefixSuccessor('')).toBeNull();
  });

  it('bounds exactly the texts that begin with the prefix, byte by byte as the index compares', () => {
    const alphabet = ['a', 'z', '{', '0', ' ', '\u00e9', '\u00ff', '\u0100', '\uD7FF', '\uE000', '\uFFFF', '\u{10000}', '\u{1F600}', '\u{10FFFF}'];
    const texts: string[] = [];
    for (const x of alphabet) for (const y of alphabet) for (const z of ['', ...alphabet.slice(0, 5)]) texts.push(x + y + z);
    for (const prefix of alphabet.flatMap((x) => alphabet.map((y) => x + y))) {
      const to = prefixSuccessor(prefix);
      for (const text of texts) {
        const inRange = Buffer.compare(bytes(text), bytes(prefix)) >= 0 && (to === null || Buffer.compare(bytes(text), bytes(to)) < 0);
        expect(inRange, `${JSON.stringify(text)} begins with ${JSON.stringify(prefix)}`).toBe(text.startsWith(prefix));
      }
    }
  });
});
