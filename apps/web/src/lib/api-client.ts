import { errorDetailsOf, type FieldErrors } from '@tay/contract';
import { isLeavingPage } from './page-lifecycle';
import { readIdentityToken } from './session-token';

/** A failed API call: the server's error shape, or a network failure (`status` 0). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: FieldErrors,
    /** For 422 `AMOUNT_CONFIRMATION_REQUIRED`: the amount to repeat (the `Confirm-Amount-Cents` header). */
    readonly confirmAmountCents?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get isNetworkError(): boolean {
    return this.status === 0;
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined | null>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

type UnauthorizedListener = () => void;
const unauthorizedListeners = new Set<UnauthorizedListener>();

/** Called when the API answers 401 to a request that carried a token: the session is gone. */
export function onUnauthorized(listener: UnauthorizedListener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

export function buildUrl(path: string, query?: RequestOptions['query']): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const search = params.toString();
  return `/api${path}${search ? `?${search}` : ''}`;
}

/** The headers of every product request (docs/product.md §7): JSON, and the bearer token when there is one. */
export function authHeaders(): Record<string, string> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  const token = readIdentityToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  // The product asks for this console line when no token can be read (docs/product.md, "Sessions").
  else console.log('no auth token found!');
  return headers;
}

type NoResponseListener = () => void;
const noResponseListeners = new Set<NoResponseListener>();

/**
 * Called when a request that carried the session's token got no response at all, after its
 * retries: the auth handler then signs the person out (docs/product.md §8).
 */
export function onNoResponse(listener: NoResponseListener): () => void {
  noResponseListeners.add(listener);
  return () => noResponseListeners.delete(listener);
}

/** Reads are retried on network failure, with growing delays; writes are not (they may have landed). */
export const READ_RETRY_DELAYS_MS = [500, 1000, 2000] as const;

/** The one API client of the web app. Resolves with the parsed body; throws `ApiError`. */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const headers = { ...authHeaders(), ...options.headers };
  const method = options.method ?? 'GET';
  let response: Response | null = null;
  const delays = method === 'GET' ? READ_RETRY_DELAYS_MS : [];
  for (let attempt = 0; response === null; attempt++) {
    try {
      response = await fetch(buildUrl(path, options.query), {
        method,
        headers,
        body: options.body === undefined ? null : JSON.stringify(options.body),
        signal: options.signal ?? null,
      });
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      const delay = delays[attempt];
      if (delay === undefined) {
        // A request cancelled because the page is being left is not a lost connection.
        if (headers.Authorization && !isLeavingPage()) noResponseListeners.forEach((listener) => listener());
        throw new ApiError(0, 'NETWORK_ERROR', 'We could not reach Tay. Check your connection and try again.');
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
  const text = await response.text();
  let body: unknown = undefined;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  if (!response.ok) {
    if (response.status === 401 && headers.Authorization) unauthorizedListeners.forEach((listener) => listener());
    const details = errorDetailsOf(body);
    const confirm = Number(response.headers.get('confirm-amount-cents') ?? Number.NaN);
    if (details) throw new ApiError(response.status, details.code, details.message, details.fields, Number.isSafeInteger(confirm) ? confirm : undefined);
    throw new ApiError(
      response.status,
      'HTTP_ERROR',
      response.status >= 500 ? 'Something went wrong on our side. Please try again.' : `The request failed (${response.status}).`,
    );
  }
  return body as T;
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) => apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) => apiRequest<T>(path, { ...options, method: 'POST', body }),
  patch: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) => apiRequest<T>(path, { ...options, method: 'PATCH', body }),
  put: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) => apiRequest<T>(path, { ...options, method: 'PUT', body }),
  delete: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) => apiRequest<T>(path, { ...options, method: 'DELETE' }),
};
