import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'fastify/types/logger';
import pino, { type DestinationStream } from 'pino';

/**
 * The server's log: JSON lines, one access line per answered request. What a line costs is paid
 * on every request, so (bench/RESULTS.md, 2026-12-01):
 * - one line per request, written when it is answered, with the request and the response in it
 *   (Fastify's default writes two: on arrival and on completion);
 * - no child logger per request: a request's logger is made only when something logs through it
 *   ({@link RequestLogger}); the access line is written by hand ({@link accessLine}), with the
 *   request id, straight to the destination;
 * - no redaction pass: the access line holds the method, the URL (credentials in its query
 *   replaced, {@link loggedUrl}), the caller's address and the status, never a header, and the
 *   serializers below write requests and replies the same way wherever they are logged;
 * - written in batches off the event loop ({@link BatchedLines}), not one blocking write per line.
 */

/** Query parameters that are credentials (OAuth's code and state, tokens): their values never reach a log. */
const SECRET_PARAMS = /([?&](?:code|state|token|access_token|refresh_token|code_verifier|client_secret)=)[^&#]*/gi;

/** The URL as logged: a credential in its query (an OAuth callback's `code` and `state`) is replaced by `[redacted]`. */
export function loggedUrl(url: string): string {
  return url.includes('?') ? url.replace(SECRET_PARAMS, '$1[redacted]') : url;
}

interface LoggedRequest {
  method: string;
  url: string;
  remoteAddress?: string;
}

/**
 * How a request is written wherever it is logged under `req`: method, URL as {@link loggedUrl}
 * gives it, the caller's address. Never its headers (the bearer token, cookies). A value already
 * in that shape (the access line's) goes as it is.
 */
export function requestForLog(value: FastifyRequest | LoggedRequest): { method?: string; url?: string; remoteAddress?: string } {
  if (value === null || typeof value !== 'object') return value;
  if (!('raw' in value) && !('headers' in value)) return value;
  const request = value as FastifyRequest;
  return { method: request.method, url: loggedUrl(request.url ?? ''), remoteAddress: request.ip ?? request.socket?.remoteAddress };
}

/** How a reply is written under `res`: its status only. */
export function replyForLog(value: FastifyReply | { statusCode: number }): { statusCode?: number } {
  if (value === null || typeof value !== 'object') return value;
  return { statusCode: value.statusCode };
}

/** How many characters of lines a batch gathers before it is handed to the writer. */
const BATCH_CHARS = 4096;
/** How long a line may wait for its batch (ms). */
const BATCH_MS = 100;
/** Every batch of lines still to be written when the process exits. */
const open = new Set<BatchedLines>();
/**
 * The most log text held in memory while standard output is not being read (a stalled pipe, a
 * full disk behind it), in bytes: past it, lines are dropped and counted instead of growing the
 * process without bound, and a line says how many once writing resumes.
 */
export const LOG_BUFFER_BYTES = 16 * 1024 * 1024;
/** How the line that reports dropped lines begins, so that its own drop is not counted as another. */
const DROP_NOTICE = '{"level":40,"msg":"log lines dropped"';

/** A writer that says when it dropped a write because its buffer was full (SonicBoom's `drop` event). */
type Writer = DestinationStream & {
  flushSync?: () => void;
  flush?: (cb?: (error?: Error) => void) => void;
  on?: (event: 'drop', listener: (data: string) => void) => unknown;
};

/**
 * Lines gathered in memory and handed on in batches of about 4 kB, or a tenth of a second after
 * the first line of a batch, to a writer that writes them off the event loop. Each line costs an
 * array push. pino's own asynchronous destination measures the bytes of the whole pending text on
 * every line (2–3 % of a health check's time at 20,000 a second); one blocking write per line to a
 * pipe was a system call per request. What is gathered is written before the process exits.
 * Lines the writer dropped (its buffer full, {@link LOG_BUFFER_BYTES}) are counted, and the next
 * batch begins with a line saying how many.
 */
export class BatchedLines {
  private parts: string[] = [];
  private size = 0;
  private timer: NodeJS.Timeout | null = null;
  private droppedLines = 0;
  private droppedBytes = 0;
  /** Set by the writer's `drop` event, which it emits during the write it refuses. */
  private refused = false;

  constructor(private readonly out: Writer) {
    if (open.size === 0) process.once('exit', () => open.forEach((lines) => lines.flushSync()));
    open.add(this);
    out.on?.('drop', (data: string) => this.countDropped(data));
  }

  private countDropped(data: string): void {
    let lines = 0;
    for (let at = data.indexOf('\n'); at !== -1; at = data.indexOf('\n', at + 1)) lines++;
    const notice = data.startsWith(DROP_NOTICE) ? data.indexOf('\n') + 1 : 0;
    this.droppedLines += lines - (notice > 0 ? 1 : 0);
    this.droppedBytes += Buffer.byteLength(data) - notice;
    this.refused = true;
  }

  /**
   * Writes `text`, led by a line saying how many lines were dropped since the last such line was
   * written. Those counts are cleared only when the writer took the line; a refused notice's
   * counts go into the next one.
   */
  private writeOut(text: string): void {
    const lines = this.droppedLines;
    const bytes = this.droppedBytes;
    const notice =
      lines === 0 && bytes === 0
        ? ''
        : `${DROP_NOTICE},"time":${Date.now()},"droppedLines":${lines},"droppedBytes":${bytes},"reason":"standard output was not being read"}\n`;
    this.refused = false;
    this.out.write(notice + text);
    if (notice && !this.refused) {
      this.droppedLines -= lines;
      this.droppedBytes -= bytes;
    }
  }

  write(line: string): boolean {
    this.parts.push(line);
    this.size += line.length;
    if (this.size >= BATCH_CHARS) this.handOn();
    else this.timer ??= setTimeout(() => this.handOn(), BATCH_MS).unref();
    return true;
  }

  private handOn(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.parts.length === 0) return;
    const text = this.parts.length === 1 ? this.parts[0]! : this.parts.join('');
    this.parts = [];
    this.size = 0;
    this.writeOut(text);
  }

  /** What pino's `logger.flush()` calls: everything gathered, handed on and written. */
  flush(callback?: (error?: Error) => void): void {
    this.handOn();
    if (this.out.flush) this.out.flush(callback);
    else callback?.();
  }

  flushSync(): void {
    this.handOn();
    try {
      this.out.flushSync?.();
    } catch {
      // A writer that cannot write any more at exit (a closed pipe) has nothing to save.
    }
  }
}

