import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations } from './support/a11y';
import { uniqueEmail } from './support/app';
import { approvedBusinessAccount, signInThroughForm, type ApprovedAccount } from './support/approved-business';
import { useBrowser } from './support/browser';
import { ownerApi } from './support/owner-api';
import { sql } from './support/database';
import { payEmailedLink } from './support/pay';

const browser = useBrowser();
const PASSWORD = 'Silver-Lake-Sunrise-4';

const api = ownerApi;

/** A request sent to a new payer, paid by card on the pay page from the e-mailed link; resolves once Paid. */
async function paidRequest(owner: ApprovedAccount, firstName: string, amountCents: number): Promise<string> {
  const email = uniqueEmail(firstName.toLowerCase());
  const payer = await api<{ payerId: string }>(owner, 'POST', `/businesses/${owner.businessId}/payers`, { firstName, lastName: 'Payer', email });
  const dueDate = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  const request = await api<{ transactionId: string }>(owner, 'POST', `/businesses/${owner.businessId}/payment-requests`, {
    payerId: payer.payerId,
    amountCents,
    memo: 'Lessons',
    dueDate,
    mode: 'send',
  });
  await payEmailedLink(() => browser.newPage(), email);
  for (let i = 0; i < 80; i++) {
    const detail = await api<{ transactionState: string }>(owner, 'GET', `/businesses/${owner.businessId}/payment-requests/${request.transactionId}`);
    if (detail.transactionState === 'Paid') return request.transactionId;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${request.transactionId} never became Paid`);
}

/** 'YYYY-MM-DD' plus n days. */
function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T12:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

/** 'MMM dd, yyyy', worked out here independently of the app's formatter. */
function shortDate(day: string): string {
  return new Date(`${day}T12:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: '2-digit', year: 'numeric', timeZone: 'UTC' });
}

/** One CSV line's cells: quoted ("Nov 27, 2026", with "" for a quote) or bare. */
function csvCells(line: string): string[] {
  return [...line.matchAll(/(?:^|,)(?:"((?:[^"]|"")*)"|([^,]*))/g)].map((m) => (m[1] !== undefined ? m[1].replaceAll('""', '"') : (m[2] ?? '')));
}

/** The rows of a downloaded CSV, as arrays of cells. */
async function downloadedCsv(page: Page, click: () => Promise<void>): Promise<string[][]> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  const text = readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '');
  return text.trim().split(/\r?\n/).map(csvCells);
}

/** The value of the figure card named `label` ("Collected $125.50: see the …" is its link's name). */
function figureLink(page: Page, label: string, amount: string) {
  return page.getByRole('link', { name: `${label} ${amount}: see the`, exact: false });
}

/**
 * A payment made "on another day": its request was sent, and paid, then (the rollup follows the
 * rows in the same statement's transaction, as it does for every payment).
 */
async function moveTo(businessId: string, requestId: string, shift: string): Promise<void> {
  await sql(
    `UPDATE payment_requests SET first_sent_at = first_sent_at + $3::interval, sent_at = sent_at + $3::interval, paid_at = paid_at + $3::interval
     WHERE business_id = $1 AND id = $2`,
    [businessId, requestId, shift],
  );
  await sql(
    `UPDATE payments SET processed_at = processed_at + $3::interval, created_at = created_at + $3::interval,
       settled_at = settled_at + $3::interval WHERE business_id = $1 AND request_id = $2`,
    [businessId, requestId, shift],
  );
}

