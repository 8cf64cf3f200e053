import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { baseUrl, outbox, uniqueEmail } from './support/app';
import { approvedBusinessAccount, signInThroughForm } from './support/approved-business';
import { useBrowser } from './support/browser';

const browser = useBrowser();
const PASSWORD = 'Weight-Password-Strong-1';

/** The sign-in page's budget: the JavaScript a first visit downloads, gzipped (ADR 040, superseding 038). */
const LOGIN_JS_BUDGET = 150_000;

/** A piece of libphonenumber's country metadata, in whichever file the build put it. */
const PHONE_METADATA = 'country_calling_codes';

interface Loaded {
  url: string;
  gzip: number;
  body: string;
}

/** Every script a page fetches from now on, with its size gzipped and its text. */
function scriptsOf(page: Page): () => Promise<Loaded[]> {
  const pending: Promise<Loaded>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    pending.push(response.body().then((body) => ({ url: new URL(response.url()).pathname, gzip: gzipSync(body, { level: 9 }).length, body: body.toString() })));
  });
  return () => Promise.all(pending);
}

describe('what a first visit downloads', () => {
  it('the sign-in page stays within its budget and loads none of the pages behind it', async () => {
    const page = await browser.newPage();
    const scripts = scriptsOf(page);
    await page.goto('/login', { waitUntil: 'networkidle' });
    await page.getByRole('heading', { name: 'Sign in to Tay' }).waitFor();
    const loaded = await scripts();

    const total = loaded.reduce((sum, s) => sum + s.gzip, 0);
    expect(total, loaded.map((s) => `${s.url} ${s.gzip}`).join('\n')).toBeLessThanOrEqual(LOGIN_JS_BUDGET);
    // The pages behind sign-in, the form library and the schemas come with the pages that use them.
    for (const script of loaded) {
      expect(script.body.includes('Transaction history'), `${script.url} has the history page`).toBe(false);
      expect(script.body.includes(PHONE_METADATA), `${script.url} has libphonenumber`).toBe(false);
    }
  });

  it('the transaction history does not load libphonenumber: the numbers it shows are in a request’s detail, loaded when opened', async () => {
    const owner = await approvedBusinessAccount(uniqueEmail('weight-owner'), PASSWORD, { businessName: 'Harbor Music' });
    const page = await browser.newPage();
    await signInThroughForm(page, owner.email, PASSWORD);
    await page.waitForURL('**/business/**');
    const scripts = scriptsOf(page);
    // Not `networkidle`: the portal keeps its live-updates stream open.
    await page.goto('/business/payment/transactions/history');
    await page.getByRole('heading', { name: 'Transaction history', level: 1 }).waitFor();
    // The list has drawn: its summary, or (a new business) its one empty state.
    await page
      .getByText(/^Showing \d+ to \d+ of \d+ Results$/)
      .or(page.getByText(/^No requests (yet|sent|created|match)/))
      .first()
      .waitFor();
    const loaded = await scripts();

    expect(loaded.length).toBeGreaterThan(0);
    for (const script of loaded) expect(script.body.includes(PHONE_METADATA), `${script.url} has libphonenumber`).toBe(false);
  });

  it("the pay page loads the payer's own entry (ADR 047): no sign-in page, no portal page, no session", async () => {
    const owner = await approvedBusinessAccount(uniqueEmail('weight-pay-owner'), PASSWORD, { businessName: 'Harbor Music' });
    const call = async (path: string, body: unknown) => {
      const res = await fetch(`${baseUrl()}/api/businesses/${owner.businessId}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${owner.token}` },
        body: JSON.stringify(body),
      });
      expect(res.ok, await res.clone().text()).toBe(true);
      return ((await res.json()) as { data: Record<string, string> }).data;
    };
    const email = uniqueEmail('nora-weight');
    const { payerId } = await call('/payers', { firstName: 'Nora', lastName: 'Weight', email });
    const dueDate = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    await call('/payment-requests', { payerId, amountCents: 1_000, memo: 'Weight', dueDate, mode: 'send' });
    let link: string | undefined;
    for (let i = 0; i < 50 && !link; i++) {
      link = (await outbox(email))[0]?.text.match(/(\/pay\/[\w-]+)/)?.[1];
      if (!link) await new Promise((r) => setTimeout(r, 200));
    }

    const page = await browser.newPage();
    const scripts = scriptsOf(page);
    await page.goto(link!);
    await page.getByRole('button', { name: /^Pay \$/ }).waitFor();
    const loaded = await scripts();
    for (const script of loaded) {
      expect(script.body.includes('Sign in to Tay'), `${script.url} has the sign-in page`).toBe(false);
      expect(script.body.includes('Business navigation'), `${script.url} has the portal's menu`).toBe(false);
    }
  });

  it('a menu link pointed at loads its page before the click; the page opens from it', async () => {
    const owner = await approvedBusinessAccount(uniqueEmail('weight-preload-owner'), PASSWORD, { businessName: 'Harbor Music' });
    const page = await browser.newPage();
    await signInThroughForm(page, owner.email, PASSWORD);
    await page.waitForURL('**/business/**');
    await page.goto('/business/home');
    await page.getByRole('heading', { level: 1, name: /^Welcome/ }).waitFor();
    const scripts = scriptsOf(page);
    const link = page.getByRole('navigation', { name: 'Business navigation' }).getByRole('link', { name: 'Manage Payers' });
    await link.hover();
    // The payers page's own chunk (named after its module), which nothing on the home page loads.
    await expect.poll(async () => (await scripts()).some((s) => /\/assets\/payers-page-[\w-]+\.js$/.test(s.url)), { timeout: 5_000 }).toBe(true);
    await link.click();
    await page.waitForURL('**/business/payment/payers');
    await page.getByRole('heading', { level: 1, name: 'Manage Payers' }).waitFor();
  });
});
