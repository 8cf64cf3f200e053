import { baseUrl } from './app';
import type { ApprovedAccount } from './approved-business';

/** The API as a business's owner calls it (the journeys' set-up): the `data` of a success, or a thrown error with the answer. */
export async function ownerApi<T = Record<string, unknown>>(owner: ApprovedAccount, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${baseUrl()}/api${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${owner.token}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: T }).data;
}
