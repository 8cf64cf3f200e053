/**
 * Whether long text typed by a person (a memo with a link, a long surname, an e-mail) breaks to
 * fit a narrow screen: `overflow-wrap: anywhere` on it or on a box around it (it is inherited).
 * jsdom lays nothing out, so a test checks the style that makes it wrap rather than a width.
 */
export function wrapsAnywhere(element: Element | null): boolean {
  for (let e = element; e; e = e.parentElement) {
    if (e instanceof HTMLElement && e.style.overflowWrap === 'anywhere') return true;
  }
  return false;
}
