import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations } from './support/a11y';
import { baseUrl, outbox, uniqueEmail } from './support/app';
import { approvedBusinessAccount, signInThroughForm } from './support/approved-business';
import { useBrowser } from './support/browser';

const browser = useBrowser();
const PASSWORD = 'Quiet-Harbor-Lights-3';

const toast = (page: Page, title: string) => page.getByText(title, { exact: true }).first().waitFor();
const row = (page: Page, name: string) => page.getByRole('row').filter({ hasText: name });

async function chooseFile(page: Page, name: string, text: string) {
  await page.locator('input[type="file"]').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(text, 'utf8') });
}

async function payerTotal(token: string, businessId: string): Promise<number> {
  const res = await fetch(`${baseUrl()}/api/businesses/${businessId}/payers`, { headers: { authorization: `Bearer ${token}` } });
  return ((await res.json()) as { data: { total: number } }).data.total;
}

describe('payers: add, list, export, import, verify', () => {
  it('an approved business adds a payer, exports, imports a file with a bad row, fixes it, re-imports; the payer confirms their e-mail', async () => {
    const owner = await approvedBusinessAccount(uniqueEmail('payers-owner'), PASSWORD, { businessName: 'Harbor Music' });
    const lena = uniqueEmail('lena');
    const page = await browser.newPage();
    await signInThroughForm(page, owner.email, PASSWORD);
    await page.waitForURL(/\/business\/setup$/);

    // From the navigation to the empty list.
    await page.getByRole('navigation', { name: 'Business navigation' }).getByRole('link', { name: 'Manage Payers' }).click();
    await page.waitForURL('**/business/payment/payers');
    await page.getByRole('heading', { name: 'Manage Payers' }).waitFor();
    await page.getByText('No payers yet').waitFor();
    // One empty state: no "No results" or pager beside it, and nothing to export.
    expect(await page.getByText('No results', { exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Export CSV' }).isDisabled()).toBe(true);

    // Add a payer through the form: the phone is checked in the browser.
    await page.getByRole('button', { name: 'Add a payer' }).first().click();
    await page.waitForURL('**/business/payment/payers/add');
    await page.getByLabel('First name').fill('Lena');
    await page.getByLabel('Last name').fill('Park');
    await page.getByLabel('E-mail').fill(lena);
    await page.getByLabel('Mobile number').fill('12');
    await page.getByRole('button', { name: 'Add payer' }).click();
    await page.getByText('Enter a valid mobile number, like (415) 555-0123 or +44 20 7946 0958.').waitFor();
    await page.getByLabel('Mobile number').fill('(415) 555-0199');
    await page.getByLabel('Reference').fill('HM-1');
    await page.getByRole('button', { name: 'Add payer' }).click();
    await toast(page, 'Payer added');
    await page.waitForURL('**/business/payment/payers');
    await row(page, 'Lena Park').waitFor();
    await page.getByText('Showing 1 to 1 of 1 Results').waitFor();
    await expectNoSeriousA11yViolations(page);
    expect(await row(page, 'Lena Park').getByText('Unverified').isVisible()).toBe(true);
    expect(await row(page, 'Lena Park').getByText('(415) 555-0199').isVisible()).toBe(true);

    // The server's duplicate check lands on the field.
    await page.goto('/business/payment/payers/add');
    await page.getByLabel('Company name').fill('Park Family');
    await page.getByLabel('E-mail').fill(lena.toUpperCase());
    await page.getByRole('button', { name: 'Add payer' }).click();
    await page.getByText('Another payer of this business already has this e-mail address.').waitFor();
    await page.getByRole('link', { name: 'Cancel' }).click();
    await page.waitForURL('**/business/payment/payers');

    // Export the list as CSV.
    await row(page, 'Lena Park').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^payers-\d{4}-\d{2}-\d{2}\.csv$/);
    const exported = await readFile((await download.path())!, 'utf8');
    const lines = exported
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe(
      'Payer ID,First name,Last name,Company,Display name,E-mail,Mobile number,Reference,Status,Verification,Verified at,Requests,Drafts,Created at',
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`,Lena,Park,,Lena Park,${lena},'+14155550199,HM-1,active,unverified,`);

    // Import a file with one bad row: the preview shows it and nothing can be imported.
    await page.getByRole('button', { name: 'Import payers' }).click();
    await page.waitForURL('**/business/payment/payers/import');
    const omar = uniqueEmail('omar');
    const pia = uniqueEmail('pia');
    const header = 'First Name,Last Name,Email,Mobile,Company';
    const bad = [header, `Omar,Said,${omar},(415) 555-0142,`, 'Pia,Lund,pia-at-example.com,,', `Lena,Park,${lena},,`].join('\r\n');
    await chooseFile(page, 'payers.csv', bad);
    await page.getByText('1 row has errors').waitFor();
    const badRow = page.getByRole('row').filter({ hasText: 'pia-at-example.com' });
    await badRow.getByText('E-mail: Enter a valid e-mail address.').waitFor();
    expect(await badRow.getByRole('cell').first().textContent()).toBe('3');
    await page.getByRole('row').filter({ hasText: 'Omar Said' }).getByText('Will be added').waitFor();
    await page.getByRole('row').filter({ hasText: lena }).getByText('A payer with this e-mail address already exists.').waitFor();
    // The columns are matched from the header names.
    expect(await page.getByRole('combobox', { name: /^E-mail/ }).inputValue()).toBe('Email');
    expect(await page.getByRole('combobox', { name: 'Mobile number' }).inputValue()).toBe('Mobile');
    expect(await page.getByRole('button', { name: 'Import 1 payer' }).isDisabled()).toBe(true);
    expect(await payerTotal(owner.token, owner.businessId)).toBe(1);

    // Fix the file and import it: the duplicate is skipped.
    const fixed = bad.replace('pia-at-example.com', pia);
    await chooseFile(page, 'payers-fixed.csv', fixed);
    await page.getByText('2 new').waitFor();
    expect(await page.getByText('1 row has errors').count()).toBe(0);
    await page.getByRole('button', { name: 'Import 2 payers' }).click();
    await page.getByText('2 added, 1 skipped as duplicates').waitFor();
    expect(await payerTotal(owner.token, owner.businessId)).toBe(3);

    // The same file again adds nobody.
    await page.getByRole('button', { name: 'Import another file' }).click();
    await chooseFile(page, 'payers-fixed.csv', fixed);
    await page.getByText('3 duplicates').first().waitFor();
    await page.getByRole('button', { name: 'Import 0 payers' }).click();
    await page.getByText('0 added, 3 skipped as duplicates').waitFor();
    expect(await payerTotal(owner.token, owner.businessId)).toBe(3);

    await page.getByRole('link', { name: 'Back to payers' }).first().click();
    await page.waitForURL('**/business/payment/payers');
    await page.getByText('Showing 1 to 3 of 3 Results').waitFor();

    // A row action with a confirm modal: delete Omar (no requests to pay).
    await row(page, 'Omar Said').getByRole('button', { name: 'Row actions' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete payer' }).click();
    await toast(page, 'Payer deleted');
    await page.getByText('Showing 1 to 2 of 2 Results').waitFor();

    // The payer opens the link in their e-mail, signed out, on the public page.
    const mail = (await outbox(lena)).find((m) => m.subject === 'Harbor Music asks you to confirm your e-mail address');
    const link = mail?.text.match(/https?:\/\/\S+\/pay\/verify\/\S+/)?.[0];
    expect(link).toBeDefined();
    expect((await outbox(omar)).length).toBe(0);
    const payerPage = await browser.newPage();
    await payerPage.goto(link!);
    await payerPage.getByRole('heading', { name: 'Your e-mail address is confirmed' }).waitFor();
    await payerPage.getByText('Thank you, Lena Park. Harbor Music can now send you requests to pay at this address.').waitFor();
    expect(new URL(payerPage.url()).pathname).toMatch(/^\/pay\/verify\//);

    // The business sees the payer verified, also with the verification filter.
    await page.reload();
    await row(page, 'Lena Park').getByText('Verified', { exact: true }).waitFor();
    await page.getByRole('combobox', { name: 'Verification' }).click();
    await page.getByRole('option', { name: 'Verified', exact: true }).click();
    await page.getByText('Showing 1 to 1 of 1 Results').waitFor();
    expect(await row(page, 'Pia Lund').count()).toBe(0);

    // The payer's transactions page: their card, and the table of their requests.
    const found = await fetch(`${baseUrl()}/api/businesses/${owner.businessId}/payers?search=lena`, { headers: { authorization: `Bearer ${owner.token}` } });
    const lenaId = ((await found.json()) as { data: { items: { payerId: string }[] } }).data.items[0]!.payerId;
    const sent = await fetch(`${baseUrl()}/api/businesses/${owner.businessId}/payment-requests`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${owner.token}` },
      body: JSON.stringify({ payerId: lenaId, amountCents: 1250, memo: 'Piano lessons', dueDate: '2030-01-15', mode: 'send' }),
    });
    expect(sent.status).toBe(201);
    await page.reload();
    await row(page, 'Lena Park').getByRole('button', { name: 'Row actions' }).click();
    expect(await page.getByRole('menuitem', { name: 'Delete' }).count()).toBe(0);
    await page.getByRole('menuitem', { name: 'Transactions' }).click();
    await page.waitForURL('**/business/payment/payers/transactions?payerId=*');
    await page.getByRole('heading', { name: 'Transactions of Lena Park' }).waitFor();
    await page.getByText('Showing 1 to 1 of 1 Results').waitFor();
    await row(page, 'Piano lessons').getByText('$12.50').first().waitFor();
    // The payer's requests carry the same row actions as the history, and open in place.
    await row(page, 'Piano lessons').getByRole('button', { name: 'Row actions' }).click();
    expect(await page.getByRole('menuitem').allTextContents()).toEqual(['Resend', 'Withdraw', 'Copy']);
    await page.keyboard.press('Escape');
    await row(page, 'Piano lessons').click();
    await page.waitForURL('**/business/payment/payers/transactions?payerId=*&transid=*');
    await page
      .getByRole('dialog', { name: /^Request TRX-/ })
      .getByText('Waiting for payment')
      .waitFor();
  });
});

describe('payer row actions', () => {
  async function api(token: string, method: string, path: string, body?: unknown) {
    const res = await fetch(`${baseUrl()}/api${path}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { data: Record<string, unknown> }).data;
  }

  const verificationMails = async (email: string) => (await outbox(email)).filter((m) => m.subject === 'Harbor Music asks you to confirm your e-mail address');

  async function actionsOf(page: Page, name: string): Promise<string[]> {
    await row(page, name).getByRole('button', { name: 'Row actions' }).click();
    const items = page.getByRole('menuitem');
    await items.first().waitFor();
    const labels = (await items.allTextContents()).map((t) => t.trim());
    await page.keyboard.press('Escape');
    await items.first().waitFor({ state: 'detached' });
    return labels;
  }

  async function choose(page: Page, name: string, action: string) {
    await row(page, name).getByRole('button', { name: 'Row actions' }).click();
    await page.getByRole('menuitem', { name: action, exact: true }).click();
  }

  it('Edit, Request to Pay, Deactivate (confirmed) and Activate, Resend verification, Re-verify; Delete only without requests; the request count is what Transactions lists', async () => {
    const owner = await approvedBusinessAccount(uniqueEmail('actions-owner'), PASSWORD, { businessName: 'Harbor Music' });
    const quinn = uniqueEmail('quinn');
    const rosa = uniqueEmail('rosa');
    const sam = uniqueEmail('sam');
    const base = `/businesses/${owner.businessId}`;
    const quinnId = (await api(owner.token, 'POST', `${base}/payers`, { firstName: 'Quinn', lastName: 'Ames', email: quinn })).payerId as string;
    await api(owner.token, 'POST', `${base}/payers`, { firstName: 'Rosa', lastName: 'Vale', email: rosa });
    const samId = (await api(owner.token, 'POST', `${base}/payers`, { firstName: 'Sam', lastName: 'Holt', email: sam })).payerId as string;
    // Sam has a request sent and a draft; Quinn only a draft; Rosa nothing.
    await api(owner.token, 'POST', `${base}/payment-requests`, { payerId: samId, amountCents: 1_500, dueDate: '2030-01-15', mode: 'send' });
    await api(owner.token, 'POST', `${base}/payment-requests`, { payerId: samId, amountCents: 1_600, dueDate: '2030-01-15', mode: 'draft' });
    await api(owner.token, 'POST', `${base}/payment-requests`, { payerId: quinnId, amountCents: 1_700, dueDate: '2030-01-15', mode: 'draft' });
    // Rosa confirms her e-mail through the link she was sent.
    const rosaLink = (await verificationMails(rosa))[0]?.text.match(/\/pay\/verify\/(\S+)/)?.[1];
    expect(rosaLink).toBeDefined();
    const verified = await fetch(`${baseUrl()}/api/public/payers/verify/${rosaLink}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(verified.status).toBe(200);

    const page = await browser.newPage();
    await signInThroughForm(page, owner.email, PASSWORD);
    await page.waitForURL(/\/business\/setup$/);
    await page.goto('/business/payment/payers');
    await page.getByText('Showing 1 to 3 of 3 Results').waitFor();

    // The Requests column counts what the Transactions page lists; drafts are said apart.
    const requestsCell = (name: string) => row(page, name).getByRole('cell').nth(5);
    await expect.poll(() => requestsCell('Sam Holt').textContent()).toBe('1 + 1 draft');
    expect(await requestsCell('Quinn Ames').textContent()).toBe('0 + 1 draft');
    expect(await requestsCell('Rosa Vale').textContent()).toBe('0');

    // Delete is offered only to a payer no request names, drafts included.
    expect(await actionsOf(page, 'Rosa Vale')).toEqual(['Edit', 'Request to Pay', 'Transactions', 'Deactivate', 'Re-verify', 'Delete']);
    expect(await actionsOf(page, 'Quinn Ames')).toEqual(['Edit', 'Request to Pay', 'Transactions', 'Deactivate', 'Resend verification']);
    expect(await actionsOf(page, 'Sam Holt')).not.toContain('Delete');
    await choose(page, 'Sam Holt', 'Transactions');
    await page.getByRole('heading', { name: 'Transactions of Sam Holt' }).waitFor();
    await page.getByText('Showing 1 to 1 of 1 Results').waitFor();
    await page.goBack();

    // Edit: the form opens with the payer's details and saves the change.
    await choose(page, 'Quinn Ames', 'Edit');
    await page.waitForURL(`**/business/payment/payers/add?payerId=${quinnId}`);
    await page.getByRole('heading', { name: 'Edit payer' }).waitFor();
    await expect.poll(() => page.getByLabel('E-mail').inputValue()).toBe(quinn);
    await page.getByLabel('Last name').fill('Amesbury');
    await page.getByRole('button', { name: 'Save payer' }).click();
    await toast(page, 'Payer saved');
    await page.waitForURL('**/business/payment/payers');
    await row(page, 'Quinn Amesbury').waitFor();

    // Request to Pay: the request form, with this payer already chosen.
    await choose(page, 'Quinn Amesbury', 'Request to Pay');
    await page.waitForURL(`**/business/payment/request?payerId=${quinnId}`);
    await expect.poll(() => page.getByRole('textbox', { name: 'Payer' }).inputValue()).toBe('Quinn Amesbury');
    await page.getByText(quinn).first().waitFor();
    await page.goto('/business/payment/payers');

    // Deactivate asks first; keeping the payer changes nothing.
    await choose(page, 'Quinn Amesbury', 'Deactivate');
    const confirm = page.getByRole('dialog', { name: 'Deactivate Quinn Amesbury?' });
    await confirm.getByRole('button', { name: 'Keep active' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect((await api(owner.token, 'GET', `${base}/payers/${quinnId}`)).status).toBe('active');
    await choose(page, 'Quinn Amesbury', 'Deactivate');
    await page.getByRole('dialog', { name: 'Deactivate Quinn Amesbury?' }).getByRole('button', { name: 'Deactivate payer' }).click();
    await toast(page, 'Payer deactivated');
    await row(page, 'Quinn Amesbury').getByText('Disabled', { exact: true }).waitFor();
    expect(await actionsOf(page, 'Quinn Amesbury')).toEqual(['Edit', 'Transactions', 'Activate', 'Resend verification']);
    await choose(page, 'Quinn Amesbury', 'Activate');
    await toast(page, 'Payer activated');
    await row(page, 'Quinn Amesbury').getByText('Active', { exact: true }).waitFor();

    // Resend verification: another e-mail with a link goes to the unverified payer.
    expect(await verificationMails(quinn)).toHaveLength(1);
    await choose(page, 'Quinn Amesbury', 'Resend verification');
    await toast(page, `Verification e-mail sent to ${quinn}`);
    await expect.poll(async () => (await verificationMails(quinn)).length).toBe(2);

    // The payer's Transactions page says who changed what, newest first.
    await choose(page, 'Quinn Amesbury', 'Transactions');
    const history = page.getByRole('region', { name: 'History' });
    await history.getByText('E-mailed the link to confirm their e-mail address again').waitFor();
    expect(await history.locator('.mantine-Timeline-itemTitle').allTextContents()).toEqual([
      'E-mailed the link to confirm their e-mail address again',
      'Activated: new requests to pay can be sent',
      'Deactivated: no new requests to pay can be sent',
      'Changed the last name',
      'Added, and e-mailed a link to confirm their e-mail address',
    ]);
    await page.goBack();

    // Re-verify (verified → unverified, after a confirmation): a new link, and the old one no longer works.
    await row(page, 'Rosa Vale').getByText('Verified', { exact: true }).waitFor();
    await choose(page, 'Rosa Vale', 'Re-verify');
    await page.getByRole('dialog', { name: 'Ask Rosa Vale to confirm their e-mail again?' }).getByRole('button', { name: 'Send a new link' }).click();
    await toast(page, `Verification e-mail sent to ${rosa}`);
    await row(page, 'Rosa Vale').getByText('Unverified', { exact: true }).waitFor();
    await expect.poll(async () => (await verificationMails(rosa)).length).toBe(2);
    const newLink = (await verificationMails(rosa))[0]!.text.match(/\/pay\/verify\/(\S+)/)?.[1];
    expect(newLink).toBeDefined();
    expect(newLink).not.toBe(rosaLink);
    const oldLink = await fetch(`${baseUrl()}/api/public/payers/verify/${rosaLink}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(oldLink.status).toBe(404);
    expect(await actionsOf(page, 'Rosa Vale')).toEqual(['Edit', 'Request to Pay', 'Transactions', 'Deactivate', 'Resend verification', 'Delete']);
  });
});
