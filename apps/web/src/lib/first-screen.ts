import { useLayoutEffect } from 'react';

/**
 * A payer's first screen (ADR 047): the server wrote the page's words into `#first-screen` and
 * the API's answer beside them (`<script type="application/json" id="tay-first-screen">`), and
 * hid the app's root. The payer's page reads that answer as its query's first data — no second
 * call, no spinner where the amount was — and, once it has drawn itself, takes the screen's place.
 */

interface Embedded {
  kind: 'pay' | 'qr' | 'receipt';
  key: string;
  value: unknown;
}

let embedded: Embedded | null | undefined;

function read(): Embedded | null {
  if (embedded !== undefined) return embedded;
  embedded = null;
  const element = typeof document === 'undefined' ? null : document.getElementById('tay-first-screen');
  if (element?.textContent) {
    try {
      embedded = JSON.parse(element.textContent) as Embedded;
    } catch {
      embedded = null;
    }
  }
  return embedded;
}

/** The server's answer for this page's query (its kind and key), when the page came with one. */
export function firstScreenData<T>(kind: Embedded['kind'], key: string): T | undefined {
  const data = read();
  return data && data.kind === kind && data.key === key ? (data.value as T) : undefined;
}

/** When the server read that answer: the page's navigation, as near as the browser tells. */
export const firstScreenReadAt = (): number => (typeof performance === 'undefined' ? Date.now() : Math.round(performance.timeOrigin));

/** Removes the server's screen and shows the app's root (idempotent; nothing to do on a page without one). */
export function leaveFirstScreen(): void {
  if (typeof document === 'undefined') return;
  document.getElementById('first-screen')?.remove();
  document.getElementById('root')?.removeAttribute('hidden');
}

/** Takes the server's screen away before the browser paints the page that replaces it (`ready`: it has its data, or its problem). */
export function useLeaveFirstScreen(ready: boolean): void {
  useLayoutEffect(() => {
    if (ready) leaveFirstScreen();
  }, [ready]);
}

/** For tests: forget what was read. */
export function resetFirstScreen(): void {
  embedded = undefined;
}
