// What the login page and the transaction history page download: the JavaScript and CSS that a
// real Chromium fetches from the built server, each file's size as built, gzipped (level 9, as the
// build's .gz files) and as it came over the wire. The login page's goal is ≤ 150 kB of gzipped JS.
// Usage: npm run bench -- bundle (builds first when the build is missing or stale).
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { startTay } from './lib/server.mjs';
import { approvedTenant } from './lib/tenant.mjs';

const LOGIN_GOAL_KB = 150;

const pages = [
  { name: 'login', path: '/login', signedIn: false, ready: (page) => page.getByRole('heading', { name: 'Sign in to Tay' }).waitFor() },
  {
    name: 'history',
    path: '/business/payment/transactions/history',
    signedIn: true,
    ready: (page) => page.getByRole('heading', { name: 'Transaction history', level: 1 }).waitFor(),
  },
];

/** Kilobytes of 1,000 bytes, as Vite prints them. */
const kb = (bytes) => Math.round(bytes / 100) / 10;

/** Every script and stylesheet one page load fetched: url, kind, bytes as built, gzipped and on the wire. */
async function loadPage(browser, baseUrl, { path, signedIn, ready }, token) {
  // A fresh context each time: an empty cache, as on a first visit.
  const context = await browser.newContext({ baseURL: baseUrl });
  if (signedIn) await context.addInitScript((t) => globalThis.localStorage.setItem('tay.identityToken', t), token);
  const page = await context.newPage();
  const files = [];
  page.on('requestfinished', async (request) => {
    const kind = { script: 'JS', stylesheet: 'CSS' }[request.resourceType()];
    if (!kind) return;
    files.push(
      (async () => {
        const response = await request.response();
        const body = await response.body();
        const sizes = await request.sizes();
        return {
          url: request.url(),
          kind,
          raw: body.length,
          gzip: gzipSync(body, { level: 9 }).length,
          wire: sizes.responseBodySize,
          encoding: response.headers()['content-encoding'] ?? 'identity',
        };
      })(),
    );
  });
  await page.goto(path, { waitUntil: 'networkidle' });
  await ready(page);
  await page.waitForLoadState('networkidle');
  const loaded = await Promise.all(files);
  await context.close();
  return loaded;
}

export async function run() {
  const tay = await startTay();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
  });
  try {
    const { token } = await approvedTenant(tay, 'bench-bundle@example.com');
    const rows = [];
    const detail = [];
    for (const target of pages) {
      const files = await loadPage(browser, tay.baseUrl, target, token);
      for (const kind of ['JS', 'CSS']) {
        const mine = files.filter((f) => f.kind === kind);
        const sum = (key) => mine.reduce((total, f) => total + f[key], 0);
        rows.push({
          page: target.name,
          kind,
          files: mine.length,
          'built kB': kb(sum('raw')),
          'gzip kB': kb(sum('gzip')),
          'wire kB': kb(sum('wire')),
          encodings: [...new Set(mine.map((f) => f.encoding))].join(','),
        });
      }
      for (const f of files)
        detail.push({
          page: target.name,
          file: new URL(f.url).pathname,
          'built kB': kb(f.raw),
          'gzip kB': kb(f.gzip),
          'wire kB': kb(f.wire),
          encoding: f.encoding,
        });
    }
    console.log('\nFiles each page loaded');
    console.table(detail);
    console.log('\nJavaScript and CSS a first visit downloads (Chromium, empty cache)');
    console.table(rows);
    const loginJs = rows.find((r) => r.page === 'login' && r.kind === 'JS');
    console.log(
      `Login page: ${loginJs['gzip kB']} kB of gzipped JS (goal ≤ ${LOGIN_GOAL_KB} kB). "wire kB" is what came over the connection (brotli or gzip when the server compresses).`,
    );
    return rows;
  } finally {
    await browser.close();
    await tay.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
