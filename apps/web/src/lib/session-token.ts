/**
 * The session's identity token (docs/product.md §3 "the identity token"), kept in local storage so a
 * reload keeps the person signed in. Every read is guarded: private modes and locked-down
 * browsers can refuse storage, and then the app behaves as signed out.
 */
const KEY = 'tay.identityToken';

export function readIdentityToken(): string | null {
  try {
    return window.localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function writeIdentityToken(token: string | null): void {
  try {
    if (token) window.localStorage.setItem(KEY, token);
    else window.localStorage.removeItem(KEY);
  } catch {
    // Storage refused: the session lasts until the tab closes.
  }
}
