import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * What production does not publish (ADR 023): the API reference (Swagger UI and the OpenAPI
 * document) and the web app's source maps. Development serves both.
 */
let distDir: string;
let production: TestApp;
let development: TestApp;
beforeAll(async () => {
  // A built web app in miniature: its page, a script and the script's source map.
  distDir = mkdtempSync(path.join(tmpdir(), 'tay-dist-'));
  mkdirSync(path.join(distDir, 'assets'));
  writeFileSync(path.join(distDir, 'index.html'), '<!doctype html><html><head><title>Tay</title></head><body></body></html>');
  writeFileSync(path.join(distDir, 'assets', 'index-abc.js'), 'console.log(1);\n//# sourceMappingURL=index-abc.js.map\n');
  writeFileSync(path.join(distDir, 'assets', 'index-abc.js.map'), '{"version":3,"sources":["../src/main.tsx"],"sourcesContent":["// the original source"]}');
  production = await createTestApp({
    NODE_ENV: 'production',
    AUTH_SECRET: 'p'.repeat(40),
    PUBLIC_URL: 'https://portal.example',
    WEB_DIST_DIR: distDir,
  });
  development = await createTestApp({ NODE_ENV: 'development', WEB_DIST_DIR: distDir });
});
afterAll(async () => {
  await production?.close();
  await development?.close();
  rmSync(distDir, { recursive: true, force: true });
});

const get = (t: TestApp, url: string) => t.app.inject({ method: 'GET', url });

describe('in production', () => {
  it('serves neither Swagger UI nor the OpenAPI document', async () => {
    for (const url of ['/api/docs', '/api/docs/', '/api/docs/json', '/api/docs/static/index.html', '/api/openapi.json']) {
      const res = await get(production, url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().errorDetails.code, url).toBe('NOT_FOUND');
    }
  });

  it('refuses source maps however they are asked for, and still serves the scripts', async () => {
    for (const url of ['/assets/index-abc.js.map', '/assets/index-abc.js%2Emap', '/assets/index-abc.js.map?x=1']) {
      const res = await get(production, url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).not.toContain('the original source');
    }
    const script = await get(production, '/assets/index-abc.js');
    expect(script.statusCode).toBe(200);
    expect(script.body).toContain('console.log(1)');
  });
});

describe('accounting integrations in production', () => {
  it('offers no stand-in of QuickBooks or FreshBooks: their pages, token endpoints and test switches are not there', async () => {
    for (const url of ['/sandbox/quickbooks/connect/oauth2', '/sandbox/freshbooks/oauth/authorize', '/sandbox/quickbooks/records?accountId=1&type=customer']) {
      expect((await get(production, url)).statusCode, url).toBe(404);
    }
    const post = await production.app.inject({ method: 'POST', url: '/sandbox/quickbooks/switches', payload: { accountId: '1', refuseTokens: true } });
    expect(post.statusCode).toBe(404);
  });
});

describe('in development', () => {
  it('serves the API reference and the source maps', async () => {
    expect((await get(development, '/api/docs/')).statusCode).toBe(200);
    expect((await get(development, '/api/openapi.json')).statusCode).toBe(200);
    const map = await get(development, '/assets/index-abc.js.map');
    expect(map.statusCode).toBe(200);
    expect(map.body).toContain('the original source');
  });
});
