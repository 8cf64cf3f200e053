import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { spawn, spawnSync } from 'node:child_process';
import { AccessLog, BatchedLines, accessLine, appLogger, loggedUrl } from './access-log';

function appWithLog() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(text) as Record<string, unknown>);
      done();
    },
  });
  // As the server is built (app.ts): its logger options, a request's logger made only when used.
  const app = Fastify({ loggerInstance: appLogger('info', stream as unknown as pino.DestinationStream), logController: new AccessLog() });
  app.get('/ok', async () => ({ ok: true }));
  app.get('/noted', async (request) => {
    request.log.info({ step: 'noted' }, 'a route logs');
    return { ok: true };
  });
  app.get('/boom', async () => {
    throw new Error('kaput');
  });
  return { app, lines };
}

describe('AccessLog', () => {
  it('writes one line per answered request, with the request and the response in it', async () => {
    const { app, lines } = appWithLog();
    const res = await app.inject({ method: 'GET', url: '/ok?page=2', headers: { authorization: 'Bearer secret-token' } });
    expect(res.statusCode).toBe(200);
    const access = lines.filter((l) => l.msg === 'request completed' || l.msg === 'incoming request');
    expect(access).toHaveLength(1);
    expect(access[0]).toMatchObject({
      msg: 'request completed',
      req: { method: 'GET', url: '/ok?page=2', remoteAddress: '127.0.0.1' },
      res: { statusCode: 200 },
    });
    expect(Object.keys(access[0]!.req as object)).toEqual(['method', 'url', 'remoteAddress']);
    expect(typeof access[0]!.responseTime).toBe('number');
    expect(typeof access[0]!.reqId).toBe('string');
    expect(JSON.stringify(lines)).not.toContain('secret-token');
    await app.close();
  });

  it('gives a route that logs a logger with the request id, and the access line the same id', async () => {
    const { app, lines } = appWithLog();
    await app.inject({ method: 'GET', url: '/noted' });
    const noted = lines.find((l) => l.msg === 'a route logs');
    const access = lines.find((l) => l.msg === 'request completed');
    expect(noted).toMatchObject({ step: 'noted' });
    expect(typeof noted!.reqId).toBe('string');
    expect(access!.reqId).toBe(noted!.reqId);
    expect(Object.keys(access!).filter((k) => k === 'reqId')).toHaveLength(1);
    await app.close();
  });

  it('logs a failed request at error level with its status', async () => {
    const { app, lines } = appWithLog();
    expect((await app.inject({ method: 'GET', url: '/boom' })).statusCode).toBe(500);
    const completed = lines.filter((l) => l.msg === 'request completed' || l.msg === 'request errored');
    expect(completed).toHaveLength(1);
    expect(completed[0]).toMatchObject({ res: { statusCode: 500 } });
    await app.close();
  });

  it('keeps OAuth codes, states and tokens in a query out of the log', async () => {
    expect(loggedUrl('/api/integrations/quickbooks/callback?code=AB11&state=s3cr3t&realmId=9130')).toBe(
      '/api/integrations/quickbooks/callback?code=[redacted]&state=[redacted]&realmId=9130',
    );
    expect(loggedUrl('/x?page=2&access_token=abc#top')).toBe('/x?page=2&access_token=[redacted]#top');
    expect(loggedUrl('/api/health')).toBe('/api/health');
    expect(loggedUrl('/x?barcode=1')).toBe('/x?barcode=1');

    const { app, lines } = appWithLog();
    await app.inject({ method: 'GET', url: '/ok?code=one-time-code&state=the-state' });
    expect(JSON.stringify(lines)).not.toContain('one-time-code');
    expect(JSON.stringify(lines)).not.toContain('the-state');
    await app.close();
  });
});

