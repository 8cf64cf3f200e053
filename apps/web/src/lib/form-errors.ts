import { useState } from 'react';
import type { FieldErrors } from '@tay/contract';
import { ApiError } from './api-client';

/** The field errors an API refusal carries (400 `VALIDATION_FAILED` with `fields`), by the API's field keys; undefined for any other failure. */
export function serverFieldErrors(error: unknown): FieldErrors | undefined {
  return error instanceof ApiError && error.fields ? error.fields : undefined;
}

/**
 * A form's errors, by the API's field keys, and the one problem said above the fields. `refused`
 * puts a refusal where it belongs: its field errors onto their fields, anything else (a state
 * conflict, no connection) as the problem. Answers whether it was the fields.
 */
export function useFormErrors() {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [problem, setProblem] = useState<string | null>(null);
  const refused = (error: unknown): boolean => {
    const fields = serverFieldErrors(error);
    if (fields) setErrors(fields);
    else setProblem(error instanceof Error ? error.message : 'Something went wrong. Try again.');
    return Boolean(fields);
  };
  return { errors, setErrors, problem, setProblem, refused };
}