/** Where the server's lines go: standard output, in batches ({@link BatchedLines}), holding at most `maxBytes` unwritten. */
export function logDestination(maxBytes = LOG_BUFFER_BYTES): DestinationStream {
  return new BatchedLines(pino.destination({ dest: 1, sync: false, maxLength: maxBytes }));
}

/** The app's loggers are pino's, which say whether a level is on. */
type Logger = FastifyBaseLogger & { isLevelEnabled(level: string): boolean };

/** pino's own `child`, shared by every pino logger (on their prototype). */
const PINO_CHILD = (
  Object.getPrototypeOf(pino({ level: 'silent' }, { write: () => {} })) as { child: (bindings: Bindings, options?: ChildLoggerOptions) => unknown }
).child;

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/**
 * A request's logger as Fastify hands it out, made for real (a pino child with the request id)
 * only when something logs through it. Most requests log nothing but their access line.
 */
export class RequestLogger {
  #child: Logger | null = null;

  constructor(
    readonly parent: Logger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private get real(): Logger {
    return (this.#child ??= PINO_CHILD.call(this.parent, this.bindings, this.options) as Logger);
  }

  get level(): string {
    return this.#child?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.real.level = level;
  }

  isLevelEnabled(level: string): boolean {
    return (this.#child ?? this.parent).isLevelEnabled(level);
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real.child(bindings, options);
  }

  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.write('error', args);
  }
  warn(...args: unknown[]): void {
    this.write('warn', args);
  }
  info(...args: unknown[]): void {
    this.write('info', args);
  }
  debug(...args: unknown[]): void {
    this.write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.write('trace', args);
  }
  silent(): void {}

  private write(level: Exclude<Level, 'silent'>, args: unknown[]): void {
    // A level that is off writes nothing and makes no child.
    if (!this.#child && !this.parent.isLevelEnabled(level)) return;
    (this.real[level] as (...a: unknown[]) => void)(...args);
  }
}

/**
 * The app's logger as Fastify is given it (`loggerInstance`): pino's, except that the logger
 * Fastify asks of it for each request (a child with the request id) is a {@link RequestLogger},
 * made only when used. Given as the instance rather than as a `childLoggerFactory`, which Fastify
 * checks method by method on every request.
 */
export function appLogger(level: string, stream: DestinationStream = logDestination()): FastifyBaseLogger {
  return withLazyRequests(pino({ level, serializers: { req: requestForLog, res: replyForLog } }, stream) as unknown as Logger);
}

/** The request id's key in a request's bindings (Fastify's `requestIdLogLabel`). */
const REQUEST_ID = 'reqId';

function withLazyRequests(logger: Logger): FastifyBaseLogger {
  // The children pino makes inherit from this logger, and so the method below, with themselves as `this`.
  Object.defineProperty(logger, 'child', {
    value: function child(this: Logger, bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
      if (REQUEST_ID in bindings) return new RequestLogger(this, bindings, options ?? {}) as unknown as FastifyBaseLogger;
      return PINO_CHILD.call(this, bindings, options) as FastifyBaseLogger;
    },
    writable: true,
    configurable: true,
  });
  return logger;
}

const { chindingsSym, streamSym } = pino.symbols;

/**
 * The access line of an answered request as pino would write it through `logger` at info, made
 * by hand: the request's fields are known, so the generic walk over the object (keys, serializers,
 * a stringify per value) is left out. Strings that come from the caller (the URL, a request id
 * sent as `X-Request-Id`) are escaped as JSON; the method is an HTTP token and the status a number.
 */
export function accessLine(
  logger: Logger,
  line: { reqId: string; method: string; url: string; remoteAddress: string | undefined; statusCode: number; responseTime: number },
): string {
  const bindings = (logger as unknown as Record<symbol, string>)[chindingsSym] ?? '';
  const address = line.remoteAddress === undefined ? '' : `,"remoteAddress":${JSON.stringify(line.remoteAddress)}`;
  return (
    `{"level":30,"time":${Date.now()}${bindings},"reqId":${JSON.stringify(line.reqId)},` +
    `"req":{"method":"${line.method}","url":${JSON.stringify(loggedUrl(line.url))}${address}},"res":{"statusCode":${line.statusCode}},` +
    `"responseTime":${line.responseTime},"msg":"request completed"}\n`
  );
}

/**
 * One access line per request, written when it is answered, with the request and the response in
 * it. Fastify's default writes two (on arrival and on completion); at a thousand requests a second
 * that is a measurable share of the work (ADR 010). A request that failed is logged at error level
 * with its error, through pino; one that was answered, by {@link accessLine}, straight to the
 * logger's destination.
 */
export class AccessLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const log = reply.log;
    if (!error && log instanceof RequestLogger) {
      const root = log.parent;
      if (!root.isLevelEnabled('info')) return;
      const stream = (root as unknown as Record<symbol, { write(line: string): void } | undefined>)[streamSym];
      if (stream) {
        stream.write(
          accessLine(root, {
            reqId: request.id,
            method: request.method,
            url: request.url,
            remoteAddress: request.ip,
            statusCode: reply.statusCode,
            responseTime: reply.elapsedTime,
          }),
        );
        return;
      }
    }
    const req: LoggedRequest = { method: request.method, url: loggedUrl(request.url), remoteAddress: request.ip };
    const res = { statusCode: reply.statusCode };
    if (error) log.error({ req, res, responseTime: reply.elapsedTime, err: error }, 'request errored');
    else log.info({ req, res, responseTime: reply.elapsedTime }, 'request completed');
  }
}
