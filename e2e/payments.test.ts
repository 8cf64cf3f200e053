import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations } from './support/a11y';
import { baseUrl, outbox, uniqueEmail } from './support/app';
import { approvedBusinessAccount, signInThroughForm, type ApprovedAccount } from './support/approved-business';
import { useBrowser } from './support/browser';
import { payByCard } from './support/pay';

const browser = useBrowser();
const PASSWORD = 'Silver-Lake-Sunrise-4';

async function api(owner: ApprovedAccount, method: string, path: string, body?: unknown) {
  const res = await fetch(`${baseUrl()}/api${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${owner.token}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { data: Record<string, unknown> };
}

async function payer(owner: ApprovedAccount, firstName: string): Promise<{ payerId: string; email: string }> {
  const email = uniqueEmail(firstName.toLowerCase());
  const created = await api(owner, 'POST', `/businesses/${owner.businessId}/payers`, { firstName, lastName: 'Payer', email });
  return { payerId: created.data.payerId as string, email };
}

function inDays(n: number): string {
  return new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
}

async function sendRequest(owner: ApprovedAccount, payerId: string, amountCents: number, allowPartial = false) {
  const created = await api(owner, 'POST', `/businesses/${owner.businessId}/payment-requests`, {
    payerId,
    amountCents,
    memo: 'Piano lessons, March',
    dueDate: inDays(7),
    allowPartial,
    mode: 'send',
  });
  return created.data as { transactionId: string; referenceNumber: string };
}

/** The pay link in the newest e-mail to the payer. */
async function payLink(email: string): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const link = (await outbox(email))[0]?.text.match(/(\/pay\/[\w-]+)/)?.[1];
    if (link) return link;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no pay link e-mailed to ${email}`);
}

/** A payer's own browser: a context with nothing of the business in it. */
async function payerPage(link: string): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(link);
  return page;
}

/** 'MMM dd, yyyy' of a 'YYYY-MM-DD' date, worked out here independently of the app's formatter. */
function shortDate(iso: string): string {
  return new Date(`${iso}T12:00:00`).toLocaleDateString('en-US', { month: 'short', day: '2-digit', year: 'numeric' });
}

/** A real processor token, made the way the pay page's card field makes one (publishable key). */
async function cardToken(number: string): Promise<string> {
  const config = (await (await fetch(`${baseUrl()}/api/public-config`)).json()) as { processorPublishableKey: string };
  const res = await fetch(`${baseUrl()}/sandbox-processor/v1/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${config.processorPublishableKey}` },
    body: JSON.stringify({ card: { number, expMonth: 12, expYear: new Date().getUTCFullYear() + 3, cvc: '123' } }),
  });
  if (!res.ok) throw new Error(`tokenizing failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

/** A 1×1 PNG, uploaded as the business's logo. */
const LOGO_PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

async function waitForState(owner: ApprovedAccount, transactionId: string, state: string) {
  for (let i = 0; i < 80; i++) {
    const detail = await api(owner, 'GET', `/businesses/${owner.businessId}/payment-requests/${transactionId}`);
    if (detail.data.transactionState === state) return detail.data;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${transactionId} never became ${state}`);
}

