import { ErrorCode, type FieldErrors } from '@tay/contract';

const STATUS: Record<string, number> = {
  [ErrorCode.BadRequest]: 400,
  [ErrorCode.ValidationFailed]: 400,
  [ErrorCode.Unauthorized]: 401,
  [ErrorCode.Forbidden]: 403,
  [ErrorCode.NotFound]: 404,
  [ErrorCode.Conflict]: 409,
  [ErrorCode.IdempotencyKeyInUse]: 409,
  [ErrorCode.Gone]: 410,
  [ErrorCode.PayloadTooLarge]: 413,
  [ErrorCode.UnprocessableEntity]: 422,
  [ErrorCode.RateLimited]: 429,
  [ErrorCode.Internal]: 500,
  [ErrorCode.Unavailable]: 503,
};

/**
 * The error a use case throws. The code decides the HTTP status; the message is shown to the
 * person, so it says what was wrong and, when it helps, what to do.
 */
export class AppError extends Error {
  readonly statusCode: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fields?: FieldErrors,
    statusCode?: number,
  ) {
    super(message);
    this.name = 'AppError';
    this.statusCode = statusCode ?? STATUS[code] ?? 400;
  }

  /** Extra response headers (e.g. Retry-After). */
  readonly headers: Record<string, string> = {};

  withHeader(name: string, value: string): this {
    this.headers[name] = value;
    return this;
  }

  static notFound(what: string): AppError {
    return new AppError(ErrorCode.NotFound, `${what} not found.`);
  }

  /** No live session behind the request (401). */
  static signInRequired(): AppError {
    return new AppError(ErrorCode.Unauthorized, 'Sign in to continue.');
  }

  /** The person still has to replace a temporary password: the challenge holds them (403). */
  static newPasswordRequired(): AppError {
    return new AppError('NEW_PASSWORD_REQUIRED', 'Choose a new password to continue.', undefined, 403);
  }

  static validation(message: string, fields?: FieldErrors): AppError {
    return new AppError(ErrorCode.ValidationFailed, message, fields);
  }
}
