import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { AccessLog } from './access-log';

function appWithLog() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(text) as Record<string, unknown>);
      done();
    },
  });
  const app = Fastify({ logger: { level: 'info', stream }, logController: new AccessLog() });
  app.get('/ok', async () => ({ ok: true }));
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
    expect(access[0]).toMatchObject({ msg: 'request completed', req: { method: 'GET', url: '/ok?page=2' }, res: { statusCode: 200 } });
    expect(typeof access[0]!.responseTime).toBe('number');
    expect(typeof access[0]!.reqId).toBe('string');
    expect(JSON.stringify(lines)).not.toContain('secret-token');
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
});
