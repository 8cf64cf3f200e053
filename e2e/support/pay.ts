import type { Page } from 'playwright-core';
import { outbox } from './app';

/** Pays on the hosted pay page with a sandbox card (the README's test cards), through the card field's frame. */
export async function payByCard(page: Page, number: string): Promise<void> {
  await page.getByRole('button', { name: /^Pay \$/ }).waitFor();
  const card = page.frameLocator('iframe[title^="Card details"]');
  await card.getByLabel('Card number').fill(number);
  await card.getByLabel('Expiry (MM/YY)').fill('12/34');
  await card.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay \$/ }).click();
}

/** Waits for the pay link e-mailed to `email`, pays it in a tab of its own with the sandbox card that succeeds, and closes the tab. */
export async function payEmailedLink(newPage: () => Promise<Page>, email: string, card = '4242 4242 4242 4242'): Promise<void> {
  let link: string | undefined;
  for (let i = 0; i < 50 && !link; i++) {
    link = (await outbox(email))[0]?.text.match(/(\/pay\/[\w-]+)/)?.[1];
    if (!link) await new Promise((r) => setTimeout(r, 200));
  }
  if (!link) throw new Error(`no pay link e-mailed to ${email}`);
  const tab = await newPage();
  await tab.goto(link);
  await payByCard(tab, card);
  await tab.getByText('Payment received').waitFor();
  await tab.close();
}
