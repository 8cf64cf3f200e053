import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { ErrorCode, type ErrorResponse, type FieldErrors } from '@tay/contract';
import { isConnectionLoss } from '../db/connection-loss';
import { AppError } from '../lib/app-error';

export function errorBody(code: string, message: string, fields?: FieldErrors): ErrorResponse {
  return { status: 'Error', errorDetails: fields ? { code, message, fields } : { code, message } };
}

const FRAMEWORK_CODES: Record<number, string> = {
  400: ErrorCode.BadRequest,
  401: ErrorCode.Unauthorized,
  403: ErrorCode.Forbidden,
  404: ErrorCode.NotFound,
  405: ErrorCode.BadRequest,
  409: ErrorCode.Conflict,
  413: ErrorCode.PayloadTooLarge,
  415: ErrorCode.BadRequest,
  422: ErrorCode.UnprocessableEntity,
  429: ErrorCode.RateLimited,
};

/**
 * Errors the router meets before any route or hook runs (Fastify's `frameworkErrors`), in the
 * same shape as every other: a path whose %-encoding does not decode to text (an encoded
 * unpaired surrogate, a cut-off `%E2%82`), a path parameter above the length limit.
 */
export function frameworkError(error: FastifyError, _request: unknown, reply: FastifyReply): void {
  const status = error.statusCode ?? 500;
  if (error.code === 'FST_ERR_BAD_URL') {
    reply.status(400).send(errorBody(ErrorCode.BadRequest, 'The address has a %-encoded character that is not valid text. Check the link and try again.'));
  } else if (status >= 400 && status < 500) {
    reply
      .status(status)
      .send(errorBody(FRAMEWORK_CODES[status] ?? ErrorCode.BadRequest, error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'The address is too long.' : error.message));
  } else {
    reply.status(500).send(errorBody(ErrorCode.Internal, 'Something went wrong on our side. Please try again.'));
  }
}

/**
 * One error shape for every failure: `{ status: 'Error', errorDetails: { code, message, fields? } }`.
 * 4xx messages explain the problem; 5xx messages never carry internals (they are logged instead).
 */
export const errorHandler = fp(
  async function errorHandler(app: FastifyInstance) {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (error instanceof AppError) {
        for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
        return reply.status(error.statusCode).send(errorBody(error.code, error.message, error.fields));
      }
      if (hasZodFastifySchemaValidationErrors(error)) {
        const fields: FieldErrors = {};
        for (const issue of error.validation) {
          const where = issue.instancePath.replace(/^\//, '').replace(/\//g, '.');
          const key = where || error.validationContext || 'body';
          fields[key] ??= issue.message ?? 'Invalid value.';
        }
        const names = Object.keys(fields).join(', ');
        return reply.status(400).send(errorBody(ErrorCode.ValidationFailed, `Please correct the highlighted fields: ${names}.`, fields));
      }
      if (isResponseSerializationError(error)) {
        request.log.error({ err: error }, 'response did not match its schema');
        return reply.status(500).send(errorBody(ErrorCode.Internal, 'Something went wrong on our side. Please try again.'));
      }
      if (isConnectionLoss(error)) {
        // The database went away under the request, or would not take a connection in time (a
        // restart, ADR 046): nothing the caller did, and trying again shortly may well work.
        request.log.warn({ err: error }, 'request failed: the database could not be reached');
        return reply
          .status(503)
          .header('retry-after', '1')
          .send(errorBody(ErrorCode.Unavailable, 'The service is temporarily unavailable. Please try again shortly.'));
      }
      const status = error.statusCode ?? 500;
      if (status >= 400 && status < 500) {
        const code = FRAMEWORK_CODES[status] ?? ErrorCode.BadRequest;
        // A route may word these two for its own body (a file upload): `config.bodyMessages`.
        const own = (request.routeOptions.config as { bodyMessages?: { tooLarge: string; mediaType: string } } | undefined)?.bodyMessages;
        const message =
          status === 429
            ? 'Too many requests. Please wait a moment and try again.'
            : error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
              ? (own?.mediaType ?? 'Send the request body as JSON (Content-Type: application/json).')
              : error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' && own
                ? own.tooLarge
                : error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
                  ? 'The request body is empty; send a JSON object.'
                  : error.message;
        return reply.status(status).send(errorBody(code, message));
      }
      request.log.error({ err: error }, 'request failed');
      const unavailable = status === 503;
      return reply
        .status(status >= 500 ? status : 500)
        .send(
          errorBody(
            unavailable ? ErrorCode.Unavailable : ErrorCode.Internal,
            unavailable ? 'The service is temporarily unavailable. Please try again shortly.' : 'Something went wrong on our side. Please try again.',
          ),
        );
    });
  },
  { name: 'error-handler' },
);
