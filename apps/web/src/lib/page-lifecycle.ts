/**
 * Whether this document is on its way out (a reload, a typed address, a link to another page).
 *
 * Chromium cancels the fetches of a page it is leaving and rejects them as network failures
 * ("Failed to fetch"), exactly like a dead connection. Without this flag the auth handler would
 * take such a cancelled request for "no response at all" (docs/product.md §8) and sign the person out —
 * forgetting the token and ending the session on the server — just because they reloaded.
 *
 * `beforeunload` and `pagehide` mark the page as leaving. If the page is still here a few seconds
 * later (the navigation was a download, or was cancelled), it was not leaving after all.
 */
const STILL_HERE_AFTER_MS = 5000;

let leaving = false;
let timer: ReturnType<typeof setTimeout> | undefined;

function markLeaving(): void {
  leaving = true;
  clearTimeout(timer);
  timer = setTimeout(() => {
    leaving = false;
  }, STILL_HERE_AFTER_MS);
}

if (typeof window !== 'undefined') {
  window.addEventListener('beforeunload', markLeaving);
  window.addEventListener('pagehide', markLeaving);
  window.addEventListener('pageshow', () => {
    clearTimeout(timer);
    leaving = false;
  });
}

export function isLeavingPage(): boolean {
  return leaving;
}
