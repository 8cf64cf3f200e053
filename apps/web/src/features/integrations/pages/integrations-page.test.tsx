import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Integration, SyncLogEntry } from '@tay/contract';
import { apiError, BUSINESS_ID, fakeApiPerTest, ok, renderAt, shownLocation } from '../../../test/page-harness';
import { goToProvider } from '../leave-for-provider';
import { IntegrationsPage } from './integrations-page';

// The browser cannot leave jsdom: the test sees where the page sent it instead.
vi.mock('../leave-for-provider', () => ({ goToProvider: vi.fn() }));

const API = `/api/businesses/${BUSINESS_ID}/integrations`;
const PAGE = '/business/setup/integrations';

function integration(over: Partial<Integration> = {}): Integration {
  return {
    provider: 'quickbooks',
    available: true,
    state: 'not_connected',
    companyName: null,
    accountId: null,
    connectedAt: null,
    connectedBy: null,
    syncState: 'idle',
    lastSyncAt: null,
    lastSyncPushed: null,
    lastSyncFailed: null,
    recordsSynced: 0,
    errors: 0,
    problem: null,
    ...over,
  };
}

const connected = (over: Partial<Integration> = {}) =>
  integration({
    provider: 'freshbooks',
    state: 'connected',
    companyName: 'Harbor Music LLC',
    accountId: 'acct_9',
    connectedAt: '2026-11-02T15:00:00.000Z',
    connectedBy: 'owner@biz.example',
    lastSyncAt: '2026-11-20T14:30:00.000Z',
    lastSyncPushed: 12,
    lastSyncFailed: 1,
    recordsSynced: 40,
    errors: 1,
    ...over,
  });

function entry(n: number, over: Partial<SyncLogEntry> = {}): SyncLogEntry {
  return {
    id: `log_${n}`,
    at: '2026-11-20T14:30:00.000Z',
    direction: 'push',
    recordType: 'invoice',
    recordId: `inv_${n}`,
    recordLabel: `Invoice #${n}`,
    remoteId: `${100 + n}`,
    outcome: 'created',
    message: null,
    ...over,
  };
}

const logOf = (items: SyncLogEntry[], total = items.length, page = 1) => ok({ items, page, pageSize: 25, total });

const fake = fakeApiPerTest();
beforeEach(() => {
  fake.on('GET', `${API}/quickbooks/log`, logOf([]));
  fake.on('GET', `${API}/freshbooks/log`, logOf([]));
  vi.mocked(goToProvider).mockClear();
  // Toasts live in a store of their own, outside what each test renders.
  notifications.clean();
  URL.createObjectURL = vi.fn(() => 'blob:csv');
  URL.revokeObjectURL = vi.fn();
});

const open = (path = PAGE, business: Parameters<typeof renderAt>[2] = {}) => renderAt(path, { [PAGE]: <IntegrationsPage /> }, business);
const card = async (name: string) => (await screen.findByRole('heading', { name, level: 2 })).closest('section')!;

