import { Box, Loader, Text } from '@mantine/core';
import { forwardRef, useCallback, useEffect, useImperativeHandle, useRef, useState } from 'react';
import { publicConfig } from '../../../config/public-config';

export interface CardFieldHandle {
  /** Asks the processor's field for a token; resolves with it or rejects with the field's message. */
  tokenize(): Promise<{ token: string; label: string }>;
}

/**
 * The processor's hosted card field in an iframe: the card number is typed into the processor's
 * page and sent to the processor only. Messages follow its protocol (tay:ready, tay:change,
 * tay:tokenize → tay:token | tay:error) and are accepted only from our own origin's frame.
 */
export const CardField = forwardRef<CardFieldHandle, { onCompleteChange?: (complete: boolean) => void }>(function CardField({ onCompleteChange }, ref) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [ready, setReady] = useState(false);
  const pending = useRef<{ resolve: (v: { token: string; label: string }) => void; reject: (e: Error) => void } | null>(null);

  const onMessage = useCallback(
    (event: MessageEvent) => {
      if (event.origin !== window.location.origin || event.source !== frame.current?.contentWindow) return;
      const data = event.data as { type?: string; complete?: boolean; token?: string; label?: string; message?: string };
      if (data.type === 'tay:ready') setReady(true);
      else if (data.type === 'tay:change') onCompleteChange?.(Boolean(data.complete));
      else if (data.type === 'tay:token' && data.token) {
        pending.current?.resolve({ token: data.token, label: data.label ?? 'Card' });
        pending.current = null;
      } else if (data.type === 'tay:error') {
        pending.current?.reject(new Error(data.message ?? 'Check your card details.'));
        pending.current = null;
      }
    },
    [onCompleteChange],
  );

  useEffect(() => {
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [onMessage]);

  useImperativeHandle(ref, () => ({
    tokenize: () =>
      new Promise((resolve, reject) => {
        if (!frame.current?.contentWindow) {
          reject(new Error('The card form is still loading. Try again in a moment.'));
          return;
        }
        pending.current = { resolve, reject };
        frame.current.contentWindow.postMessage({ type: 'tay:tokenize' }, window.location.origin);
        setTimeout(() => {
          if (pending.current?.resolve === resolve) {
            pending.current = null;
            reject(new Error('The payment processor did not answer. Try again.'));
          }
        }, 20_000);
      }),
  }));

  const src = `${publicConfig.processorElementsUrl}?pk=${encodeURIComponent(publicConfig.processorPublishableKey)}`;
  return (
    <Box pos="relative">
      {!ready && (
        <Text size="sm" c="dimmed" component="div">
          <Loader size="xs" mr={6} /> Loading the secure card form…
        </Text>
      )}
      <iframe
        ref={frame}
        src={src}
        title="Card details (secure form of the payment processor)"
        style={{ width: '100%', height: 190, border: 0, display: ready ? 'block' : 'none' }}
      />
    </Box>
  );
});
