import { matchRoutes, type RouteObject } from 'react-router';

/**
 * Loading a page's scripts before it is opened (issue 37): on a menu link's hover, focus or touch,
 * and, once the page has been still for a moment, the pages a person most likely opens next. The
 * route table's own `lazy` loaders do it — the module the router would load — so a preloaded page
 * opens with nothing left to download, and one never preloaded loads as before. Not on a
 * connection that asks to save data or is as slow as 2G.
 */

interface RouteTable {
  readonly routes: readonly RouteObject[];
}

let table: RouteTable | null = null;
const started = new Set<string>();

/** The router whose pages are preloaded (its routes as they stand: the business pages once added). */
export function preloadPagesFrom(router: RouteTable): void {
  table = router;
}

interface Connection {
  saveData?: boolean;
  effectiveType?: string;
}

/** Whether preloading is welcome: not when the browser asks to save data, nor on 2G. */
export function mayPreload(connection: Connection | undefined = (globalThis.navigator as { connection?: Connection } | undefined)?.connection): boolean {
  if (!connection) return true;
  if (connection.saveData) return false;
  return !/(^|-)2g$/.test(connection.effectiveType ?? '');
}

/** Starts loading the page at `to` (a path, with or without its query), once. */
export function preloadPage(to: string): void {
  if (!table || !mayPreload()) return;
  const pathname = to.split(/[?#]/)[0] ?? to;
  if (started.has(pathname)) return;
  started.add(pathname);
  for (const match of matchRoutes([...table.routes], pathname) ?? []) {
    const lazy = match.route.lazy;
    if (typeof lazy === 'function') void Promise.resolve(lazy()).catch(() => started.delete(pathname));
  }
}

/** How long a page is left to itself before its likely next pages load: after what it loads for itself. */
export const IDLE_PRELOAD_DELAY_MS = 1_500;

/** Preloads `paths` once the page has been still for a moment and the browser is idle; returns a cancel. */
export function preloadWhenIdle(paths: readonly string[]): () => void {
  if (paths.length === 0) return () => {};
  let idle: number | undefined;
  const w = globalThis as typeof globalThis & {
    requestIdleCallback?: (cb: () => void, o?: { timeout: number }) => number;
    cancelIdleCallback?: (id: number) => void;
  };
  const timer = setTimeout(() => {
    const run = () => paths.forEach(preloadPage);
    if (w.requestIdleCallback) idle = w.requestIdleCallback(run, { timeout: 3_000 });
    else run();
  }, IDLE_PRELOAD_DELAY_MS);
  return () => {
    clearTimeout(timer);
    if (idle !== undefined) w.cancelIdleCallback?.(idle);
  };
}

/** For tests: forget the router and what was preloaded. */
export function resetPagePreload(): void {
  table = null;
  started.clear();
}
