import { notifications } from '@mantine/notifications';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { INTEGRATION_MESSAGES, INTEGRATION_PROVIDER_LABELS, integrationCallbackMessage, IntegrationProvider } from '@tay/contract';

/** Why a connection did not happen, for the card of its provider. */
export interface ReturnError {
  provider: IntegrationProvider | null;
  message: string;
}

/** The parameters the callback adds (`?provider=quickbooks&connected=1`, or `…&error=<code>`). */
const RETURN_PARAMS = ['provider', 'connected', 'error'] as const;

/**
 * The words for the callback's error code (`IntegrationCallbackError`): only the contract's own, so
 * a link someone makes cannot put words of theirs on this page.
 */
function messageFor(code: string, provider: IntegrationProvider | null): string {
  if (provider) return integrationCallbackMessage(code, provider);
  return code === 'invalid_state' ? INTEGRATION_MESSAGES.invalidState : 'The connection did not complete. Try Connect again.';
}

/**
 * Back from the provider's consent page through our callback: `connected=1` is said once in a
 * toast, `error` is shown on its provider's card in the contract's words for its code, and the
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
      error: params.get('error') || null,
      present: RETURN_PARAMS.some((key) => params.has(key)),
    };
  });
  const [error, setError] = useState<ReturnError | null>(
    arrival.error ? { provider: arrival.provider, message: messageFor(arrival.error, arrival.provider) } : null,
  );
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
