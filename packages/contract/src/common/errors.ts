import { z } from 'zod';

/** Machine-readable error codes returned in `errorDetails.code`. */
export const ErrorCode = {
  BadRequest: 'BAD_REQUEST',
  ValidationFailed: 'VALIDATION_FAILED',
  Unauthorized: 'UNAUTHORIZED',
  Forbidden: 'FORBIDDEN',
  NotFound: 'NOT_FOUND',
  Conflict: 'CONFLICT',
  /** 410: a link that worked once and no longer does (expired or withdrawn). */
  Gone: 'GONE',
  /** 409: a request with the same Idempotency-Key is still running; retry it with the same key. */
  IdempotencyKeyInUse: 'IDEMPOTENCY_KEY_IN_USE',
  UnprocessableEntity: 'UNPROCESSABLE_ENTITY',
  RateLimited: 'RATE_LIMITED',
  PayloadTooLarge: 'PAYLOAD_TOO_LARGE',
  Internal: 'INTERNAL_ERROR',
  Unavailable: 'SERVICE_UNAVAILABLE',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode] | (string & {});

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