describe('the integration cards', () => {
  it('shows each provider in its state: not connected with Connect; connected with its company, last sync and counts; a refused one prominently, with Reconnect', async () => {
    fake.on('GET', API, ok([integration({ provider: 'quickbooks' }), connected({ problem: 'FreshBooks answered 503: the run will try again.' })]));
    open();
    const quickbooks = await card('QuickBooks Online');
    expect(within(quickbooks).getByText('Not connected')).toBeInTheDocument();
    expect(within(quickbooks).getByRole('button', { name: 'Connect' })).toBeInTheDocument();
    expect(within(quickbooks).queryByText('Records synced')).not.toBeInTheDocument();
    expect(within(quickbooks).queryByRole('button', { name: 'Disconnect' })).not.toBeInTheDocument();

    const freshbooks = await card('FreshBooks');
    expect(within(freshbooks).getByText('Connected')).toBeInTheDocument();
    expect(within(freshbooks).getByText('Harbor Music LLC')).toBeInTheDocument();
    expect(within(freshbooks).getByText('Nov 02, 2026 by owner@biz.example')).toBeInTheDocument();
    expect(within(freshbooks).getByText('12 pushed, 1 failed')).toBeInTheDocument();
    expect(within(freshbooks).getByText('Records synced').nextSibling).toHaveTextContent('40');
    expect(within(freshbooks).getByText('Errors').nextSibling).toHaveTextContent('1');
    expect(within(freshbooks).getByText('FreshBooks answered 503: the run will try again.')).toBeInTheDocument();
    expect(within(freshbooks).getByRole('button', { name: 'Sync now' })).toBeEnabled();
    expect(within(freshbooks).getByRole('button', { name: 'Disconnect' })).toBeInTheDocument();
    expect(within(freshbooks).queryByRole('button', { name: 'Connect' })).not.toBeInTheDocument();
  });

  it('a provider this server does not offer says so and has no Connect', async () => {
    fake.on('GET', API, ok([integration({ provider: 'quickbooks', available: false }), integration({ provider: 'freshbooks' })]));
    open();
    const quickbooks = await card('QuickBooks Online');
    expect(within(quickbooks).getByText('QuickBooks Online is not available on this server yet. Contact Tay support.')).toBeInTheDocument();
    expect(within(quickbooks).queryByRole('button', { name: 'Connect' })).not.toBeInTheDocument();
    expect(within(await card('FreshBooks')).getByRole('button', { name: 'Connect' })).toBeInTheDocument();
  });

  it('says a card needs reconnecting, why, and offers Reconnect instead of Sync now', async () => {
    fake.on(
      'GET',
      API,
      ok([
        integration({ ...connected({ provider: 'quickbooks' }), state: 'needs_reconnect', problem: 'QuickBooks refused our access token.' }),
        integration({ provider: 'freshbooks' }),
      ]),
    );
    fake.on('POST', `${API}/quickbooks/connect`, ok({ url: 'https://appcenter.intuit.com/connect/oauth2?state=s1' }));
    open();
    const quickbooks = await card('QuickBooks Online');
    expect(within(quickbooks).getByText('Needs reconnecting')).toBeInTheDocument();
    const alert = within(quickbooks).getByText('QuickBooks Online needs reconnecting').closest('[role="alert"], .mantine-Alert-root')!;
    expect(within(alert as HTMLElement).getByText('QuickBooks refused our access token.')).toBeInTheDocument();
    expect(within(quickbooks).queryByRole('button', { name: 'Sync now' })).not.toBeInTheDocument();
    expect(within(quickbooks).getByText('Harbor Music LLC')).toBeInTheDocument();
    await userEvent.click(within(alert as HTMLElement).getByRole('button', { name: 'Reconnect' }));
    await waitFor(() => expect(goToProvider).toHaveBeenCalledWith('https://appcenter.intuit.com/connect/oauth2?state=s1'));
  });

  it('Connect asks the API for the consent page and sends the browser to the address it answered', async () => {
    fake.on('GET', API, ok([integration({ provider: 'quickbooks' }), integration({ provider: 'freshbooks' })]));
    fake.on('POST', `${API}/freshbooks/connect`, ok({ url: 'https://auth.freshbooks.com/oauth/authorize?client_id=tay&state=abc' }));
    open();
    await userEvent.click(within(await card('FreshBooks')).getByRole('button', { name: 'Connect' }));
    await waitFor(() => expect(goToProvider).toHaveBeenCalledWith('https://auth.freshbooks.com/oauth/authorize?client_id=tay&state=abc'));
    expect(goToProvider).toHaveBeenCalledTimes(1);
    expect(fake.callsTo('POST', `${API}/quickbooks/connect`)).toHaveLength(0);
  });

  it('a refused Connect says why and goes nowhere', async () => {
    fake.on('GET', API, ok([integration({ provider: 'quickbooks' }), integration({ provider: 'freshbooks' })]));
    fake.on('POST', `${API}/quickbooks/connect`, apiError(403, 'FORBIDDEN', 'Only an owner of this business can do this.'));
    open();
    await userEvent.click(within(await card('QuickBooks Online')).getByRole('button', { name: 'Connect' }));
    expect(await screen.findByText('QuickBooks Online not connected')).toBeInTheDocument();
    expect(screen.getByText('Only an owner of this business can do this.')).toBeInTheDocument();
    expect(goToProvider).not.toHaveBeenCalled();
  });

  it('Sync now shows its progress, reads the cards every 2 s until the run is idle, then says how it went', async () => {
    let reads = 0;
    let synced = false;
    fake.on('GET', API, () => {
      reads += 1;
      if (!synced) return ok([integration(), connected()]);
      // After Sync now: running on the next read, finished on the one after.
      const run = reads - firstSyncRead;
      return run === 0
        ? ok([integration(), connected({ syncState: 'running' })])
        : ok([integration(), connected({ lastSyncAt: '2026-11-27T12:00:00.000Z', lastSyncPushed: 3, lastSyncFailed: 0, recordsSynced: 43 })]);
    });
    let firstSyncRead = 0;
    fake.on('POST', `${API}/freshbooks/sync`, () => {
      synced = true;
      firstSyncRead = reads + 1;
      return { status: 202, json: { status: 'Success', data: connected({ syncState: 'queued' }) } };
    });
    open();
    const freshbooks = await card('FreshBooks');
    await userEvent.click(within(freshbooks).getByRole('button', { name: 'Sync now' }));
    expect(await within(freshbooks).findByText(/^Syncing/)).toBeInTheDocument();
    expect(within(freshbooks).getByRole('button', { name: 'Sync now' })).toBeDisabled();
    expect(await screen.findByText('FreshBooks sync finished', {}, { timeout: 8000 })).toBeInTheDocument();
    expect(screen.getByText('3 pushed, 0 failed.')).toBeInTheDocument();
    expect(within(freshbooks).queryByText(/^Syncing/)).not.toBeInTheDocument();
    expect(within(freshbooks).getByRole('button', { name: 'Sync now' })).toBeEnabled();
    expect(fake.callsTo('POST', `${API}/freshbooks/sync`)).toHaveLength(1);
    // Idle again: the polling has stopped.
    const readsWhenIdle = reads;
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(reads).toBe(readsWhenIdle);
  });

  it('a run that ends with failures says so, pointing at the log', async () => {
    let reads = 0;
    fake.on('GET', API, () => {
      reads += 1;
      return reads === 1
        ? ok([integration(), connected({ syncState: 'running' })])
        : ok([integration(), connected({ lastSyncPushed: 5, lastSyncFailed: 2, errors: 2 })]);
    });
    open();
    expect(await screen.findByText('FreshBooks sync finished with errors', {}, { timeout: 8000 })).toBeInTheDocument();
    expect(screen.getByText('5 pushed, 2 failed. The sync log shows FreshBooks’s own message for each failure.')).toBeInTheDocument();
  });

  it('Sync now on a connection that is gone says the API’s words', async () => {
    fake.on('GET', API, ok([integration(), connected()]));
    fake.on('POST', `${API}/freshbooks/sync`, apiError(409, 'CONFLICT', 'Connect this integration first.'));
    open();
    await userEvent.click(within(await card('FreshBooks')).getByRole('button', { name: 'Sync now' }));
    expect(await screen.findByText('FreshBooks sync not started')).toBeInTheDocument();
    expect(screen.getByText('Connect this integration first.')).toBeInTheDocument();
  });

  it('Disconnect asks first, naming the provider and saying the log and links are kept; then disconnects and says so', async () => {
    let gone = false;
    fake.on('GET', API, () => ok([integration(), gone ? integration({ provider: 'freshbooks' }) : connected()]));
    fake.on('DELETE', `${API}/freshbooks`, () => {
      gone = true;
      return ok(integration({ provider: 'freshbooks' }));
    });
    open();
    const u = userEvent.setup();
    await u.click(within(await card('FreshBooks')).getByRole('button', { name: 'Disconnect' }));
    const dialog = await screen.findByRole('dialog', { name: 'Disconnect FreshBooks?' });
    expect(dialog).toHaveTextContent('The sync log and the links to the records already in FreshBooks are kept');
    expect(fake.callsTo('DELETE', `${API}/freshbooks`)).toHaveLength(0);
    await u.click(within(dialog).getByRole('button', { name: 'Keep connected' }));
    expect(fake.callsTo('DELETE', `${API}/freshbooks`)).toHaveLength(0);

    await u.click(within(await card('FreshBooks')).getByRole('button', { name: 'Disconnect' }));
    await u.click(within(await screen.findByRole('dialog', { name: 'Disconnect FreshBooks?' })).getByRole('button', { name: 'Disconnect' }));
    expect(await screen.findByText('FreshBooks disconnected')).toBeInTheDocument();
    expect(fake.callsTo('DELETE', `${API}/freshbooks`)).toHaveLength(1);
    expect(await within(await card('FreshBooks')).findByRole('button', { name: 'Connect' })).toBeInTheDocument();
  });
});