describe('payments in, end to end', () => {
  it('an approved business adds a payer and sends a request; the payer pays by card; the business sees Paid and the balance', async () => {
    const owner = await approvedBusinessAccount(uniqueEmail('pay-owner'), PASSWORD, { businessName: 'Harbor Music' });
    const payerEmail = uniqueEmail('nora');
    const page = await browser.newPage();
    await signInThroughForm(page, owner.email, PASSWORD);
    await page.waitForURL(/\/business\/setup$/);

    // The business adds a payer…
    await page.getByRole('navigation', { name: 'Business navigation' }).getByRole('link', { name: 'Manage Payers' }).click();
    await page.waitForURL('**/business/payment/payers');
    await page.getByRole('button', { name: 'Add a payer' }).first().click();
    await page.waitForURL('**/business/payment/payers/add');
    await page.getByLabel('First name').fill('Nora');
    await page.getByLabel('Last name').fill('Quinn');
    await page.getByLabel('E-mail').fill(payerEmail);
    await page.getByRole('button', { name: 'Add payer' }).click();
    await page.waitForURL('**/business/payment/payers');

    // …and sends a request from the navigation.
    await page.getByRole('navigation', { name: 'Business navigation' }).getByRole('link', { name: 'Single Request to Pay' }).click();
    await page.waitForURL('**/business/payment/request');
    await page.getByText('Manage Transactions and Request to pay').waitFor();
    await page.getByRole('button', { name: 'Send now' }).click();
    await page.getByText('Choose a payer.').waitFor();
    await expectNoSeriousA11yViolations(page);
    await page.getByPlaceholder('Search payers').fill('Nor');
    await page.getByRole('option', { name: /Nora Quinn/ }).click();
    await page.getByLabel('Amount (USD)').fill('125.50');
    await page.getByLabel('Memo').fill('Piano lessons, March');
    await page.getByRole('button', { name: 'Send now' }).click();
    await page.getByText('Request sent').waitFor();
    await page.waitForURL(/\/business\/payment\/transactions\/history\?transid=req_/);
    const transactionId = new URL(page.url()).searchParams.get('transid')!;
    const drawer = page.getByRole('dialog');
    await drawer.getByText('$125.50').first().waitFor();
    await drawer.getByText('Sent to the payer').waitFor();

    // The payer, in a browser of their own, opens the link from the e-mail and pays.
    const payerTab = await payerPage(await payLink(payerEmail));
    await payerTab.getByText('Harbor Music').first().waitFor();
    await payerTab.getByRole('heading', { name: '$125.50' }).waitFor();
    await payerTab.getByText('Piano lessons, March').waitFor();
    await expectNoSeriousA11yViolations(payerTab);
    await payByCard(payerTab, '4242 4242 4242 4242');
    await payerTab.getByText('Payment received').waitFor();
    // The headline reads what was paid, not the $0.00 left to pay.
    await payerTab.getByRole('heading', { level: 1, name: '$125.50 paid' }).waitFor();
    expect(await payerTab.getByRole('heading', { level: 1, name: '$0.00' }).count()).toBe(0);
    // The business hears of it (its owner has notifications by e-mail on, the default).
    const told = (await outbox(owner.email)).filter((m) => m.subject.startsWith('Payment received: $125.50 from Nora Quinn'));
    expect(told).toHaveLength(1);
    await payerTab.getByRole('link', { name: 'View your receipt' }).click();
    await payerTab.getByRole('heading', { name: 'Receipt' }).waitFor();
    await payerTab.getByText('Visa •••• 4242').waitFor();
    await expectNoSeriousA11yViolations(payerTab);
    const receipts = await outbox(payerEmail);
    expect(receipts.some((m) => /receipt/i.test(m.subject))).toBe(true);

    // The business sees it Paid, and the money in its balance.
    await waitForState(owner, transactionId, 'Paid');
    await page.goto('/business/payment/transactions/history');
    const row = page.getByRole('row').filter({ hasText: 'Nora Quinn' });
    await row.locator('[data-state="Paid"]').waitFor();
    await expectNoSeriousA11yViolations(page);
    await page.goto('/business/payment');
    await page.getByRole('heading', { name: 'Manage Transactions and Request to pay' }).waitFor();
    const balance = await api(owner, 'GET', `/businesses/${owner.businessId}/balances`);
    expect(balance.data.availableCents).toBeGreaterThan(0);
    expect(balance.data.availableCents).toBeLessThan(12_550);
    const shown = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format((balance.data.availableCents as number) / 100);
    await page.getByText(shown).first().waitFor();
    await expectNoSeriousA11yViolations(page);

    // The home page shows the ledger's balances: $125.50 less the card fee (2.9% + 30¢ = $3.94), settled.
    await page.goto('/business/home');
    const balances = page.getByRole('region', { name: 'Balances' });
    await balances.getByRole('group', { name: 'Available' }).getByText('$121.56', { exact: true }).waitFor();
    await balances.getByRole('group', { name: 'Pending' }).getByText('$0.00', { exact: true }).waitFor();
    await balances.getByText('$125.50 collected, $3.94 in fees.').waitFor();
  });

  it('a request sent by text message: the payer opens the link from the text and pays', async () => {
    const owner = await approvedBusinessAccount(uniqueEmail('sms-owner'), PASSWORD, { businessName: 'Harbor Music' });
    const mobile = `+1555${String(Date.now()).slice(-7)}`;
    const email = uniqueEmail('tess');
    await api(owner, 'POST', `/businesses/${owner.businessId}/payers`, { firstName: 'Tess', lastName: 'Text', email, mobileNumber: mobile });
    await api(owner, 'POST', `/businesses/${owner.businessId}/payers`, { firstName: 'Noel', lastName: 'Nomobile', email: uniqueEmail('noel') });
    const page = await browser.newPage();
    await signInThroughForm(page, owner.email, PASSWORD);
    await page.waitForURL(/\/business\/setup$/);
    await page.goto('/business/payment/request');

    // A payer without a mobile number cannot be texted; one with a number can.
    await page.getByPlaceholder('Search payers').fill('Noel');
    await page.getByRole('option', { name: /Noel Nomobile/ }).click();
    await expect.poll(() => page.getByRole('radio', { name: 'Text message (SMS)' }).isDisabled()).toBe(true);
    await page.goto('/business/payment/request');
    await page.getByPlaceholder('Search payers').fill('Tess');
    await page.getByRole('option', { name: /Tess Text/ }).click();
    await page.getByRole('radio', { name: 'Text message (SMS)' }).check();
    await page.getByLabel('Amount (USD)').fill('40.00');
    await page.getByRole('button', { name: 'Send now' }).click();
    await page.getByText('Request sent').waitFor();
    await page.waitForURL(/transid=req_/);
    const transactionId = new URL(page.url()).searchParams.get('transid')!;
    const drawer = page.getByRole('dialog');
    await drawer.getByRole('row', { name: 'Sent by Text message (SMS)' }).waitFor();
    await drawer
      .getByRole('table', { name: 'Messages' })
      .getByText(/^Text message to /)
      .waitFor();

    // The text (in the outbox: no SMS provider here) carries the link; no link went by e-mail (the
    // payer's only e-mail so far asks them to confirm their address).
    const text = (await outbox(mobile))[0]!;
    expect(text.channel).toBe('sms');
    expect((await outbox(email)).map((m) => m.subject)).toEqual(['Harbor Music asks you to confirm your e-mail address']);
    const payerTab = await payerPage(text.text.match(/(\/pay\/[\w-]+)/)![1]!);
    await payerTab.getByRole('heading', { name: '$40.00' }).waitFor();
    await payByCard(payerTab, '4242 4242 4242 4242');
    await payerTab.getByText('Payment received').waitFor();
    await waitForState(owner, transactionId, 'Paid');
    // The receipt goes by e-mail.
    expect((await outbox(email)).some((m) => /receipt/i.test(m.subject))).toBe(true);
  });

  it('the pay page is there before its script (ADR 047): with JavaScript off it shows the business, the amount, the due date and the state; with a slow script, never a spinner where the amount is', async () => {
    const owner = await approvedBusinessAccount(uniqueEmail('first-screen-owner'), PASSWORD, { businessName: 'Harbor Music' });
    const nora = await payer(owner, 'Nora');
    await sendRequest(owner, nora.payerId, 4_250);
    const link = await payLink(nora.email);

    // A phone whose browser runs no script: the server's HTML is all there is.
    const noScript = await browser.newPage({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    const res = await noScript.goto(link);
    expect(res?.status()).toBe(200);
    await noScript.getByText('Harbor Music').first().waitFor();
    await noScript.getByRole('heading', { level: 1, name: '$42.50' }).waitFor();
    await noScript.getByText('Piano lessons, March').waitFor();
    await noScript.getByText(`Due ${shortDate(inDays(7))}`).waitFor();
    await noScript.getByText('Pay $42.50').waitFor();
    await noScript.getByText(/If they do not, turn on JavaScript in your browser/).waitFor();
    expect(await noScript.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    // The app's scripts never arrive (a dropped connection): the screen stays, readable by everyone.
    const stuck = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await stuck.route('**/assets/*.js', (route) => route.abort());
    await stuck.goto(link);
    await stuck.getByRole('heading', { level: 1, name: '$42.50' }).waitFor();
    await expectNoSeriousA11yViolations(stuck);

    // A slow network: each of the app's scripts takes 1.5 s. The amount is on screen at once, no spinner
    // takes its place, and once the scripts arrive the payer pays as ever.
    const slow = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await slow.route('**/assets/*.js', async (route) => {
      await new Promise((r) => setTimeout(r, 1_500));
      await route.continue();
    });
    await slow.goto(link, { waitUntil: 'commit' });
    await slow.getByRole('heading', { level: 1, name: '$42.50' }).waitFor({ timeout: 2_000 });
    const watched = Date.now();
    while (Date.now() - watched < 3_000) {
      expect(
        await slow
          .getByText(/^Loading/)
          .first()
          .isVisible(),
      ).toBe(false);
      expect(await slow.getByRole('heading', { level: 1, name: '$42.50' }).count()).toBe(1);
      await slow.waitForTimeout(100);
    }
    await payByCard(slow, '4242 4242 4242 4242');
    await slow.getByText('Payment received').waitFor();
    await slow.getByRole('heading', { level: 1, name: '$42.50 paid' }).waitFor();
  });

  it('a declined card says so and takes no money; the payer retries with another card', async () => {
    const owner = await approvedBusinessAccount(uniqueEmail('decline-owner'), PASSWORD, { businessName: 'Harbor Music' });
    const p = await payer(owner, 'Dana');
    const { transactionId } = await sendRequest(owner, p.payerId, 4_000);
    const tab = await payerPage(await payLink(p.email));
    // Every payment the page sends, and a connection that drops the answer to the second one.
    const sent: { key: string | undefined; body: string }[] = [];
    let readsFail = false;
    await tab.route('**/api/public/pay/*/payments', async (route) => {
      sent.push({ key: route.request().headers()['idempotency-key'], body: route.request().postData() ?? '' });
      if (sent.length !== 2) return route.continue();
      await route.fetch();
      readsFail = true;
      await route.abort('connectionreset');
    });
    // While the connection is down the page cannot re-read the request either.
    await tab.route('**/api/public/pay/*', (route) => (readsFail ? route.abort('connectionreset') : route.continue()));

    await payByCard(tab, '4000 0000 0000 0002');
    await tab.getByText('The payment did not go through').waitFor();
    await tab.getByText('Your card was declined.').waitFor();
    expect(await tab.getByRole('button', { name: 'Pay $40.00' }).isVisible()).toBe(true);
    const failed = await api(owner, 'GET', `/businesses/${owner.businessId}/payment-requests/${transactionId}`);
    expect(failed.data.amountPaidCents).toBe(0);

    // The server takes the payment but the answer is lost: the page cannot say whether it went through.
    await payByCard(tab, '4242 4242 4242 4242');
    await tab.getByText('We could not confirm your payment').waitFor();
    await tab.getByText(/Your payment of \$40\.00 with Visa •••• 4242 may have gone through/).waitFor();
    // Trying again sends the very same payment, and the server answers with the one it made.
    await tab.getByRole('button', { name: 'Try again: pay $40.00' }).click();
    await tab.getByText('Payment received').waitFor();
    readsFail = false;

    expect(sent).toHaveLength(3);
    expect(sent[1]!.key).toBeDefined();
    expect(sent[1]!.key).not.toBe(sent[0]!.key);
    expect(JSON.parse(sent[1]!.body).processorToken).not.toBe(JSON.parse(sent[0]!.body).processorToken);
    expect(sent[2]).toEqual(sent[1]);
    const paid = await waitForState(owner, transactionId, 'Paid');
    expect((paid.payments as { state: string }[]).map((x) => x.state)).toEqual(['Rejected', 'Processed']);
    expect(paid.amountPaidCents).toBe(4_000);
  });

  it('a partial payment, then the rest', async () => {
    const owner = await approvedBusinessAccount(uniqueEmail('partial-owner'), PASSWORD, { businessName: 'Harbor Music' });
    const p = await payer(owner, 'Parker');
    const { transactionId } = await sendRequest(owner, p.payerId, 10_000, true);
    const link = await payLink(p.email);
    const tab = await payerPage(link);
    await tab.getByLabel('Amount to pay (USD)').fill('40');
    await payByCard(tab, '4242 4242 4242 4242');
    await tab.getByText('Payment received').waitFor();
    await tab.getByText('$60.00 remains to pay.').waitFor();
    await waitForState(owner, transactionId, 'PartiallyPaid');

    await tab.goto(link);
    await tab.getByText('$40.00 of $100.00 already paid').waitFor();
    await tab.getByRole('heading', { name: '$60.00' }).waitFor();
    // Part is paid: declining is no longer an answer (the API refuses it too).
    expect(await tab.getByRole('button', { name: 'Decline this request' }).count()).toBe(0);
    await payByCard(tab, '4242 4242 4242 4242');
    await tab.getByText('Nothing remains to pay.').waitFor();
    const done = await waitForState(owner, transactionId, 'Paid');
    expect(done.amountPaidCents).toBe(10_000);
  });

  it("the page shows the business's logo and the due date; one payer pays by bank account, another declines with a reason; the business sees Paid and Rejected", async () => {
    const owner = await approvedBusinessAccount(uniqueEmail('bank-owner'), PASSWORD, { businessName: 'Harbor Music' });
    await api(owner, 'POST', `/businesses/${owner.businessId}/logo`, { dataUrl: LOGO_PNG });
    const bankPayer = await payer(owner, 'Bea');
    const decliner = await payer(owner, 'Dex');
    const byBank = await sendRequest(owner, bankPayer.payerId, 25_000);
    const declined = await sendRequest(owner, decliner.payerId, 7_500);

    // The hosted page: the business's own logo (loaded, not the fallback), the amount and the due date.
    const tab = await payerPage(await payLink(bankPayer.email));
    await tab.getByRole('heading', { name: '$250.00' }).waitFor();
    const logo = tab.getByRole('img', { name: 'Harbor Music logo' });
    await logo.waitFor();
    expect(await logo.getAttribute('src')).toMatch(new RegExp(`^/api/businesses/${owner.businessId}/logo\\?v=\\d+$`));
    await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await tab.getByText(`Due ${shortDate(inDays(7))}`).waitFor();

    // Pay from a bank account (the README's sandbox account that settles): the numbers are checked first.
    await tab.locator('label', { hasText: 'Bank account' }).click();
    expect(await tab.getByLabel('Name on the account').inputValue()).toBe('Bea Payer');
    await tab.getByLabel('Routing number').fill('222096657');
    await tab.getByLabel('Account number', { exact: true }).fill('000123456789');
    await tab.getByLabel('Confirm account number').fill('000123456780');
    await tab.getByRole('button', { name: 'Pay $250.00' }).click();
    await tab.getByText('Enter the 9-digit routing number from your cheque.').waitFor();
    await tab.getByText('The account numbers do not match.').waitFor();
    await tab.getByLabel('Routing number').fill('222096656');
    await tab.getByLabel('Confirm account number').fill('000123456789');
    await tab.getByRole('button', { name: 'Pay $250.00' }).click();
    await tab.getByText('Bank payment submitted').waitFor();
    await tab.getByText(/Your bank transfer of \$250\.00 from Tay Sandbox Bank •••• 6789 is being processed/).waitFor();
    const paid = await waitForState(owner, byBank.transactionId, 'Paid');
    expect(paid.payments).toMatchObject([
      { method: 'bank_account', instrument: 'Tay Sandbox Bank •••• 6789', state: 'Processed', amountCents: 25_000, feeCents: 200 },
    ]);

    // The other payer declines: a reason is required.
    const other = await payerPage(await payLink(decliner.email));
    await other.getByRole('heading', { name: '$75.00' }).waitFor();
    await other.getByRole('button', { name: 'Decline this request' }).click();
    const dialog = other.getByRole('dialog', { name: 'Decline this request?' });
    await dialog.getByRole('button', { name: 'Decline request' }).click();
    await dialog.getByText('Tell the business why you decline.').waitFor();
    expect((await api(owner, 'GET', `/businesses/${owner.businessId}/payment-requests/${declined.transactionId}`)).data.transactionState).toBe('Sent');
    await dialog.getByLabel(/Tell the business why/).fill('We paid at the front desk');
    await dialog.getByRole('button', { name: 'Decline request' }).click();
    await other.getByText('You declined this request').first().waitFor();
    expect(await other.getByRole('button', { name: /^Pay/ }).count()).toBe(0);

    // The business sees both: Paid, and Rejected with the payer's reason in the timeline.
    const detail = await waitForState(owner, declined.transactionId, 'Rejected');
    expect((detail.timeline as { event: string; detail: string | null }[]).at(-1)).toMatchObject({
      event: 'payerDeclines',
      detail: 'We paid at the front desk',
    });
    const page = await browser.newPage();
    await signInThroughForm(page, owner.email, PASSWORD);
    await page.waitForURL(/\/business\/setup$/);
    await page.goto('/business/payment/transactions/history');
    await page.getByRole('row').filter({ hasText: 'Dex Payer' }).locator('[data-state="Rejected"]').waitFor();
    await page.getByRole('row').filter({ hasText: 'Bea Payer' }).locator('[data-state="Paid"]').waitFor();
  });

  it("a withdrawn request's page says so and offers no way to pay", async () => {
    const owner = await approvedBusinessAccount(uniqueEmail('withdraw-owner'), PASSWORD, { businessName: 'Harbor Music' });
    const p = await payer(owner, 'Wren');
    const { transactionId } = await sendRequest(owner, p.payerId, 2_500);
    const link = await payLink(p.email);

    const page = await browser.newPage();
    await signInThroughForm(page, owner.email, PASSWORD);
    await page.waitForURL(/\/business\/setup$/);
    await page.getByRole('navigation', { name: 'Business navigation' }).getByRole('link', { name: 'Transaction History' }).click();
    await page.waitForURL('**/business/payment/transactions/history');
    const row = page.getByRole('row').filter({ hasText: 'Wren Payer' });
    await row.getByRole('button', { name: 'Row actions' }).click();
    await page.getByRole('menuitem', { name: 'Withdraw' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Yes, withdraw' }).click();
    await page.getByText('Request withdrawn').waitFor();
    await row.locator('[data-state="Withdrawn"]').waitFor();

    const tab = await payerPage(link);
    await tab.getByText('This request was withdrawn').waitFor();
    expect(await tab.getByRole('button', { name: /^Pay/ }).count()).toBe(0);
    expect(await tab.getByRole('button', { name: 'Decline this request' }).count()).toBe(0);

    // Paying through the API anyway, with this link and a real card token, is refused for what it is.
    const refused = await fetch(`${baseUrl()}/api/public${link}/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'withdrawn-1' },
      body: JSON.stringify({ method: 'card', processorToken: await cardToken('4242424242424242'), amountCents: 2_500 }),
    });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { errorDetails: unknown }).errorDetails).toEqual({
      code: 'CONFLICT',
      message: 'Harbor Music withdrew this request; there is nothing to pay.',
    });
    const detail = await api(owner, 'GET', `/businesses/${owner.businessId}/payment-requests/${transactionId}`);
    expect(detail.data).toMatchObject({ transactionState: 'Withdrawn', amountPaidCents: 0, payments: [] });
    const balances = await api(owner, 'GET', `/businesses/${owner.businessId}/balances`);
    expect(balances.data).toEqual({ pendingCents: 0, availableCents: 0, collectedCents: 0, feesCents: 0, payoutsInFlightCents: 0 });
  });

  it('pages through the history: the next page is found from the last row shown, and back again', async () => {
    const owner = await approvedBusinessAccount(uniqueEmail('pages-owner'), PASSWORD, { businessName: 'Harbor Music' });
    const p = await payer(owner, 'Page');
    for (let i = 1; i <= 27; i++) await sendRequest(owner, p.payerId, 1_000 + i);
    const page = await browser.newPage();
    await signInThroughForm(page, owner.email, PASSWORD);
    await page.waitForURL(/\/business\/setup$/);
    await page.getByRole('navigation', { name: 'Business navigation' }).getByRole('link', { name: 'Transaction History' }).click();
    await page.getByText('Showing 1 to 25 of 27 Results').waitFor();
    // Newest first: the first page starts with the last request sent ($10.27).
    await page.getByRole('row').nth(1).getByText('$10.27').waitFor();
    await page.getByRole('button', { name: 'next page' }).click();
    await page.getByText('Showing 26 to 27 of 27 Results').waitFor();
    expect(new URL(page.url()).searchParams.get('after')).toMatch(/^req_/);
    await page.getByRole('row').nth(1).getByText('$10.02').waitFor();
    await page.getByRole('row').nth(2).getByText('$10.01').waitFor();
    await page.getByRole('button', { name: 'previous page' }).click();
    await page.getByText('Showing 1 to 25 of 27 Results').waitFor();
    await page.getByRole('row').nth(1).getByText('$10.27').waitFor();
    // A new sort starts again from page 1, by number.
    await page.getByRole('button', { name: /^Sort by Amount/ }).click();
    await page.getByText('Showing 1 to 25 of 27 Results').waitFor();
    expect(new URL(page.url()).searchParams.get('after')).toBeNull();
  });
});
