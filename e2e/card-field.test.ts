import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { baseUrl, useBrowser } from './support/browser';

const browser = useBrowser();

interface Message {
  data: { type: string; token?: string; label?: string; message?: string; complete?: boolean };
  origin: string;
}
type HostWindow = Window & { messages: Message[] };

/** A page on our origin that frames the card field as the pay page does, recording its messages. */
async function hostPage(page: Page): Promise<void> {
  await page.goto('/');
  const content = await page.locator('meta[name="tay-config"]').getAttribute('content');
  const config = JSON.parse(content!) as { processorPublishableKey: string; processorElementsUrl: string };
  expect(config.processorPublishableKey).toMatch(/^pk_test_/);
  // A page of the app, whose policy frames our own origin as the pay page does; an API answer's
  // policy frames nothing (the API's own security headers).
  await page.goto('/pay/no-such-link');
  await page.evaluate(
    (src) => {
      const host = window as unknown as HostWindow;
      host.messages = [];
      window.addEventListener('message', (event) => host.messages.push({ data: event.data, origin: event.origin }));
      const frame = document.createElement('iframe');
      frame.title = 'Card details';
      frame.src = src;
      document.body.appendChild(frame);
    },
    `${config.processorElementsUrl}?pk=${encodeURIComponent(config.processorPublishableKey)}`,
  );
  await waitForMessage(page, 'tay:ready');
}

async function waitForMessage(page: Page, type: string, count = 1): Promise<Message> {
  await page.waitForFunction(([t, n]) => (window as unknown as HostWindow).messages.filter((m) => m.data.type === t).length >= (n as number), [
    type,
    count,
  ] as const);
  const messages = await page.evaluate(() => (window as unknown as HostWindow).messages);
  return messages.filter((m) => m.data.type === type).at(-1)!;
}

function tokenize(page: Page) {
  return page.evaluate(() => document.querySelector('iframe')!.contentWindow!.postMessage({ type: 'tay:tokenize' }, window.location.origin));
}

describe('the sandbox processor’s hosted card field', () => {
  it('takes the card in the frame and gives the page only a token', async () => {
    const page = await browser.newPage();
    await hostPage(page);
    const field = page.frameLocator('iframe[title="Card details"]');
    await field.getByLabel('Card number').fill('4242424242424242');
    await field.getByLabel('Expiry (MM/YY)').fill('1234');
    expect(await field.getByLabel('Expiry (MM/YY)').inputValue()).toBe('12/34');
    expect(await field.getByLabel('Card number').inputValue()).toBe('4242 4242 4242 4242');
    await field.getByLabel('CVC').fill('123');
    expect((await waitForMessage(page, 'tay:change', 1)).data).toMatchObject({ type: 'tay:change' });
    await page.waitForFunction(() => (window as unknown as HostWindow).messages.some((m) => m.data.type === 'tay:change' && m.data.complete === true));

    await tokenize(page);
    const token = await waitForMessage(page, 'tay:token');
    expect(token.origin).toBe(baseUrl());
    expect(token.data).toEqual({ type: 'tay:token', token: expect.stringMatching(/^tok_[0-9a-z]{26}$/), label: 'Visa •••• 4242' });
    const all = JSON.stringify(await page.evaluate(() => (window as unknown as HostWindow).messages));
    expect(all.replace(/\s/g, '')).not.toContain('4242424242424242');
  });

  it('answers with an error the payer can act on, from its own checks and from the processor', async () => {
    const page = await browser.newPage();
    await hostPage(page);
    const field = page.frameLocator('iframe[title="Card details"]');
    await field.getByLabel('Card number').fill('4242424242424241');
    await field.getByLabel('Expiry (MM/YY)').fill('12/34');
    await field.getByLabel('CVC').fill('123');
    await tokenize(page);
    expect((await waitForMessage(page, 'tay:error')).data.message).toBe('Enter a valid card number.');
    expect(await field.getByRole('alert').textContent()).toBe('Enter a valid card number.');
    expect(await field.getByLabel('Card number').getAttribute('aria-invalid')).toBe('true');

    // An expiry in the past passes the field's format check; the processor refuses it.
    await field.getByLabel('Card number').fill('4242424242424242');
    await field.getByLabel('Expiry (MM/YY)').fill('01/20');
    await tokenize(page);
    expect((await waitForMessage(page, 'tay:error', 2)).data.message).toBe('Your card has expired.');
  });
});
