import { describe, expect, it } from 'vitest';
import { useBrowser } from './support/browser';

const browser = useBrowser();

describe('the app shell in a browser', () => {
  it('shows a real not-found page inside the public layout, with a 404 status', async () => {
    const page = await browser.newPage();
    const response = await page.goto('/no-such-page');
    expect(response?.status()).toBe(404);
    await page.getByRole('heading', { name: 'We can’t find that page' }).waitFor();
    expect(await page.getByText('/no-such-page').isVisible()).toBe(true);
    expect(await page.title()).toBe('Page not found · Tay');

    // The header: the anonymous links and the Login button.
    for (const label of ['Our Platform', 'How it works', 'Why Tay', 'Resources', 'About Us']) {
      expect(await page.getByRole('navigation', { name: 'Tay' }).getByRole('link', { name: label }).isVisible()).toBe(true);
    }
    expect(await page.getByRole('link', { name: 'Login' }).isVisible()).toBe(true);

    // The footer: three links, a copyright line, four social icons.
    const footer = page.getByRole('contentinfo');
    for (const label of ['Business FAQs', 'Customers FAQs', 'About Us']) {
      expect(await footer.getByRole('link', { name: label }).isVisible()).toBe(true);
    }
    expect(await footer.getByText(/© \d{4} Tay Payments, Inc\./).isVisible()).toBe(true);
    expect(await footer.getByRole('link', { name: /^Tay on / }).count()).toBe(4);
  });

  it('collapses the header links into a menu below the large breakpoint', async () => {
    const page = await browser.newPage();
    await page.setViewportSize({ width: 800, height: 900 });
    await page.goto('/no-such-page');
    await page.getByRole('heading', { name: 'We can’t find that page' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Tay' }).isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Open the menu' }).click();
    await page.getByRole('dialog', { name: 'Menu' }).getByRole('link', { name: 'Why Tay' }).waitFor();
  });

  it('serves the API reference next to the app', async () => {
    const page = await browser.newPage();
    await page.goto('/api/docs/');
    await page.getByText('Tay Business Portal API').first().waitFor();
  });
});
