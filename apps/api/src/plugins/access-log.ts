import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * One access line per request, written when it is answered, with the request and the response
 * in it. Fastify's default writes two (on arrival and on completion); at a thousand requests a
 * second that is a measurable share of the work (ADR 010).
 */
export class AccessLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const line = {
      req: { method: request.method, url: request.url, remoteAddress: request.ip },
      res: { statusCode: reply.statusCode },
      responseTime: reply.elapsedTime,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