describe('analytics: billing reports from real payments', () => {
  it('payments on two days → the daily report shows each on its day with the chart table → the CSV matches → the monthly report sums them', async () => {
    const owner = await approvedBusinessAccount(uniqueEmail('analytics-owner'), PASSWORD, { businessName: 'Harbor Music' });
    const today = (await api<{ today: string; timeZone: string }>(owner, 'GET', `/businesses/${owner.businessId}/reports/overview`)).today;
    // Two days of one month, neither in the future (a report has no future days): today and the
    // day before; on the 1st, the last two days of the month before.
    const day = today.endsWith('-01') ? addDays(today, -1) : today;
    const otherDay = addDays(day, -1);
    const daysBack = (d: string) => `${Math.round((Date.parse(d) - Date.parse(today)) / 86_400_000)} days`;
    const shift = daysBack(otherDay);

    const first = await paidRequest(owner, 'Nora', 12_550);
    const moved = await paidRequest(owner, 'Omar', 4_000);
    if (day !== today) await moveTo(owner.businessId, first, daysBack(day));
    await moveTo(owner.businessId, moved, shift);

    const page = await browser.newPage();
    await signInThroughForm(page, owner.email, PASSWORD);
    await page.waitForURL(/\/business\//);

    // The menu's Analytics → Daily Billing Report: today, on the business's clock.
    await page.goto('/business/analytics');
    await page.getByRole('navigation', { name: 'Business navigation' }).getByRole('link', { name: 'Daily Billing Report' }).click();
    await page.waitForURL('**/business/analytics/billing/daily**');
    await page.getByRole('heading', { name: 'Daily Billing Report' }).waitFor();
    if (day !== today) {
      await page.goto(`/business/analytics/billing/daily?date=${day}`);
      await page.getByRole('heading', { name: 'Daily Billing Report' }).waitFor();
    }
    await figureLink(page, 'Collected', '$125.50').waitFor();
    const hours = page.getByRole('table', { name: `Billed and collected by hour on ${shortDate(day)}` });
    await hours.waitFor();
    expect(await hours.getByRole('cell', { name: '$125.50' }).count()).toBeGreaterThanOrEqual(1);
    expect(await hours.getByRole('cell', { name: '$40.00' }).count()).toBe(0);
    // The chart beside the table (Recharts draws it; the table is what screen readers read).
    expect(await page.locator('.recharts-surface').count()).toBeGreaterThan(0);
    await expectNoSeriousA11yViolations(page);

    // The CSV holds exactly the day on screen: one row per hour of the table, then the total.
    const csv = await downloadedCsv(page, () => page.getByRole('button', { name: 'Download CSV' }).click());
    const header = csv[0]!;
    const collectedColumn = header.indexOf('Collected (USD)');
    expect(collectedColumn).toBeGreaterThan(0);
    const hourRows = csv.slice(1, -1);
    expect(hourRows.length).toBeGreaterThanOrEqual(23);
    expect(hourRows[0]![0]).toBe(`${shortDate(day)} 00:00`);
    expect(hourRows.filter((row) => row[collectedColumn] === '125.50')).toHaveLength(1);
    expect(csv.at(-1)![0]).toBe('Total');
    expect(csv.at(-1)![collectedColumn]).toBe('125.50');

    // The other day, through Previous/Next day: the $40.00 payment is there, not today.
    await page.getByRole('button', { name: 'Previous day' }).click();
    await page.waitForURL(`**/business/analytics/billing/daily?date=${otherDay}`);
    await figureLink(page, 'Collected', '$40.00').waitFor();
    await page
      .getByRole('table', { name: `Billed and collected by hour on ${shortDate(otherDay)}` })
      .getByRole('cell', { name: '$40.00' })
      .first()
      .waitFor();

    // The figure's link lists the requests it counts: Omar's, paid that day though created today
    // (the history filters by the day the payment was processed, not the day the request was made).
    await figureLink(page, 'Collected', '$40.00').click();
    await page.waitForURL(new RegExp(`paidFrom=${otherDay}`));
    await page.getByText(`Paid ${otherDay} – ${otherDay}`).waitFor();
    await page.getByText('Omar Payer').first().waitFor();
    expect(await page.getByText('Nora Payer').count()).toBe(0);
    // Removing the chip shows every request again.
    await page.getByRole('button', { name: 'Show requests paid on any day' }).click();
    await page.getByText('Nora Payer').first().waitFor();

    // The month sums both days, each on its own row.
    const month = day.slice(0, 7);
    await page.goto(`/business/analytics/billing/monthly?month=${month}`);
    await page.getByRole('heading', { name: 'Monthly Billing Report' }).waitFor();
    const monthName = new Date(`${day}T12:00:00Z`).toLocaleDateString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
    const byDay = page.getByRole('table', { name: `${monthName} by day` });
    await byDay.waitFor();
    await figureLink(page, 'Collected', '$165.50').waitFor();
    await byDay.getByRole('row', { name: new RegExp(`^${shortDate(day)}.*\\$125\\.50`) }).waitFor();
    await byDay.getByRole('row', { name: new RegExp(`^${shortDate(otherDay)}.*\\$40\\.00`) }).waitFor();
    await byDay.getByRole('row', { name: /^Total.*\$165\.50/ }).waitFor();
    await expectNoSeriousA11yViolations(page);

    // The overview agrees: this month's collections by method, and the two payers at the top
    // (on the 1st, both payments were last month's: the overview's month has neither).
    if (day !== today) return;
    await page.goto('/business/analytics');
    await page.getByText('$165.50').first().waitFor();
    await page.getByText('Nora Payer').first().waitFor();
    await page.getByText('Omar Payer').first().waitFor();
    await expectNoSeriousA11yViolations(page);
  });
});
