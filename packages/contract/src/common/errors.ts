import { z } from 'zod';

export { ErrorCode } from './error-codes';

/** One message per invalid field, keyed by the field's dotted path (`owners.0.email`). */
export const FieldErrors = z.record(z.string(), z.string());
export type FieldErrors = z.infer<typeof FieldErrors>;

/** The one error shape of the API. */
export const ErrorResponse = z.object({
  status: z.literal('Error'),
  errorDetails: z.object({
    code: z.string(),
    message: z.string(),
    fields: FieldErrors.optional(),
  }),
});
export type ErrorResponse = z.infer<typeof ErrorResponse>;
