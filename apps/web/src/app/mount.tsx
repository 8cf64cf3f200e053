import { startTransition, StrictMode, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';

/**
 * Draws an entry's app into `#root` (both entries: the portal's `main.tsx`, the payer's
 * `payer-main.tsx`). The first render is a transition, so React draws it in slices that let the
 * browser answer a tap between them instead of one long task: on a phone the payer's page is
 * already on screen (ADR 047) while the app takes over behind it (bench/RESULTS.md, lighthouse).
 */
export function mountApp(app: ReactNode): void {
  const element = document.getElementById('root');
  if (!element) throw new Error('The page has no #root element');
  const root = createRoot(element);
  startTransition(() => {
    root.render(<StrictMode>{app}</StrictMode>);
  });
}
