import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { paths } from '@tay/contract';
import { ops, uniqueEmail } from './support/app';
import { approvedBusinessAccount, signInThroughForm } from './support/approved-business';
import { useBrowser } from './support/browser';

/**
 * Every business page on a 390 px phone, in each template (issue 35, point 10): nothing is wider
 * than the screen (`scrollWidth > innerWidth` would mean the page scrolls sideways), with a long
 * e-mail address in the header and the profile. One browser for the file, one page per template.
 */

const browser = useBrowser();
const PASSWORD = 'Tidal-Meadow-Lantern-5';
const PHONE = { width: 390, height: 844 };

/** Every `/business…` page the router has: the path table, flattened. */
function businessPages(): string[] {
  const all: string[] = [];
  const walk = (value: unknown) => {
    if (typeof value === 'string') {
      if (value.startsWith('/business')) all.push(value);
    } else if (value && typeof value === 'object') for (const v of Object.values(value)) walk(v);
  };
  walk(paths);
  // The shell's root only redirects to the home page, which is in the list itself.
  return [...new Set(all)].filter((p) => p !== paths.business.root).sort();
}

async function overflowing(page: Page, path: string): Promise<string | null> {
  await page.goto(path);
  // The page's own heading (or its not-found page) says it has drawn.
  const drawn = await page
    .locator('h1')
    .first()
    .waitFor({ timeout: 15_000 })
    .then(() => true)
    .catch(() => false);
  if (!drawn) return `${path}: no heading after 15 s (at ${new URL(page.url()).pathname})`;
  // Tables and charts fill in after their data: a moment, then the measure (the live-update
  // stream keeps the network busy, so there is no idle to wait for).
  await page.waitForTimeout(400);
  const { scroll, inner } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
  return scroll > inner ? `${path}: ${scroll}px wide on a ${inner}px screen` : null;
}

describe('no business page is wider than a phone (390 px)', () => {
  for (const entityType of ['standard', 'student', 'healthCare'] as const) {
    it(`the ${entityType} template`, async () => {
      // A long address: the header's menu and the profile show it.
      const email = uniqueEmail(`a-rather-long-mailbox-name-for-${entityType.toLowerCase()}-phones`);
      const owner = await approvedBusinessAccount(email, PASSWORD, { businessName: 'Harbor Music and Performing Arts Academy', entityType });
      await ops('enable-payouts', owner.businessId);
      const page = await browser.newPage();
      await page.setViewportSize(PHONE);
      await signInThroughForm(page, owner.email, PASSWORD);
      await page.waitForURL(/\/business\//);
      const problems: string[] = [];
      for (const path of businessPages()) {
        const problem = await overflowing(page, path);
        if (problem) problems.push(problem);
      }
      await page.close();
      expect(problems).toEqual([]);
    }, 600_000);
  }
});
