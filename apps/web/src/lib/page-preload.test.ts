import type { RouteObject } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IDLE_PRELOAD_DELAY_MS, mayPreload, preloadPage, preloadPagesFrom, preloadWhenIdle, resetPagePreload } from './page-preload';

afterEach(() => {
  resetPagePreload();
  vi.useRealTimers();
});

function table() {
  const shell = vi.fn(async () => ({}));
  const payers = vi.fn(async () => ({}));
  const history = vi.fn(async () => ({}));
  const routes: RouteObject[] = [
    {
      path: '/business',
      lazy: shell,
      children: [
        { path: 'payment/payers', lazy: payers },
        { path: 'payment/transactions/history', lazy: history },
      ],
    },
  ];
  preloadPagesFrom({ routes });
  return { shell, payers, history };
}

describe('preloading a page', () => {
  it("loads the matched routes' own modules, once per path, whatever the query", () => {
    const { shell, payers, history } = table();
    preloadPage('/business/payment/payers?page=2');
    preloadPage('/business/payment/payers');
    expect(payers).toHaveBeenCalledTimes(1);
    expect(shell).toHaveBeenCalledTimes(1);
    expect(history).not.toHaveBeenCalled();
  });

  it('does nothing for a path no route matches, or before a router is known', () => {
    preloadPage('/business/payment/payers');
    const { payers } = table();
    preloadPage('/nowhere');
    expect(payers).not.toHaveBeenCalled();
  });

  it('is not welcome on a connection that saves data or is 2G', () => {
    expect(mayPreload(undefined)).toBe(true);
    expect(mayPreload({ effectiveType: '4g' })).toBe(true);
    expect(mayPreload({ saveData: true, effectiveType: '4g' })).toBe(false);
    expect(mayPreload({ effectiveType: '2g' })).toBe(false);
    expect(mayPreload({ effectiveType: 'slow-2g' })).toBe(false);
  });

  it('loads the likely next pages once the page has been still, and not if it is left before', () => {
    vi.useFakeTimers();
    const { payers, history } = table();
    preloadWhenIdle(['/business/payment/payers']);
    const cancel = preloadWhenIdle(['/business/payment/transactions/history']);
    cancel();
    vi.advanceTimersByTime(IDLE_PRELOAD_DELAY_MS - 1);
    expect(payers).not.toHaveBeenCalled();
    vi.advanceTimersByTime(5_000);
    expect(payers).toHaveBeenCalledTimes(1);
    expect(history).not.toHaveBeenCalled();
  });
});
