import { describe, expect, it } from 'vitest';
import { LIVE_CHANGE_KINDS, readLiveChange } from './changes';

describe('readLiveChange', () => {
  it.each(LIVE_CHANGE_KINDS)('reads a change of %s, with an id or with none', (kind) => {
    expect(readLiveChange({ kind, id: 'x1' })).toEqual({ kind, id: 'x1' });
    expect(readLiveChange({ kind, id: null })).toEqual({ kind, id: null });
  });

  it.each([[{ kind: 'payer' }], [{ kind: 'refund', id: null }], [{ kind: 'payer', id: 7 }], [{ id: 'x' }], [null], ['payer'], [[]]])('refuses %j', (value) => {
    expect(readLiveChange(value)).toBeNull();
  });

  it('keeps only the fields of a change', () => {
    expect(readLiveChange({ kind: 'request', id: 'r1', extra: true })).toEqual({ kind: 'request', id: 'r1' });
  });
});
