import type { Page } from 'playwright-core';

/** Pays on the hosted pay page with a sandbox card (the README's test cards), through the card field's frame. */
export async function payByCard(page: Page, number: string): Promise<void> {
  await page.getByRole('button', { name: /^Pay \$/ }).waitFor();
  const card = page.frameLocator('iframe[title^="Card details"]');
  await card.getByLabel('Card number').fill(number);
  await card.getByLabel('Expiry (MM/YY)').fill('12/34');
  await card.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay \$/ }).click();
}
