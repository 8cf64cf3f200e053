import { LIVE_EVENTS, readLiveChange, type LiveChange } from '@tay/contract';
import { authHeaders, buildUrl } from './api-client';
import { readIdentityToken } from './session-token';

export interface LiveStreamHandlers {
  /** The stream is live. `again`: after a reconnect, so notices may have been missed meanwhile. */
  onReady(again: boolean): void;
  onChange(change: LiveChange): void;
}

export interface LiveStreamOptions {
  /** The pause before the n-th reconnect in a row (from 0); a good connection starts over. */
  retryDelayMs?: (attempt: number) => number;
}

/** Reconnects back off to one try every 30 s; each pause is shortened at random so tabs spread out. */
export const LIVE_RETRY_DELAYS_MS = [1000, 2000, 5000, 10_000, 30_000] as const;

function defaultRetryDelay(attempt: number): number {
  const base = LIVE_RETRY_DELAYS_MS[Math.min(attempt, LIVE_RETRY_DELAYS_MS.length - 1)]!;
  return base * (0.5 + Math.random() / 2);
}

/** Splits `text/event-stream` text, as it arrives in pieces, into its events (name and data). */
export function eventStreamParser(onEvent: (event: string, data: string) => void): (chunk: string) => void {
  let buffer = '';
  let event = '';
  let data: string[] = [];
  return (chunk) => {
    buffer += chunk;
    // A CR at the end may be the first half of a CRLF.
    const carry = buffer.endsWith('\r') ? '\r' : '';
    const lines = (carry ? buffer.slice(0, -1) : buffer).split(/\r\n|\r|\n/);
    buffer = (lines.pop() ?? '') + carry;
    for (const line of lines) {
      if (line === '') {
        if (data.length > 0) onEvent(event || 'message', data.join('\n'));
        event = '';
        data = [];
      } else if (!line.startsWith(':')) {
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event = value;
        else if (field === 'data') data.push(value);
      }
    }
  };
}

/**
 * Follows `GET /api/businesses/:id/changes` (ADR 025) over fetch, which, unlike EventSource,
 * carries the bearer token. Reconnects with growing pauses when the connection drops or the
 * server restarts; lets go while the tab is hidden and comes back when it is shown; gives up for
 * good when the answer says it never will work (signed out, not a member). Returns `stop`.
 */
export function openLiveStream(businessId: string, handlers: LiveStreamHandlers, options: LiveStreamOptions = {}): () => void {
  const retryDelay = options.retryDelayMs ?? defaultRetryDelay;
  let stopped = false;
  let controller: AbortController | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let attempt = 0;
  let wasReady = false;

  const hidden = () => typeof document !== 'undefined' && document.visibilityState === 'hidden';

  function retryLater(delayMs = retryDelay(attempt)): void {
    attempt += 1;
    clearTimeout(retryTimer);
    retryTimer = setTimeout(connect, delayMs);
  }

  function connect(): void {
    retryTimer = undefined;
    if (stopped || controller || hidden() || !readIdentityToken()) return;
    const current = new AbortController();
    controller = current;
    void follow(current.signal).then(
      (next) => {
        if (controller === current) controller = null;
        if (stopped || current.signal.aborted) return;
        if (next === 'stop') stop();
        else retryLater(typeof next === 'number' ? next : undefined);
      },
      () => {
        if (controller === current) controller = null;
        if (!stopped && !current.signal.aborted) retryLater();
      },
    );
  }

  /** Reads one connection to its end; says whether to stop, or how long to wait (ms) if the server said. */
  async function follow(signal: AbortSignal): Promise<'stop' | 'retry' | number> {
    const response = await fetch(buildUrl(`/businesses/${encodeURIComponent(businessId)}/changes`), {
      headers: { ...authHeaders(), Accept: 'text/event-stream' },
      cache: 'no-store',
      signal,
    });
    if (response.status === 401 || response.status === 403 || response.status === 404) return 'stop';
    if (!response.ok || !response.body) {
      const after = Number(response.headers.get('retry-after'));
      await response.body?.cancel();
      return Number.isFinite(after) && after > 0 ? after * 1000 : 'retry';
    }
    const parse = eventStreamParser((event, data) => {
      if (event === LIVE_EVENTS.ready) {
        attempt = 0;
        handlers.onReady(wasReady);
        wasReady = true;
      } else if (event === LIVE_EVENTS.change) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(data);
        } catch {
          return;
        }
        const change = readLiveChange(parsed);
        if (change) handlers.onChange(change);
      }
    });
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return 'retry';
      parse(decoder.decode(value, { stream: true }));
    }
  }

  function pause(): void {
    clearTimeout(retryTimer);
    retryTimer = undefined;
    controller?.abort();
    controller = null;
  }

  const onVisibility = () => {
    if (hidden()) pause();
    else connect();
  };
  const onOnline = () => {
    if (retryTimer !== undefined) {
      clearTimeout(retryTimer);
      connect();
    }
  };

  function stop(): void {
    if (stopped) return;
    stopped = true;
    pause();
    document.removeEventListener('visibilitychange', onVisibility);
    window.removeEventListener('online', onOnline);
  }

  document.addEventListener('visibilitychange', onVisibility);
  window.addEventListener('online', onOnline);
  connect();
  return stop;
}
