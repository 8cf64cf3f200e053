import { notifications } from '@mantine/notifications';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { INTEGRATION_PROVIDER_LABELS, IntegrationProvider } from '@tay/contract';

/** Why a connection did not happen, in the callback's words, for the card of its provider. */
export interface ReturnError {
  provider: IntegrationProvider | null;
  message: string;
}

/** The parameters the callback adds (`?provider=quickbooks&connected=1`, or `…&error=<words>`). */
const RETURN_PARAMS = ['provider', 'connected', 'error'] as const;

/** Longer words than any the callback sends are not ours: they are cut, not shown whole. */
const MAX_WORDS = 300;

/**
 * Back from the provider's consent page through our callback: `connected=1` is said once in a
 * toast, `error` is kept for its provider's card (exactly the words the callback gave), and the
 * parameters leave the URL (replaced, so Back does not bring them back and a reload says nothing).
 */
export function useReturnFromProvider(): { error: ReturnError | null; dismiss: () => void } {
  const [params, setParams] = useSearchParams();
  // Read once, when the page opens: the parameters are gone from the URL right after.
  const [arrival] = useState(() => {
    const provider = IntegrationProvider.safeParse(params.get('provider'));
    return {
      provider: provider.success ? provider.data : null,
      connected: params.get('connected') === '1',
      error: params.get('error')?.slice(0, MAX_WORDS) || null,
      present: RETURN_PARAMS.some((key) => params.has(key)),
    };
  });
  const [error, setError] = useState<ReturnError | null>(arrival.error ? { provider: arrival.provider, message: arrival.error } : null);
  const handled = useRef(false);

  useEffect(() => {
    if (handled.current || !arrival.present) return;
    handled.current = true;
    if (arrival.connected && arrival.provider && !arrival.error) {
      notifications.show({
        color: 'teal',
        title: `${INTEGRATION_PROVIDER_LABELS[arrival.provider].name} connected`,
        message: 'New and changed payers, invoices and payments are pushed to it; Sync now pushes them at once.',
      });
    }
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const key of RETURN_PARAMS) next.delete(key);
        return next;
      },
      { replace: true },
    );
  }, [arrival, setParams]);

  return { error, dismiss: () => setError(null) };
}
