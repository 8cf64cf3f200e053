import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { AccessLog, loggedUrl } from './access-log';

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
