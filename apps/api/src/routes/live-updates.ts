import type { ServerResponse } from 'node:http';
import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import { ErrorCode, LIVE_EVENTS, liveEndpoints, type LiveChange } from '@tay/contract';
import type { DB } from '../db/schema';
import { ChangeFeed } from '../domain/changes/change-feed';
import { watchBusinessChanges } from '../domain/changes/watch-business-changes';
import { AppError } from '../lib/app-error';
import { endpointMounter } from '../http/mount';

/** Open streams a person may have on one server process (a tab each; a reload briefly holds two). */
export const MAX_STREAMS_PER_USER = 8;
/** A comment line this often keeps idle proxies and load balancers from dropping the stream. */
const HEARTBEAT_MS = 25_000;
/** How often a stream asks the gate again whether its session and membership still admit it. */
const RECHECK_MS = 60_000;
/** A client that stops reading is cut off rather than buffered for. */
const MAX_UNREAD_BYTES = 64 * 1024;

export interface LiveUpdateOptions {
  db: Kysely<DB>;
  /** The change feed's pause between reads (tests shorten it). */
  feedIntervalMs?: number;
}

/** An open event stream; writes wait in `pending` until the headers have gone out. */
class EventStream {
  private pending: string[] | null = [];
  private ended = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly onEnd: () => void,
  ) {
    res.on('close', () => this.end());
  }

  get isEnded(): boolean {
    return this.ended;
  }

  open(headers: Record<string, string | number | string[] | undefined>): void {
    if (this.ended) return;
    this.res.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      // Proxies that buffer responses (nginx) would hold the notices back.
      'x-accel-buffering': 'no',
      // The connection is the stream's alone: when the stream ends, so does it, and a closing
      // server has no kept-alive connection left to wait for.
      connection: 'close',
    });
    const queued = this.pending ?? [];
    this.pending = null;
    this.res.flushHeaders();
    for (const chunk of queued) this.write(chunk);
  }

  event(name: string, data: unknown): void {
    this.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  comment(text: string): void {
    this.write(`: ${text}\n\n`);
  }

  private write(chunk: string): void {
    if (this.ended) return;
    if (this.pending) {
      this.pending.push(chunk);
      return;
    }
    if (this.res.writableLength > MAX_UNREAD_BYTES) {
      this.res.destroy();
      return;
    }
    this.res.write(chunk);
  }

  /** Ends the stream: an open one is finished, one still waiting to open is cut off. */
  end(): void {
    if (!this.release()) return;
    if (this.res.writableEnded || this.res.destroyed) return;
    if (this.res.headersSent) this.res.end();
    else this.res.destroy();
  }

  /** Forgets the stream without touching the response (the handler answers with an error). */
  release(): boolean {
    if (this.ended) return false;
    this.ended = true;
    this.onEnd();
    return true;
  }
}

/**
 * `GET /api/businesses/:id/changes` (ADR 025): a `text/event-stream` of the business's change
 * notices for its members, so open screens refresh what changed without a reload. The reply is
 * hijacked (it outlives the handler); every stream ends before the server closes, so shutting
 * down, and `inject` in tests, never wait on one.
 */
export const liveUpdateRoutes: FastifyPluginAsync<LiveUpdateOptions> = async (app, { db, feedIntervalMs }) => {
  const feed = new ChangeFeed({
    db,
    ...(feedIntervalMs === undefined ? {} : { intervalMs: feedIntervalMs }),
    onError: (error) => app.log.warn({ err: error }, 'reading change notices failed; retrying'),
  });
  const streams = new Set<EventStream>();
  const streamsPerUser = new Map<string, number>();

  app.addHook('preClose', async () => {
    for (const stream of [...streams]) stream.end();
    await feed.close();
  });

  endpointMounter(app, db)(liveEndpoints.events, async ({ business, session, request, reply, readmit }) => {
    const userId = session.user.id;
    const businessId = business.id;
    const open = streamsPerUser.get(userId) ?? 0;
    if (open >= MAX_STREAMS_PER_USER) {
      throw new AppError(
        ErrorCode.RateLimited,
        `You have ${MAX_STREAMS_PER_USER} live connections open already. Close a tab of Tay, or wait a moment and try again.`,
      ).withHeader('retry-after', '30');
    }

    const timers: ReturnType<typeof setInterval>[] = [];
    let unsubscribe = () => {};
    streamsPerUser.set(userId, open + 1);
    const stream = new EventStream(reply.raw, () => {
      streams.delete(stream);
      unsubscribe();
      for (const timer of timers) clearInterval(timer);
      const left = (streamsPerUser.get(userId) ?? 1) - 1;
      if (left > 0) streamsPerUser.set(userId, left);
      else streamsPerUser.delete(userId);
    });
    streams.add(stream);

    try {
      const subscription = watchBusinessChanges({
        feed,
        businessId,
        listener: (change: LiveChange) => stream.event(LIVE_EVENTS.change, change),
      });
      unsubscribe = subscription.unsubscribe;
      if (stream.isEnded) unsubscribe();
      else await subscription.ready;
    } catch (error) {
      if (stream.isEnded) return reply.hijack();
      stream.release();
      if (error instanceof AppError) throw error;
      request.log.warn({ err: error }, 'live updates could not start');
      throw new AppError(ErrorCode.Unavailable, 'Live updates are not available right now. Try again in a moment.');
    }

    reply.hijack();
    if (stream.isEnded) return reply;
    stream.open(reply.getHeaders());
    stream.event(LIVE_EVENTS.ready, {});
    timers.push(setInterval(() => stream.comment('ping'), HEARTBEAT_MS));
    timers.push(
      setInterval(() => {
        void (async () => {
          if (!(await readmit())) stream.end();
        })().catch((error: unknown) => request.log.warn({ err: error }, 'rechecking a live stream failed'));
      }, RECHECK_MS),
    );
    return reply;
  });
};
