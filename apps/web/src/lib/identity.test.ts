import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { identity, onSessionLost, RETRY_DELAYS_MS } from './identity';
import { readIdentityToken, writeIdentityToken } from './session-token';

describe('identity wrapper: empty inputs are refused before any request (docs/product.md §5)', () => {
  const fetchSpy = vi.fn();
  beforeEach(() => vi.stubGlobal('fetch', fetchSpy));
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchSpy.mockReset();
  });

  it.each([
    ['signIn', () => identity.signIn('', 'pw'), 'Username cannot be empty'],
    ['signIn', () => identity.signIn('a@b.co', ''), 'Password cannot be empty'],
    ['signUp', () => identity.signUp('  ', 'pw'), 'Username cannot be empty'],
    ['signUp', () => identity.signUp('a@b.co', ''), 'Password cannot be empty'],
    ['confirmSignUp', () => identity.confirmSignUp('a@b.co', '', 'pw'), 'Confirmation code cannot be empty'],
    ['forgotPasswordSubmit', () => identity.forgotPasswordSubmit('a@b.co', ' ', 'pw'), 'Confirmation code cannot be empty'],
    ['completeNewPassword', () => identity.completeNewPassword(''), 'Challenge response cannot be empty'],
    ['resendSignUp', () => identity.resendSignUp(''), 'Username cannot be empty'],
    ['forgotPassword', () => identity.forgotPassword(''), 'Username cannot be empty'],
  ])('%s rejects with %s', async (_name, run, message) => {
    await expect(run()).rejects.toThrow(message);
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});

describe('identity wrapper: network failures', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('retries 3 times with growing delays, then resolves { status: false } with Network error', async () => {
    const fetchSpy = vi.fn().mockRejectedValue(new TypeError('Failed to fetch'));
    vi.stubGlobal('fetch', fetchSpy);
    const pending = identity.signIn('a@b.co', 'secret-password');
    for (const delay of RETRY_DELAYS_MS) await vi.advanceTimersByTimeAsync(delay);
    const result = await pending;
    expect(fetchSpy).toHaveBeenCalledTimes(4);
    expect(RETRY_DELAYS_MS).toEqual([500, 1000, 2000]);
    expect(result).toEqual({ status: false, error: { code: 'NETWORK_ERROR', message: 'Network error', title: 'Network error' } });
  });

  it('a signed-in request that gets no response at all signs the person out (docs/product.md §8)', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    writeIdentityToken('tok.sig');
    const lost = vi.fn();
    const off = onSessionLost(lost);
    const pending = identity.changePassword('old-password', 'new-password-1');
    for (const delay of RETRY_DELAYS_MS) await vi.advanceTimersByTimeAsync(delay);
    expect(await pending).toBe('Error');
    expect(lost).toHaveBeenCalledTimes(1);
    off();
  });

  it('sign-out stops waiting for the server after 3 seconds and forgets the token', async () => {
    writeIdentityToken('tok.sig');
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_url: string, init: RequestInit) =>
          new Promise((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))),
      ),
    );
    const pending = identity.signOut();
    expect(readIdentityToken()).toBeNull();
    await vi.advanceTimersByTimeAsync(3000);
    await expect(pending).resolves.toBeUndefined();
  });
});
