import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvedBusiness, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { createTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
let webDir: string;
let biz: ApprovedBusiness;
const db = () => t.runtime.database.db;

const script = 'export function greet(name) { return `Hello, ${name}!`; }\n'.repeat(300);
const scriptBr = brotliCompressSync(script);
const scriptGz = gzipSync(script, { level: 9 });
/** A built file with no compressed copies beside it. */
const unpaired = 'export const label = "a label that repeats";\n'.repeat(100);

beforeAll(async () => {
  // A stand-in for the built web app: hashed assets with the .br and .gz copies the build writes.
  webDir = mkdtempSync(path.join(tmpdir(), 'tay-web-'));
  mkdirSync(path.join(webDir, 'assets'));
  writeFileSync(path.join(webDir, 'index.html'), `<!doctype html><html><head><title>Tay</title></head><body>${'<div></div>'.repeat(200)}</body></html>`);
  writeFileSync(path.join(webDir, 'assets/index-abc123.js'), script);
  writeFileSync(path.join(webDir, 'assets/index-abc123.js.br'), scriptBr);
  writeFileSync(path.join(webDir, 'assets/index-abc123.js.gz'), scriptGz);
  writeFileSync(path.join(webDir, 'assets/other-def456.js'), unpaired);
  t = await createTestApp({ WEB_DIST_DIR: webDir });
  biz = await approvedBusiness(t.app, db(), 'owner@compression.example');
  // Enough requests that the list and its export are worth compressing.
  const payerId = await insertPayer(db(), biz.businessId, { displayName: 'Casey Compress' });
  await sql`
    INSERT INTO payment_requests (business_id, id, number, payer_id, payer_display_name, payer_email, amount_cents, due_date, expires_on, state, sent_at, created_at)
    SELECT ${biz.businessId}, 'req_compress' || g, g, ${payerId}, 'Casey Compress', 'casey@payers.example', 1000 + g,
           current_date + 14, current_date + 44, 'Sent', now(), now() - make_interval(mins => g)
    FROM generate_series(1, 60) g`.execute(db());
});
afterAll(async () => {
  await t?.close();
  rmSync(webDir, { recursive: true, force: true });
});

const asset = (url: string, acceptEncoding?: string) =>
  t.app.inject({ method: 'GET', url, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });

describe('the built web app is sent pre-compressed and cached for good', () => {
  it('sends the brotli copy to a browser that accepts it, with its length, type and a year of caching', async () => {
    const res = await asset('/assets/index-abc123.js', 'gzip, deflate, br, zstd');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['vary']).toMatch(/accept-encoding/i);
    // The file written at build time, as it is: not compressed again per request.
    expect(Number(res.headers['content-length'])).toBe(scriptBr.length);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(script);
  });

  it('sends the gzip copy to one that accepts only gzip, and the file itself to one that accepts neither', async () => {
    const gz = await asset('/assets/index-abc123.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(Number(gz.headers['content-length'])).toBe(scriptGz.length);
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);
    expect(gz.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    const plain = await asset('/assets/index-abc123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
    expect(plain.headers['vary']).toMatch(/accept-encoding/i);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('never serves the compressed copies as files of their own', async () => {
    const res = await asset('/assets/index-abc123.js.br', 'br');
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.statusCode).toBe(404);
  });

  it('compresses a built file that has no copies as it sends it', async () => {
    const res = await asset('/assets/other-def456.js', 'gzip');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(res.rawPayload).toString()).toBe(unpaired);
  });

  it('has the page revalidated every time, compressed', async () => {
    const res = await asset('/login', 'br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(res.rawPayload).toString()).toContain('<title>Tay</title>');
    expect(res.headers['vary']).toMatch(/accept-encoding/i);

    const plain = await asset('/login');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['cache-control']).toBe('no-cache');
    expect(plain.body).toContain('<title>Tay</title>');
  });
});

describe('API responses are compressed when large and accepted', () => {
  const list = (acceptEncoding?: string) =>
    t.app.inject({
      method: 'GET',
      url: `/api/businesses/${biz.businessId}/payment-requests?pageSize=50`,
      headers: { authorization: `Bearer ${biz.token}`, ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) },
    });

  it('sends the history list as brotli or gzip, as the client accepts, and the same JSON', async () => {
    const plain = await list();
    expect(plain.statusCode, plain.body).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json().data.items).toHaveLength(50);

    const br = await list('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['vary']).toMatch(/accept-encoding/i);
    expect(br.headers['content-type']).toMatch(/^application\/json/);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());

    const gz = await list('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(plain.json());

    const identity = await list('identity');
    expect(identity.headers['content-encoding']).toBeUndefined();
  });

  it('leaves a small answer as it is', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'accept-encoding': 'gzip, br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json()).toMatchObject({ status: 'ok' });
  });

  it('streams the CSV export compressed, every row intact', async () => {
    const url = `/api/businesses/${biz.businessId}/payment-requests/export.csv`;
    const headers = { authorization: `Bearer ${biz.token}` };
    const plain = await t.app.inject({ method: 'GET', url, headers });
    expect(plain.statusCode, plain.body).toBe(200);
    const gz = await t.app.inject({ method: 'GET', url, headers: { ...headers, 'accept-encoding': 'gzip' } });
    expect(gz.statusCode).toBe(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(gz.headers['content-disposition']).toMatch(/^attachment; filename="transactions-/);
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
    expect(plain.body.trim().split('\r\n')).toHaveLength(61);
  });
});
