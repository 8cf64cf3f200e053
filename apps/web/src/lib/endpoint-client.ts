import { queryOptions, type QueryKey } from '@tanstack/react-query';
import { isFileBody, pathOf, type EndpointInputOf, type EndpointSpec, type ResponseOf } from '@tay/contract';
import { withAmountConfirmation } from './amount-confirmation';
import { apiRequest, type RequestOptions } from './api-client';
import { downloadFile, fetchFile } from './download';

/**
 * The typed web client, derived from the endpoint table in `packages/contract` (ARCHITECTURE.md,
 * "Adding an endpoint"): the path is built from the endpoint's, the inputs and the result are
 * the endpoint's types, and in development and tests each response is checked against the
 * endpoint's schema, so a server and a screen that disagree fail loudly before production.
 */

type Query = NonNullable<RequestOptions['query']>;

/** What a call sends; each part is there when the endpoint declares it. */
export type EndpointInput<E extends EndpointSpec> = EndpointInputOf<E> & { signal?: AbortSignal; headers?: Record<string, string> };

/** Checked in development and tests only: production trusts the server and ships no extra work. */
const checkResponses = import.meta.env.DEV || import.meta.env.MODE === 'test';

/** Drops empty values, as the server reads an absent filter and an empty one alike. */
export function queryOf(query: object | undefined): Query {
  const entries = Object.entries(query ?? {}).filter(([, value]) => value !== undefined && value !== null && value !== '');
  return Object.fromEntries(entries.map(([key, value]) => [key, Array.isArray(value) ? value.join(',') : value])) as Query;
}

/** The endpoint's path with its parameters, without the `/api` prefix the client adds. */
function relativePath(endpoint: EndpointSpec, params: object | undefined): string {
  return pathOf(endpoint.path, params as Record<string, string>).replace(/^\/api/, '');
}

/** Calls an endpoint of the table. Resolves with its JSON success body; throws `ApiError`. */
export async function callEndpoint<E extends EndpointSpec>(endpoint: E, input: EndpointInput<E>): Promise<ResponseOf<E>> {
  const { params, query, body, signal, headers } = input as {
    params?: object;
    query?: object;
    body?: unknown;
    signal?: AbortSignal;
    headers?: Record<string, string>;
  };
  // A large amount the API asks to confirm is asked here, once, for every money-moving call.
  const result = await withAmountConfirmation((confirmedAmountCents) =>
    apiRequest<unknown>(relativePath(endpoint, params), {
      method: endpoint.method,
      query: queryOf(query),
      ...(endpoint.method === 'GET'
        ? {}
        : { body: confirmedAmountCents === undefined ? (body ?? {}) : { ...((body as object | undefined) ?? {}), confirmedAmountCents } }),
      ...(signal ? { signal } : {}),
      ...(headers ? { headers } : {}),
    }),
  );
  if (checkResponses && !isFileBody(endpoint.response) && endpoint.status !== 204) {
    const checked = endpoint.response.safeParse(result);
    if (!checked.success) {
      throw new Error(`${endpoint.method} ${endpoint.path} answered a body its contract does not allow: ${checked.error.message}`);
    }
  }
  return result as ResponseOf<E>;
}

/** Calls an endpoint and gives its `data` (every JSON success is `{ status: 'Success', data }`). */
export async function callForData<E extends EndpointSpec>(endpoint: E, input: EndpointInput<E>): Promise<DataOf<E>> {
  const result = (await callEndpoint(endpoint, input)) as { data: DataOf<E> };
  return result.data;
}

export type DataOf<E extends EndpointSpec> = ResponseOf<E> extends { data: infer D } ? D : never;

/**
 * The cache key of a call: its area and business first, so that everything of one area of a
 * business is invalidated by {@link areaKey} (live updates, mutations), then the call itself.
 */
export function endpointKey<E extends EndpointSpec>(endpoint: E, input: EndpointInput<E>): QueryKey {
  const { params, query } = input as { params?: { id?: string }; query?: { businessId?: string } };
  return [...areaKey(endpoint.tag, params?.id ?? query?.businessId), endpoint.path, params ?? {}, queryOf(query)];
}

/** Every cached call of an area for a business. */
export function areaKey(tag: string, businessId: string | undefined): readonly [string, string] {
  return [tag, businessId ?? 'none'];
}

/** React Query options that read an endpoint's `data`. */
export function endpointQuery<E extends EndpointSpec>(endpoint: E, input: EndpointInput<E>) {
  return queryOptions({
    queryKey: endpointKey(endpoint, input),
    queryFn: ({ signal }) => callForData(endpoint, { ...input, signal }),
  });
}

/** Downloads a file endpoint's answer (a CSV export) with the session's token. */
export async function downloadEndpoint<E extends EndpointSpec>(endpoint: E, input: EndpointInput<E>, fallbackName: string): Promise<void> {
  const { params, query } = input as { params?: object; query?: object };
  await downloadFile(relativePath(endpoint, params), queryOf(query), fallbackName);
}

/** Reads a file endpoint's answer (an image, a PDF) with the session's token, for a preview shown through an object URL. */
export async function fetchEndpointFile<E extends EndpointSpec>(endpoint: E, input: EndpointInput<E>): Promise<Blob> {
  const { params, query, signal } = input as { params?: object; query?: object; signal?: AbortSignal };
  return fetchFile(relativePath(endpoint, params), queryOf(query), signal);
}
