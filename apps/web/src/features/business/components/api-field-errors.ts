import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from '../../../lib/api-client';

/**
 * Puts the server's per-field messages (`fields` of the error shape, keyed by dotted path such
 * as `businessProfile.ein` or `owners.0.email`) on the form's fields; `prefix` is the section.
 */
export function applyFieldErrors<T extends FieldValues>(error: unknown, setError: UseFormSetError<T>, prefix = ''): void {
  if (!(error instanceof ApiError) || !error.fields) return;
  for (const [key, message] of Object.entries(error.fields)) {
    const field = prefix && key.startsWith(`${prefix}.`) ? key.slice(prefix.length + 1) : key;
    setError(field as Path<T>, { message });
  }
}
