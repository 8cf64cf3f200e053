import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults, Result } from 'axe-core';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** What fails a page: the two highest of axe's four impacts. */
const FAILING = new Set(['serious', 'critical']);

function describeViolation(violation: Result): string {
  const nodes = violation.nodes.slice(0, 5).map((node) => {
    const summary = (node.failureSummary ?? '').replace(/\s+/g, ' ').trim();
    return `    ${node.target.join(' ')}: ${summary.slice(0, 300)}`;
  });
  const more = violation.nodes.length > 5 ? [`    … and ${violation.nodes.length - 5} more`] : [];
  return [`  ${violation.impact} ${violation.id}: ${violation.help} (${violation.nodes.length})`, ...nodes, ...more].join('\n');
}

/**
 * Runs axe-core over the page as it is now (every frame included) and fails on any serious or
 * critical violation, listing each with the elements it found. Call it once the page shows what
 * it is checked for: a page still fading in would fail colour contrast.
 *
 * The source goes in through the DevTools protocol rather than a script tag, so the app's
 * Content-Security-Policy (script-src 'self') stays as it is in production.
 */
export async function expectNoSeriousA11yViolations(page: Page, where = new URL(page.url()).pathname): Promise<void> {
  // Transitions (drawers, modals, notifications fading in) finish before colours are read;
  // endless ones (a spinner) never do.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => {})),
    ),
  );
  for (const frame of page.frames()) {
    await frame.evaluate(`${axeSource}\n;axe.configure({ allowedOrigins: ['<unsafe_all_origins>'] });`);
  }
  const results = (await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<unknown> } }).axe;
    return axe.run(document, { resultTypes: ['violations'] });
  })) as AxeResults;
  const failing = results.violations.filter((v) => v.impact && FAILING.has(v.impact));
  if (failing.length > 0) {
    throw new Error(`Serious accessibility violations on ${where}:\n${failing.map(describeViolation).join('\n')}`);
  }
}
