import { afterEach, describe, expect, it, vi } from 'vitest';
import { authHeaders, buildUrl } from './api-client';
import { writeIdentityToken } from './session-token';

describe('API client headers (docs/product.md §7)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('sends JSON and the identity token as a bearer token', () => {
    writeIdentityToken('tok_123');
    expect(authHeaders()).toEqual({ 'Content-Type': 'application/json', Authorization: 'Bearer tok_123' });
  });

  it('without a token sends no Authorization header and logs "no auth token found!"', () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    expect(authHeaders()).toEqual({ 'Content-Type': 'application/json' });
    expect(log).toHaveBeenCalledWith('no auth token found!');
  });

  it('when storage cannot be read, behaves as without a token', () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    expect(authHeaders()).toEqual({ 'Content-Type': 'application/json' });
    expect(log).toHaveBeenCalledWith('no auth token found!');
  });
});

describe('buildUrl', () => {
  it('prefixes /api and drops empty query values', () => {
    expect(buildUrl('/payers', { page: 2, search: '', status: undefined, q: 'a b' })).toBe('/api/payers?page=2&q=a+b');
  });
});

describe('a request through the auth handler that gets no response (docs/product.md §8)', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('retries reads with growing delays, then tells the session to sign out', async () => {
    vi.useFakeTimers();
    const { apiRequest, onNoResponse, READ_RETRY_DELAYS_MS } = await import('./api-client');
    writeIdentityToken('tok.sig');
    const fetchSpy = vi.fn().mockRejectedValue(new TypeError('Failed to fetch'));
    vi.stubGlobal('fetch', fetchSpy);
    const lost = vi.fn();
    const off = onNoResponse(lost);
    const pending = apiRequest('/user').catch((e: unknown) => e);
    for (const delay of READ_RETRY_DELAYS_MS) await vi.advanceTimersByTimeAsync(delay);
    const error = (await pending) as { code: string };
    expect(error.code).toBe('NETWORK_ERROR');
    expect(fetchSpy).toHaveBeenCalledTimes(4);
    expect(lost).toHaveBeenCalledTimes(1);
    off();
  });

  it('a request cancelled because the page is being left (a reload) signs nobody out', async () => {
    const { apiRequest, onNoResponse } = await import('./api-client');
    writeIdentityToken('tok.sig');
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    const lost = vi.fn();
    const off = onNoResponse(lost);
    window.dispatchEvent(new Event('beforeunload'));
    await expect(apiRequest('/businesses/b/update/prepareSubmit', { method: 'PATCH', body: {} })).rejects.toMatchObject({ code: 'NETWORK_ERROR' });
    expect(lost).not.toHaveBeenCalled();
    // Back from the back-forward cache (or the navigation never happened): a dead connection counts again.
    window.dispatchEvent(new Event('pageshow'));
    await expect(apiRequest('/businesses/b/update/prepareSubmit', { method: 'PATCH', body: {} })).rejects.toMatchObject({ code: 'NETWORK_ERROR' });
    expect(lost).toHaveBeenCalledTimes(1);
    off();
  });

  it('does not retry writes, and a request without a session signs nobody out', async () => {
    const { apiRequest, onNoResponse } = await import('./api-client');
    const fetchSpy = vi.fn().mockRejectedValue(new TypeError('Failed to fetch'));
    vi.stubGlobal('fetch', fetchSpy);
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const lost = vi.fn();
    const off = onNoResponse(lost);
    await expect(apiRequest('/public/pay/x/decline', { method: 'POST', body: {} })).rejects.toMatchObject({ code: 'NETWORK_ERROR' });
    expect(fetchSpy).toHaveBeenCalledTimes(1);
    expect(lost).not.toHaveBeenCalled();
    off();
  });
});