describe('accessLine', () => {
  const logger = pino({ level: 'info', base: { pid: 42, hostname: 'web-1' } });

  it('is the line pino writes for the same fields', () => {
    const fields = { reqId: 'r-1', method: 'GET', url: '/api/health?page=2', remoteAddress: '10.0.0.7', statusCode: 200, responseTime: 0.8123 };
    const lines: string[] = [];
    const same = pino({ level: 'info', base: { pid: 42, hostname: 'web-1' } }, { write: (line: string) => void lines.push(line) });
    same.info(
      {
        reqId: fields.reqId,
        req: { method: 'GET', url: fields.url, remoteAddress: fields.remoteAddress },
        res: { statusCode: 200 },
        responseTime: fields.responseTime,
      },
      'request completed',
    );
    const byHand = accessLine(logger as never, fields);
    expect(byHand.endsWith('\n')).toBe(true);
    const { time: _a, ...mine } = JSON.parse(byHand) as Record<string, unknown>;
    const { time: _b, ...theirs } = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(Object.keys(mine)).toEqual(Object.keys(theirs));
    expect(mine).toEqual(theirs);
  });

  it('escapes what the caller sent, redacts credentials and leaves out an address it does not have', () => {
    const line = JSON.parse(
      accessLine(logger as never, {
        reqId: 'a"b\\c\n',
        method: 'GET',
        url: '/x?state=s3cr3t&q="</script>',
        remoteAddress: undefined,
        statusCode: 404,
        responseTime: 1,
      }),
    ) as { reqId: string; req: Record<string, unknown> };
    expect(line.reqId).toBe('a"b\\c\n');
    expect(line.req).toEqual({ method: 'GET', url: '/x?state=[redacted]&q="</script>' });
  });
});

describe('BatchedLines', () => {
  const collector = () => {
    const writes: string[] = [];
    return { writes, out: { write: (text: string) => writes.push(text) > 0 } };
  };

  it('hands lines on together, a tenth of a second after the first, or at once when 4 kB have gathered', async () => {
    const { writes, out } = collector();
    const lines = new BatchedLines(out);
    lines.write('one\n');
    lines.write('two\n');
    expect(writes).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(writes).toEqual(['one\ntwo\n']);
    lines.write(`${'x'.repeat(5000)}\n`);
    expect(writes).toHaveLength(2);
  });

  it('counts the lines its writer drops and says how many at the head of the next batch', () => {
    const writes: string[] = [];
    let full = true;
    const listeners: ((data: string) => void)[] = [];
    const out = {
      write: (text: string) => (full ? listeners.forEach((listener) => listener(text)) : writes.push(text), true),
      on: (_event: 'drop', listener: (data: string) => void) => listeners.push(listener),
    };
    const lines = new BatchedLines(out);
    lines.write(`${'a'.repeat(4100)}\n`);
    lines.write(`${'b'.repeat(4100)}\n`);
    full = false;
    lines.write(`${'c'.repeat(4100)}\n`);
    expect(writes).toHaveLength(1);
    const [notice, next] = writes[0]!.split('\n');
    expect(JSON.parse(notice!)).toMatchObject({ level: 40, msg: 'log lines dropped', droppedLines: 2, droppedBytes: 8202 });
    expect(next).toBe('c'.repeat(4100));
  });

  it('holds a bounded amount while standard output is not read, and reports what it dropped when it is', async () => {
    const script = `import { logDestination } from ${JSON.stringify(new URL('./access-log.ts', import.meta.url).href)};
      const out = logDestination(1_000_000);
      const line = JSON.stringify({ level: 30, msg: 'x'.repeat(1000) }) + '\\n';
      const before = process.memoryUsage().rss;
      for (let i = 0; i < 100_000; i++) out.write(line);
      await new Promise((resolve) => setTimeout(resolve, 300));
      globalThis.gc?.();
      process.stderr.write(JSON.stringify({ grewMb: (process.memoryUsage().rss - before) / 1e6 }) + '\\n');
      await new Promise((resolve) => setTimeout(resolve, 1500));
      out.write('{"msg":"after"}\\n');
      await new Promise((resolve) => setTimeout(resolve, 300));`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    const report = await new Promise<{ grewMb: number }>((resolve, reject) => {
      let text = '';
      child.stderr.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes('\n')) {
          try {
            resolve(JSON.parse(text.slice(0, text.indexOf('\n'))) as { grewMb: number });
          } catch {
            reject(new Error(text));
          }
        }
      });
    });
    // Only now is standard output read: 100 MB were written to a pipe nobody read.
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    await new Promise((resolve) => child.on('close', resolve));
    expect(report.grewMb).toBeLessThan(60);
    const notice = stdout.split('\n').find((line) => line.includes('"log lines dropped"'));
    expect(notice, 'a line reports the dropped lines').toBeDefined();
    expect(JSON.parse(notice!).droppedLines).toBeGreaterThan(90_000);
    expect(stdout).toContain('{"msg":"after"}');
  }, 30_000);

  it('writes what it holds before the process exits', () => {
    const script = `import { appLogger } from ${JSON.stringify(new URL('./access-log.ts', import.meta.url).href)};
      appLogger('info').info({ kept: true }, 'the last words'); process.exit(0);`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('"msg":"the last words"');
  });
});
