import { ProviderUnavailable } from './port';

/**
 * What the two provider clients share: amounts as the providers write them, and one HTTP call that
 * turns "could not reach it" into `ProviderUnavailable`. Each client maps the answers itself,
 * since each provider words its errors its own way.
 */

/** 1250 → "12.50", -5 → "-0.05": integer arithmetic only, so no float ever rounds a cent away. */
export function centsToDecimal(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`Not a whole number of cents: ${cents}`);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** "12.5", 12.5, "-0.05" → cents; null for anything that is not an amount with at most two decimals. */
export function decimalToCents(value: unknown): number | null {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  const match = /^(-?)(\d{1,13})(?:\.(\d{0,2}))?$/.exec(text);
  if (!match) return null;
  const cents = Number(match[2]) * 100 + Number((match[3] ?? '').padEnd(2, '0'));
  return match[1] === '-' ? -cents : cents;
}

/** Thousandths (1500) → "1.5"; quantities are sent with at most three decimals and no trailing zeros. */
export function milliToDecimal(milli: number): string {
  if (!Number.isSafeInteger(milli)) throw new RangeError(`Not a whole number of thousandths: ${milli}`);
  const sign = milli < 0 ? '-' : '';
  const abs = Math.abs(milli);
  const fraction = String(abs % 1000)
    .padStart(3, '0')
    .replace(/0+$/, '');
  return `${sign}${Math.trunc(abs / 1000)}${fraction ? `.${fraction}` : ''}`;
}

/** "1.5", 1.5 → 1500; null for anything with more than three decimals. */
export function decimalToMilli(value: unknown): number | null {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  const match = /^(\d{1,9})(?:\.(\d{0,3}))?$/.exec(text);
  if (!match) return null;
  return Number(match[1]) * 1000 + Number((match[2] ?? '').padEnd(3, '0'));
}

/** quantity × unit price, rounded half away from zero to the cent, in integers: what both providers show as a line's amount. */
export function lineAmountCents(quantityMilli: number, unitPriceCents: number): number {
  const product = quantityMilli * unitPriceCents;
  const sign = product < 0 ? -1 : 1;
  return sign * Math.floor((Math.abs(product) + 500) / 1000);
}

/** The Retry-After header in seconds (a number or an HTTP date), else `fallback`. */
export function retryAfterSeconds(header: string | null, fallback = 30): number {
  if (!header) return fallback;
  const seconds = Number(header.trim());
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
  const date = Date.parse(header);
  return Number.isNaN(date) ? fallback : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

export interface ProviderAnswer {
  status: number;
  headers: Headers;
  /** The parsed JSON body, or null when there was none or it was not JSON. */
  json: unknown;
}

/**
 * One HTTP call with the caller's signal. Network failures, timeouts and aborts become
 * `ProviderUnavailable` naming only the provider and the action, never the URL's query or a token.
 */
export async function callProvider(providerName: string, action: string, url: string, init: RequestInit & { signal: AbortSignal }): Promise<ProviderAnswer> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: 'manual' });
  } catch (error) {
    const aborted = init.signal.aborted || (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError'));
    throw new ProviderUnavailable(
      aborted ? `${providerName} did not answer in time (${action}).` : `${providerName} could not be reached (${action}): ${describeNetworkError(error)}.`,
    );
  }
  let text: string;
  try {
    text = await response.text();
  } catch {
    throw new ProviderUnavailable(`${providerName} stopped answering mid-way (${action}).`);
  }
  let json: unknown = null;
  if (text.trim() !== '') {
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
  }
  return { status: response.status, headers: response.headers, json };
}

function describeNetworkError(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = cause && typeof cause === 'object' && 'code' in cause ? String((cause as { code: unknown }).code) : null;
  return code ?? 'network error';
}

/** A field of an unknown JSON value, for reading answers without trusting their shape. */
export function field(value: unknown, ...path: (string | number)[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}

export function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
}
