// What a first visit downloads, page by page, and the budgets it must keep (ADR 028, ADR 040):
// the JavaScript and CSS a real Chromium fetches from the built server for the sign-in page, the
// portal's home, the payer's pay page (until its card field appears, and in all), the QR code's pay
// page and a receipt — each file's size as built, gzipped (level 9, as the build's .gz files) and
// as it came over the wire. Fails (exit code 1) when a page is over a budget it is held to. The
// home's pages preloaded once it is still (lib/page-preload.ts) are a row of their own.
// Usage: npm run bench -- bundle (builds first when the build is missing or stale). `npm test`
// runs it after the build (`npm run test:budgets`): one server, one browser, no other service.
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { payerPages } from './lib/payer-pages.mjs';
import { missingPayerStyles } from './lib/payer-styles.mjs';
import { startTay } from './lib/server.mjs';
import { approvedTenant } from './lib/tenant.mjs';

/**
 * The budgets: gzipped JS in kB (1,000 bytes), or script requests. A budget `held: false` is
 * measured and printed, not enforced yet, with the reason: the work that brings it under is not
 * the bundling's.
 */
export const BUDGETS = [
  { page: 'login', figure: 'gzip kB', limit: 150, held: true },
  { page: 'business home', figure: 'JS requests', limit: 15, held: true },
  // No zod nor any schema before a form needs one (ADR 050; bench/RESULTS.md, 2026-12-06: 246.6 kB).
  { page: 'business home', figure: 'gzip kB', limit: 250, held: true },
  {
    page: 'pay page, before the card field',
    figure: 'gzip kB',
    limit: 60,
    held: false,
    why: 'React DOM alone is 57 kB gzipped; the payer entry (ADR 047, 049) is React, its router, React Query and Mantine',
  },
  // What the payer's entry weighs today (bench/RESULTS.md, 2026-12-04: 175.9 kB, no zod), held so it does not grow back.
  { page: 'pay page, before the card field', figure: 'gzip kB', limit: 180, held: true },
];

/** Kilobytes of 1,000 bytes, as Vite prints them. */
const kb = (bytes) => Math.round(bytes / 100) / 10;

/**
 * Loads `path` in a fresh context (an empty cache, as on a first visit) and records every script
 * and stylesheet of the page's own frame (a card field's frame is the processor's, not ours).
 * `until(page)` says when the page is there (its heading; never `networkidle`, which a page with a
 * live-updates stream never reaches); `mark(page)`, if given, a moment to count up to as well
 * (the card field appearing). Returns the files, those requested before the mark, and the page.
 */
async function loadPage(browser, baseUrl, { path, token, until, mark }) {
  const context = await browser.newContext({ baseURL: baseUrl });
  if (token) await context.addInitScript((t) => globalThis.localStorage.setItem('tay.identityToken', t), token);
  const page = await context.newPage();
  const files = [];
  let marked = null;
  page.on('request', (request) => {
    const kind = { script: 'JS', stylesheet: 'CSS' }[request.resourceType()];
    if (!kind || request.frame() !== page.mainFrame()) return;
    const beforeMark = marked === null;
    files.push(
      (async () => {
        const response = await request.response();
        if (!response) return null;
        const body = await response.body();
        const sizes = await request.sizes();
        return {
          url: request.url(),
          kind,
          raw: body.length,
          gzip: gzipSync(body, { level: 9 }).length,
          wire: sizes.responseBodySize,
          encoding: response.headers()['content-encoding'] ?? 'identity',
          beforeMark,
        };
      })(),
    );
  });
  await page.goto(path);
  if (mark) {
    await mark(page);
    marked = Date.now();
  }
  await until(page);
  // Whatever the page asked for as it drew its first screen has been asked for by now.
  await page.waitForTimeout(300);
  const counted = files.length;
  const loaded = (await Promise.all(files.slice(0, counted))).filter(Boolean);
  // What the page asks for once it is still (the menu's likely next pages, lib/page-preload.ts):
  // counted on its own, never in the first visit's figures or budgets.
  const later = async (ms) => {
    await page.waitForTimeout(ms);
    return (await Promise.all(files.slice(counted))).filter(Boolean);
  };
  return { files: loaded, page, context, later };
}

