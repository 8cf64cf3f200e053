import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * One access line per request, written when it is answered, with the request and the response
 * in it. Fastify's default writes two (on arrival and on completion); at a thousand requests a
 * second that is a measurable share of the work (ADR 010).
 */
/** Query parameters that are credentials (OAuth's code and state, tokens): their values never reach a log. */
const SECRET_PARAMS = /([?&](?:code|state|token|access_token|refresh_token|code_verifier|client_secret)=)[^&#]*/gi;

/** The URL as logged: a credential in its query (an OAuth callback's `code` and `state`) is replaced by `[redacted]`. */
export function loggedUrl(url: string): string {
  return url.includes('?') ? url.replace(SECRET_PARAMS, '$1[redacted]') : url;
}

export class AccessLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const line = {
      req: { method: request.method, url: loggedUrl(request.url), remoteAddress: request.ip },
      res: { statusCode: reply.statusCode },
      responseTime: reply.elapsedTime,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
