// The error codes apart from the error schemas: every page reads them, few need zod.

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