describe('back from the provider', () => {
  beforeEach(() => {
    fake.on('GET', API, ok([integration(), connected()]));
  });

  it('shows the words for the callback’s error code on that provider’s card, and takes them out of the URL', async () => {
    open(`${PAGE}?${new URLSearchParams({ provider: 'quickbooks', error: 'invalid_state' }).toString()}`);
    const quickbooks = await card('QuickBooks Online');
    const alert = within(quickbooks).getByRole('alert');
    expect(alert).toHaveTextContent('QuickBooks Online was not connected');
    expect(within(alert).getByText('Invalid state in OAuth flow')).toBeInTheDocument();
    expect(within(await card('FreshBooks')).queryByRole('alert')).not.toBeInTheDocument();
    await waitFor(() => expect(shownLocation()).toBe(PAGE));
    expect(screen.queryByText('QuickBooks Online connected')).not.toBeInTheDocument();
    await userEvent.click(within(alert).getByRole('button', { name: 'Dismiss' }));
    expect(within(quickbooks).queryByText('Invalid state in OAuth flow')).not.toBeInTheDocument();
  });

  it('a company another Tay business has connected: the card says so, and what to do', async () => {
    open(`${PAGE}?provider=quickbooks&error=company_in_use`);
    const alert = within(await card('QuickBooks Online')).getByRole('alert');
    expect(alert).toHaveTextContent('QuickBooks Online was not connected');
    expect(alert).toHaveTextContent(
      'This QuickBooks Online company is already connected to another Tay business, so it was not connected here. An owner of that business must disconnect it there first; then connect it here again, or choose another company.',
    );
  });

  it('shows only its own words: text someone put in the link is not on the page', async () => {
    open(`${PAGE}?${new URLSearchParams({ provider: 'freshbooks', error: 'Your account is locked, call 555-0100' }).toString()}`);
    const freshbooks = await card('FreshBooks');
    expect(within(freshbooks).getByRole('alert')).toHaveTextContent('FreshBooks was not connected. Try Connect again.');
    expect(screen.queryByText(/555-0100/)).not.toBeInTheDocument();
  });

  it('says once that the provider is connected, and takes the query out of the URL (replaced, not pushed)', async () => {
    open(`${PAGE}?provider=freshbooks&connected=1&log=freshbooks`);
    expect(await screen.findByText('FreshBooks connected')).toBeInTheDocument();
    // Only the callback's own parameters leave; the page's own stay.
    await waitFor(() => expect(shownLocation()).toBe(`${PAGE}?log=freshbooks`));
    await screen.findByText('Harbor Music LLC');
    expect(screen.getAllByText('FreshBooks connected')).toHaveLength(1);
    for (const name of ['QuickBooks Online', 'FreshBooks']) expect(within(await card(name)).queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('the sync log', () => {
  beforeEach(() => {
    fake.on('GET', API, ok([integration(), connected()]));
  });

  const lastLogQuery = (provider: string) => Object.fromEntries(fake.callsTo('GET', `${API}/${provider}/log`).at(-1)!.url.searchParams);

  it('lists each entry with its record, direction, outcome, remote id and the provider’s own message', async () => {
    fake.on(
      'GET',
      `${API}/freshbooks/log`,
      logOf([
        entry(1, { outcome: 'failed', remoteId: null, message: 'Invoice number already exists' }),
        entry(2, { recordType: 'customer', recordLabel: 'Jane Doe', outcome: 'updated', remoteId: '7' }),
        entry(3, { direction: 'connection', recordType: null, recordId: null, recordLabel: 'Connected to Harbor Music LLC', outcome: 'info', remoteId: null }),
      ]),
    );
    open(`${PAGE}?log=freshbooks`);
    await screen.findByText('Invoice #1');
    const table = screen.getByRole('table', { name: 'FreshBooks sync log' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['When', 'Record', 'Direction', 'Outcome', 'Remote id', 'Message', 'Actions']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => Array.from(r.querySelectorAll('td')).map((td) => td.textContent))).toEqual([
      // The last cell: an owner's actions on a failed row (a menu button), none on the others.
      [expect.stringMatching(/^Nov 20, 2026/), 'InvoiceInvoice #1', 'Tay → FreshBooks', 'Failed', '—', 'Invoice number already exists', ''],
      [expect.stringMatching(/^Nov 20, 2026/), 'PayerJane Doe', 'Tay → FreshBooks', 'Updated', '7', '—', ''],
      [expect.stringMatching(/^Nov 20, 2026/), 'ConnectionConnected to Harbor Music LLC', 'Connection', 'Note', '—', '—', ''],
    ]);
    expect(rows.map((r) => within(r).queryAllByRole('button', { name: 'Row actions' }).length)).toEqual([1, 0, 0]);
    expect(screen.getByText('Showing 1 to 3 of 3 Results')).toBeInTheDocument();
  });

  it('filters by record type and outcome, pages, and downloads the CSV with the same filters', async () => {
    fake.on('GET', `${API}/quickbooks/log`, (call) => {
      const page = Number(call.url.searchParams.get('page') ?? 1);
      const count = page === 1 ? 25 : 5;
      return logOf(
        Array.from({ length: count }, (_, i) => entry((page - 1) * 25 + i + 1)),
        30,
        page,
      );
    });
    fake.on('GET', `${API}/quickbooks/log.csv`, {
      text: 'When,Record\n',
      headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="quickbooks-sync-log.csv"' },
    });
    open();
    const u = userEvent.setup();
    expect(await screen.findByText('Showing 1 to 25 of 30 Results')).toBeInTheDocument();

    await u.click(screen.getByRole('combobox', { name: 'Outcome' }));
    await u.click(await screen.findByRole('option', { name: 'Failed', hidden: true }));
    await waitFor(() => expect(lastLogQuery('quickbooks')).toMatchObject({ outcome: 'failed', page: '1' }));
    await u.click(screen.getByRole('combobox', { name: 'Record type' }));
    await u.click(await screen.findByRole('option', { name: 'Invoice', hidden: true }));
    await waitFor(() => expect(lastLogQuery('quickbooks')).toMatchObject({ outcome: 'failed', recordType: 'invoice' }));

    await u.click(screen.getByRole('button', { name: '2' }));
    expect(await screen.findByText('Showing 26 to 30 of 30 Results')).toBeInTheDocument();
    expect(lastLogQuery('quickbooks')).toEqual({ page: '2', pageSize: '25', outcome: 'failed', recordType: 'invoice' });
    expect(screen.getByText('Invoice #30')).toBeInTheDocument();

    await u.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(fake.callsTo('GET', `${API}/quickbooks/log.csv`)).toHaveLength(1));
    expect(Object.fromEntries(fake.callsTo('GET', `${API}/quickbooks/log.csv`)[0]!.url.searchParams)).toEqual({ outcome: 'failed', recordType: 'invoice' });
  });

  it('lists a refund as a record type of its own, saying what it became at the provider, and filters by it', async () => {
    fake.on(
      'GET',
      `${API}/quickbooks/log`,
      logOf([
        entry(1, {
          recordType: 'refund',
          recordId: 'rfd_1',
          recordLabel: 'Refund of $4.00 on Invoice INV-0007',
          remoteId: '12',
          message: 'A refund receipt in QuickBooks Online.',
        }),
      ]),
    );
    open();
    const u = userEvent.setup();
    expect(within(await card('QuickBooks Online')).getByText(/each refund becomes a refund receipt\.$/)).toBeInTheDocument();
    expect(within(await card('FreshBooks')).getByText(/each refund becomes a credit note\.$/)).toBeInTheDocument();
    await screen.findByText('Refund of $4.00 on Invoice INV-0007');
    const [row] = within(screen.getByRole('table', { name: 'QuickBooks Online sync log' }))
      .getAllByRole('row')
      .slice(1);
    expect(Array.from(row!.querySelectorAll('td')).map((td) => td.textContent)).toEqual([
      expect.stringMatching(/^Nov 20, 2026/),
      'RefundRefund of $4.00 on Invoice INV-0007',
      'Tay → QuickBooks Online',
      'Created',
      '12',
      'A refund receipt in QuickBooks Online.',
      '',
    ]);
    await u.click(screen.getByRole('combobox', { name: 'Record type' }));
    await u.click(await screen.findByRole('option', { name: 'Refund', hidden: true }));
    await waitFor(() => expect(lastLogQuery('quickbooks')).toMatchObject({ recordType: 'refund', page: '1' }));
  });

  it('shows each provider’s log in its own tab, reached by keyboard', async () => {
    fake.on('GET', `${API}/freshbooks/log`, logOf([entry(9, { recordLabel: 'Invoice #9 at FreshBooks' })]));
    open();
    const u = userEvent.setup();
    expect(await screen.findByText('No syncs yet')).toBeInTheDocument();
    const tab = screen.getByRole('tab', { name: 'QuickBooks Online' });
    expect(tab).toHaveAttribute('aria-selected', 'true');
    tab.focus();
    await u.keyboard('{ArrowRight}{Enter}');
    expect(await screen.findByText('Invoice #9 at FreshBooks')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'FreshBooks' })).toHaveAttribute('aria-selected', 'true');
    await waitFor(() => expect(shownLocation()).toBe(`${PAGE}?log=freshbooks`));
  });

  it('a log that cannot load says why and tries again', async () => {
    let fail = true;
    fake.on('GET', `${API}/quickbooks/log`, () => (fail ? apiError(500, 'INTERNAL', 'The sync log is unavailable right now.') : logOf([entry(1)])));
    open();
    expect(await screen.findByText('The sync log is unavailable right now.')).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Invoice #1')).toBeInTheDocument();
  });
});

describe('the sync log’s row actions', () => {
  const failedPayer = entry(1, {
    recordType: 'customer',
    recordId: 'pyr_ana',
    recordLabel: 'Ana Rivera',
    outcome: 'failed',
    remoteId: null,
    message: 'Duplicate Name Exists Error: The name supplied already exists.',
  });
  const failedInvoice = entry(2, { outcome: 'failed', remoteId: null, message: 'Its payer, Ana Rivera, is not in QuickBooks Online yet.' });

  beforeEach(() => {
    fake.on('GET', API, ok([connected({ provider: 'quickbooks' }), integration({ provider: 'freshbooks' })]));
    fake.on('GET', `${API}/quickbooks/log`, logOf([failedPayer, failedInvoice, entry(3)]));
  });

  const rowOf = (label: string) => screen.getAllByRole('row').find((row) => within(row).queryByText(label))!;
  const menuOf = async (u: ReturnType<typeof userEvent.setup>, label: string) => {
    await u.click(within(rowOf(label)).getByRole('button', { name: 'Row actions' }));
    return (await screen.findAllByRole('menuitem')).map((item) => item.textContent);
  };

  it('a failed payer offers Retry and Link to an existing record; a failed invoice Retry; a pushed record nothing', async () => {
    open();
    const u = userEvent.setup();
    await screen.findByText('Ana Rivera');
    expect(await menuOf(u, 'Ana Rivera')).toEqual(['Retry', 'Link to an existing record']);
    await u.keyboard('{Escape}');
    expect(await menuOf(u, 'Invoice #2')).toEqual(['Retry']);
    await u.keyboard('{Escape}');
    expect(within(rowOf('Invoice #3')).queryByRole('button', { name: 'Row actions' })).not.toBeInTheDocument();
  });

  it('Retry pushes that record now and says how it went, in the provider’s words when it failed again', async () => {
    let attempts = 0;
    fake.on('POST', `${API}/quickbooks/records/customer/pyr_ana/retry`, () => {
      attempts += 1;
      return attempts === 1
        ? ok({ ...failedPayer, id: 'log_9', message: 'Duplicate Name Exists Error: both names are taken.' })
        : ok({ ...failedPayer, id: 'log_10', outcome: 'created', remoteId: '58', message: null });
    });
    open();
    const u = userEvent.setup();
    await screen.findByText('Ana Rivera');
    await menuOf(u, 'Ana Rivera');
    await u.click(screen.getByRole('menuitem', { name: 'Retry' }));
    expect(await screen.findByText('Ana Rivera failed again')).toBeInTheDocument();
    expect(screen.getByText('Duplicate Name Exists Error: both names are taken.')).toBeInTheDocument();
    await menuOf(u, 'Ana Rivera');
    await u.click(screen.getByRole('menuitem', { name: 'Retry' }));
    expect(await screen.findByText('Ana Rivera: Created in QuickBooks Online')).toBeInTheDocument();
    expect(screen.getByText('QuickBooks Online id 58.')).toBeInTheDocument();
    expect(fake.callsTo('POST', `${API}/quickbooks/records/customer/pyr_ana/retry`)).toHaveLength(2);
    // The log and the cards are read again.
    await waitFor(() => expect(fake.callsTo('GET', `${API}/quickbooks/log`).length).toBeGreaterThan(1));
  });

  it('a refused Retry says the API’s words', async () => {
    fake.on(
      'POST',
      `${API}/quickbooks/records/invoice/inv_2/retry`,
      apiError(409, 'CONFLICT', 'A sync with QuickBooks Online is running now: try again when it has finished.'),
    );
    open();
    const u = userEvent.setup();
    await screen.findByText('Invoice #2');
    await menuOf(u, 'Invoice #2');
    await u.click(screen.getByRole('menuitem', { name: 'Retry' }));
    expect(await screen.findByText('Invoice #2 not retried')).toBeInTheDocument();
    expect(screen.getByText('A sync with QuickBooks Online is running now: try again when it has finished.')).toBeInTheDocument();
  });

  it('Link to an existing record asks for the customer’s id, checks it, shows the API’s refusal beside it, then links', async () => {
    let tries = 0;
    fake.on('PUT', `${API}/quickbooks/payers/pyr_ana/link`, (call) => {
      tries += 1;
      if (tries === 1) {
        return apiError(
          422,
          'UNPROCESSABLE_ENTITY',
          'QuickBooks Online has no customer 999. Open the customer in QuickBooks Online and copy the number from its address.',
          {
            remoteId: 'QuickBooks Online has no customer 999.',
          },
        );
      }
      return ok({
        ...failedPayer,
        id: 'log_11',
        outcome: 'info',
        remoteId: (call.body as { remoteId: string }).remoteId,
        message:
          'Linked by Owner to the existing QuickBooks Online customer 58 (“Ana Rivera”): the next sync updates that customer instead of creating another.',
      });
    });
    open();
    const u = userEvent.setup();
    await screen.findByText('Ana Rivera');
    await menuOf(u, 'Ana Rivera');
    await u.click(screen.getByRole('menuitem', { name: 'Link to an existing record' }));
    const dialog = await screen.findByRole('dialog', { name: 'Link Ana Rivera to an existing QuickBooks Online customer' });
    const input = within(dialog).getByRole('textbox', { name: 'QuickBooks Online customer id' });
    expect(within(dialog).getByText('Open the customer in QuickBooks Online: its id is the number after “nameId=” in the page’s address.')).toBeInTheDocument();

    await u.type(input, 'abc');
    await u.click(within(dialog).getByRole('button', { name: 'Link' }));
    expect(await within(dialog).findByText('An id is digits only, as in the record’s address at the provider.')).toBeInTheDocument();
    expect(fake.callsTo('PUT', `${API}/quickbooks/payers/pyr_ana/link`)).toHaveLength(0);

    await u.clear(input);
    await u.type(input, '999');
    await u.click(within(dialog).getByRole('button', { name: 'Link' }));
    expect(await within(dialog).findByText(/^QuickBooks Online has no customer 999\./)).toBeInTheDocument();

    await u.clear(input);
    await u.type(input, '58');
    await u.click(within(dialog).getByRole('button', { name: 'Link' }));
    expect(await screen.findByText('Ana Rivera linked to QuickBooks Online customer 58')).toBeInTheDocument();
    expect(fake.callsTo('PUT', `${API}/quickbooks/payers/pyr_ana/link`).at(-1)!.body).toEqual({ remoteId: '58' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('a viewer, or anyone but an owner, has no row actions', async () => {
    open(PAGE, { business: { role: 'admin' } });
    await screen.findByText('Ana Rivera');
    expect(screen.queryByRole('button', { name: 'Row actions' })).not.toBeInTheDocument();
  });
});

describe('who may change integrations', () => {
  it('a viewer sees the state and the log, and no Connect, Sync now or Disconnect', async () => {
    fake.on(
      'GET',
      API,
      ok([integration({ ...connected({ provider: 'quickbooks' }), state: 'needs_reconnect', problem: 'QuickBooks refused our access token.' }), connected()]),
    );
    fake.on('GET', `${API}/quickbooks/log`, logOf([entry(1)]));
    open(PAGE, { business: { role: 'admin' } });
    await card('FreshBooks');
    expect(
      screen.getByText('Only an owner of this business can connect, sync or disconnect integrations. You can see their state and sync logs.'),
    ).toBeInTheDocument();
    expect(screen.getByText('Only an owner of this business can reconnect it.')).toBeInTheDocument();
    for (const name of ['Connect', 'Reconnect', 'Sync now', 'Disconnect']) expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
    expect(await screen.findByText('Invoice #1')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download CSV' })).toBeInTheDocument();
  });
});

describe('the page’s states', () => {
  it('a business not yet approved is told in the API’s words, with no cards', async () => {
    fake.on('GET', API, apiError(403, 'BUSINESS_NOT_APPROVED', 'Accounting integrations open once your business is approved.'));
    open(PAGE, { business: { businessState: 'Pending' } });
    expect(await screen.findByText('Accounting integrations open once your business is approved.')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'QuickBooks Online' })).not.toBeInTheDocument();
    expect(screen.queryByRole('tab')).not.toBeInTheDocument();
  });

  it('a failed load says why, and Try again reads again', async () => {
    let fail = true;
    fake.on('GET', API, () => (fail ? apiError(500, 'INTERNAL', 'Something went wrong on our side. Please try again.') : ok([integration(), connected()])));
    open();
    expect(await screen.findByText('Integrations could not be loaded')).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'FreshBooks', level: 2 })).toBeInTheDocument();
  });
});