function summarise(name, files) {
  const rows = [];
  for (const kind of ['JS', 'CSS']) {
    const mine = files.filter((f) => f.kind === kind);
    const sum = (key) => mine.reduce((total, f) => total + f[key], 0);
    rows.push({
      page: name,
      kind,
      files: mine.length,
      'built kB': kb(sum('raw')),
      'gzip kB': kb(sum('gzip')),
      'wire kB': kb(sum('wire')),
      encodings: [...new Set(mine.map((f) => f.encoding))].join(','),
    });
  }
  return rows;
}

export async function run() {
  const tay = await startTay();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const { token, businessId } = await approvedTenant(tay, 'bench-bundle@example.com');
    const { payPath, qrPath } = await payerPages(tay, { token, businessId });

    const heading = (name) => (page) =>
      page
        .getByRole('heading', { level: 1, ...(name ? { name } : {}) })
        .first()
        .waitFor();
    const cardField = (page) => page.locator('iframe[title^="Card details"]').waitFor({ state: 'attached' });
    const results = [];
    const measure = async (name, target) => {
      const loaded = await loadPage(browser, tay.baseUrl, target);
      results.push({ name, files: loaded.files });
      return loaded;
    };

    await (await measure('login', { path: '/login', until: heading('Sign in to Tay') })).context.close();
    const home = await measure('business home', { path: '/business/home', token, until: heading(/^Welcome/) });
    results.push({ name: 'business home, preloaded once still', files: await home.later(4_000) });
    await home.context.close();
    const pay = await measure('pay page', { path: payPath, until: (page) => page.getByRole('button', { name: /^Pay \$/ }).waitFor(), mark: cardField });
    results.push({ name: 'pay page, before the card field', files: pay.files.filter((f) => f.beforeMark) });
    // Paid with the sandbox card, for a receipt to open.
    const card = pay.page.frameLocator('iframe[title^="Card details"]');
    await card.getByLabel('Card number').fill('4242 4242 4242 4242');
    await card.getByLabel('Expiry (MM/YY)').fill('12/34');
    await card.getByLabel('CVC').fill('123');
    await pay.page.getByRole('button', { name: /^Pay \$/ }).click();
    const receiptLink = pay.page.getByRole('link', { name: 'View your receipt' });
    await receiptLink.waitFor({ timeout: 30_000 });
    const receiptPath = await receiptLink.getAttribute('href');
    await pay.context.close();
    await (await measure('QR pay page', { path: qrPath, until: heading('Parking, one day') })).context.close();
    await (await measure('receipt', { path: receiptPath, until: heading('Receipt') })).context.close();

    const detail = results
      .filter((r) => r.name !== 'pay page, before the card field')
      .flatMap((r) =>
        r.files.map((f) => ({
          page: r.name,
          file: new URL(f.url).pathname,
          'built kB': kb(f.raw),
          'gzip kB': kb(f.gzip),
          'wire kB': kb(f.wire),
          encoding: f.encoding,
        })),
      );
    console.log('\nFiles each page loaded');
    console.table(detail);
    const rows = results.flatMap((r) => summarise(r.name, r.files));
    console.log('\nJavaScript and CSS a first visit downloads (Chromium, empty cache)');
    console.table(rows);

    const verdicts = BUDGETS.map((budget) => {
      const js = rows.find((r) => r.page === budget.page && r.kind === 'JS');
      const value = budget.figure === 'JS requests' ? js.files : js['gzip kB'];
      return { page: budget.page, figure: budget.figure, value, limit: budget.limit, within: value <= budget.limit, held: budget.held, why: budget.why ?? '' };
    });
    console.log('\nBudgets of the JavaScript a first visit downloads (a held budget fails the run)');
    console.table(verdicts);
    console.log('"wire kB" is what came over the connection (brotli or gzip when the server compresses).');
    const unstyled = missingPayerStyles();
    if (unstyled.length > 0)
      throw new Error(`The payer's pages draw ${unstyled.join(', ')} without their styles: import them in apps/web/src/app/payer-styles.css`);
    console.log("Every Mantine component the payer's entry can draw has its styles in apps/web/src/app/payer-styles.css.");
    const failed = verdicts.filter((v) => v.held && !v.within);
    if (failed.length > 0) throw new Error(`Over budget: ${failed.map((v) => `${v.page}, ${v.value} ${v.figure} (budget ${v.limit})`).join('; ')}`);
    return rows;
  } finally {
    await browser.close();
    await tay.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
