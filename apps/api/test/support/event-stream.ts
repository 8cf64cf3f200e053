import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';

export interface StreamEvent {
  event: string;
  data: unknown;
}

export interface StreamAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body of an error answer. */
  json(): Promise<unknown>;
  /** The stream, when the answer was 200. */
  stream?: EventStreamClient;
}

/**
 * A client of `GET /api/businesses/:id/changes` over real HTTP (a hijacked, endless reply cannot
 * go through `inject`). Each stream has a connection of its own (no pooled agent), so closing it
 * here closes it at the server, and no idle pooled socket keeps a closing server waiting.
 */
export class EventStreamClient {
  private readonly events: StreamEvent[] = [];
  private waiters: (() => void)[] = [];
  private closedByServer = false;
  /** Resolves when the stream ends, from either side. */
  readonly ended: Promise<void>;

  private constructor(private readonly response: IncomingMessage) {
    this.ended = new Promise((resolve) => {
      response.on('end', () => {
        this.closedByServer = true;
        resolve();
      });
      response.on('close', () => resolve());
    });
    this.ended.finally(() => this.wake()).catch(() => {});
    let buffer = '';
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      buffer += chunk;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let event = 'message';
        const data: string[] = [];
        for (const line of block.split('\n')) {
          if (line.startsWith('event: ')) event = line.slice(7);
          else if (line.startsWith('data: ')) data.push(line.slice(6));
        }
        if (data.length > 0) this.events.push({ event, data: JSON.parse(data.join('\n')) });
      }
      this.wake();
    });
  }

  static open(url: string, token?: string): Promise<StreamAnswer> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(url, { agent: false, headers: token ? { authorization: `Bearer ${token}` } : {} }, (response) => {
        const status = response.statusCode ?? 0;
        if (status === 200) {
          resolve({
            status,
            headers: response.headers,
            json: () => Promise.reject(new Error('a stream has no JSON body')),
            stream: new EventStreamClient(response),
          });
          return;
        }
        const chunks: Buffer[] = [];
        const body = new Promise<string>((done, failed) => {
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
          response.on('error', failed);
        });
        resolve({ status, headers: response.headers, json: async () => JSON.parse(await body) as unknown });
      });
      req.on('error', reject);
      req.end();
    });
  }

  get endedByServer(): boolean {
    return this.closedByServer;
  }

  /** The next event (after those already taken) that matches, within the time allowed. */
  async next(matches: (event: StreamEvent) => boolean = () => true, timeoutMs = 15_000): Promise<StreamEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.events.findIndex(matches);
      if (index >= 0) return this.events.splice(0, index + 1)[index]!;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`No matching event within ${timeoutMs} ms; saw ${JSON.stringify(this.events)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  close(): void {
    this.response.destroy();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}
