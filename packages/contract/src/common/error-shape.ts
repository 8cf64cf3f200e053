import type { ErrorResponse } from './errors';

// No zod here: the web app reads every failed answer with this, and its first bundle carries no schemas.

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The `errorDetails` of a body in the API's error shape (what `ErrorResponse` accepts), or null
 * for anything else.
 */
export function errorDetailsOf(body: unknown): ErrorResponse['errorDetails'] | null {
  if (!isRecord(body) || body.status !== 'Error' || !isRecord(body.errorDetails)) return null;
  const { code, message, fields } = body.errorDetails;
  if (typeof code !== 'string' || typeof message !== 'string') return null;
  if (fields === undefined) return { code, message };
  if (!isRecord(fields) || !Object.values(fields).every((text) => typeof text === 'string')) return null;
  return { code, message, fields: fields as Record<string, string> };
}
