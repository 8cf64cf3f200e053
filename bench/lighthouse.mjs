// Lighthouse (the `lighthouse` package, with Debian's Chromium) on the payer's pay page and the
// sign-in page of the built server: BENCH_LIGHTHOUSE_RUNS (3) runs of each, in turns, and the median
// of each score and metric. Lighthouse's default settings: a mid-range phone, with its simulated
// slow 4G and CPU. Usage: npm run bench -- lighthouse.
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { payerPages } from './lib/payer-pages.mjs';
import { median } from './lib/ratio.mjs';
import { startTay } from './lib/server.mjs';
import { approvedTenant } from './lib/tenant.mjs';

const RUNS = Math.max(1, Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3));
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const METRICS = {
  'first-contentful-paint': 'FCP ms',
  'largest-contentful-paint': 'LCP ms',
  'total-blocking-time': 'TBT ms',
  'cumulative-layout-shift': 'CLS',
  'speed-index': 'Speed Index ms',
};

export async function run() {
  const tay = await startTay();
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
  });
  try {
    const { token, businessId } = await approvedTenant(tay, 'bench-lighthouse@example.com');
    const { payPath } = await payerPages(tay, { token, businessId }, 'payer@lighthouse.example');
    const pages = [
      { name: 'pay page', url: `${tay.baseUrl}${payPath}` },
      { name: 'login', url: `${tay.baseUrl}/login` },
    ];
    const results = new Map(pages.map((p) => [p.name, []]));
    let version = '';
    for (let round = 1; round <= RUNS; round++) {
      for (const page of pages) {
        const { lhr } = await lighthouse(page.url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES });
        if (lhr.runtimeError) throw new Error(`Lighthouse on ${page.name}: ${lhr.runtimeError.message}`);
        version = lhr.lighthouseVersion;
        const row = { page: page.name, run: round };
        for (const category of CATEGORIES) row[category] = Math.round((lhr.categories[category]?.score ?? 0) * 100);
        for (const [audit, label] of Object.entries(METRICS)) {
          const value = lhr.audits[audit]?.numericValue;
          row[label] = value === undefined ? null : audit === 'cumulative-layout-shift' ? Number(value.toFixed(3)) : Math.round(value);
        }
        results.get(page.name).push(row);
        console.log(`  ${page.name}, run ${round}: performance ${row.performance}, accessibility ${row.accessibility}`);
      }
    }
    const rows = [...results.values()].flat();
    console.log(`\nLighthouse ${version} runs (mobile, simulated throttling; Chromium at ${process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'})`);
    console.table(rows);
    const medians = [...results.entries()].map(([name, runs]) => {
      const out = { page: name, runs: runs.length };
      for (const key of [...CATEGORIES, ...Object.values(METRICS)]) out[key] = median(runs.map((r) => r[key]));
      return out;
    });
    console.log(`\nMedian of ${RUNS} runs`);
    console.table(medians);
    return medians;
  } finally {
    await chrome.kill();
    await tay.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
