import { useEffect } from 'react';

/** The payer's pages' endpoint table, loaded on the first call (`endpoint-table.ts`). */
export const payerEndpoints = () => import('./endpoint-table');

const TOUCHES = ['pointerdown', 'keydown', 'focusin'] as const;

/**
 * Loads the endpoint table at the payer's first touch of the page (a tap, a key, a field's focus),
 * so that the Pay button does not wait for it, and a visit that only reads the page never builds it.
 */
export function useEndpointsOnFirstTouch(): void {
  useEffect(() => {
    const load = () => {
      for (const touch of TOUCHES) document.removeEventListener(touch, load, true);
      void payerEndpoints();
    };
    for (const touch of TOUCHES) document.addEventListener(touch, load, { capture: true, passive: true });
    return () => {
      for (const touch of TOUCHES) document.removeEventListener(touch, load, true);
    };
  }, []);
}
