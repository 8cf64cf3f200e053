/**
 * Sends the browser to the provider's consent page (a full page load: the provider sends it back
 * through our callback). A module of its own so that the page's tests can see where it went,
 * which jsdom's `window.location` cannot show.
 */
export function goToProvider(url: string): void {
  window.location.assign(url);
}
