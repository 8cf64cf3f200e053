import { describe, expect, it } from 'vitest';
import { unstorable, unstorableFields } from './text-input';

describe('unstorable', () => {
  it('lets through text PostgreSQL stores as sent, control characters and paired surrogates included', () => {
    for (const text of ['', 'Spring term', 'a\tb\r\nc', 'bell \u0007', '\u001b[31m', 'emoji 😀', 'Zoë', '\ufffe', '\u2028']) {
      expect(unstorable(text), JSON.stringify(text)).toBeNull();
    }
  });

  it('names U+0000, and the line it is on in text of several lines', () => {
    expect(unstorable('a\u0000b')).toBe('This text has an invisible NUL character (U+0000), which cannot be saved. Remove it.');
    expect(unstorable('name,email\r\nAna,ana@x.example\r\nBo\u0000,bo@x.example')).toMatch(
      /^This is not a text file: line 3 has a NUL character \(U\+0000\), which cannot be saved\. If it is a spreadsheet, choose "Save as"/,
    );
    expect(unstorable('a\nb\ud800')).toBe('Line 2 has a broken character (an unpaired surrogate, U+D800), which cannot be saved. Type or paste it again.');
  });

  it('names an unpaired surrogate, high or low', () => {
    expect(unstorable('a\ud800b')).toBe('This text has a broken character (an unpaired surrogate, U+D800), which cannot be saved. Type or paste it again.');
    expect(unstorable('\udc00')).toContain('U+DC00');
    expect(unstorable('😀\ud83d')).toContain('U+D83D');
  });
});

describe('unstorableFields', () => {
  it('leaves bytes to the route that takes them: an uploaded file is not walked entry by entry', () => {
    // Were the bytes walked, this extra property of theirs would be found; they are skipped whole
    // (a 50 MB upload walked byte by byte took seconds and gigabytes).
    const upload = Object.assign(Buffer.from('Email,Amount\n'), { note: 'x\u0000' });
    expect(unstorableFields(upload, 'body')).toEqual({});
    expect(unstorableFields({ logo: Object.assign(new Uint8Array([0, 1, 2]), { note: 'x\u0000' }) }, 'body')).toEqual({});
  });

  it('keys each bad string by its dotted path, in the order of the request', () => {
    const body = {
      businessProfile: { legalName: 'Acme', dbaName: 'A\u0000' },
      owners: [{ firstName: 'Ana' }, { firstName: 'Bo\u0000', lastName: '\ud800' }],
      memo: 'fine',
    };
    const fields = unstorableFields(body, 'body');
    expect(Object.keys(fields)).toEqual(['businessProfile.dbaName', 'owners.1.firstName', 'owners.1.lastName']);
    expect(fields['owners.1.lastName']).toContain('unpaired surrogate');
  });

  it('names a string that is the whole value by its root, and a bad key by the object holding it', () => {
    expect(Object.keys(unstorableFields('raw\u0000', 'body'))).toEqual(['body']);
    expect(Object.keys(unstorableFields({ mapping: { 'e\u0000mail': 'email' } }, 'body'))).toEqual(['mapping']);
    expect(unstorableFields({ a: 1, b: null, c: true, d: [1, 'x'] }, 'body')).toEqual({});
    expect(unstorableFields(undefined, 'body')).toEqual({});
  });

  it('walks a deeply nested value without running out of stack, and reports at most 20 fields', () => {
    let deep: unknown = 'bottom\u0000';
    for (let i = 0; i < 100_000; i += 1) deep = [deep];
    const fields = unstorableFields(deep, 'body');
    expect(Object.keys(fields)).toHaveLength(1);
    expect(
      Object.keys(
        unstorableFields(
          Array.from({ length: 50 }, () => '\u0000'),
          'body',
        ),
      ),
    ).toHaveLength(20);
  });
});
