import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { BillingCycleDetail, BillingRun } from '@tay/contract';
import { apiError, BUSINESS_ID, fakeApiPerTest, ok, renderAt } from '../../../test/page-harness';
import { checkBillingCycle } from '../components/billing-cycle-form-modal';
import { BillingCyclesPage } from './billing-cycles-page';

const API = `/api/businesses/${BUSINESS_ID}/billing-cycles`;
const PROGRAMS = `/api/businesses/${BUSINESS_ID}/programs`;
const PAGE = '/business/entity/billingcycle';
const STUDENT = { entities: [{ entityType: 'student' as const, entityTemplateName: 'Student' }] };

function run(over: Partial<BillingRun> = {}): BillingRun {
  return {
    runId: 'bcr_1',
    cycleId: 'bcy_1',
    period: { start: '2026-12-01', end: '2026-12-31', label: 'December 2026' },
    state: 'Drafted',
    requests: 20,
    totalCents: 250_000,
    batchId: 'bat_1',
    batchState: 'Draft',
    trigger: 'manual',
    error: null,
    startedBy: 'owner@biz.example',
    createdAt: '2026-12-01T05:00:00.000Z',
    finishedAt: '2026-12-01T05:00:01.000Z',
    ...over,
  };
}

function cycle(over: Partial<BillingCycleDetail> = {}): BillingCycleDetail {
  return {
    cycleId: 'bcy_1',
    name: 'Monthly tuition',
    schedule: 'monthly',
    dayOfMonth: 1,
    periods: [],
    programs: [{ programId: 'prg_piano', name: 'Piano', status: 'active' }],
    autoSubmit: false,
    status: 'active',
    nextRunOn: '2027-01-01',
    nextPeriod: { start: '2027-01-01', end: '2027-01-31', label: 'January 2027' },
    lastRunAt: null,
    lastRun: null,
    runsCount: 0,
    createdAt: '2026-11-01T10:00:00.000Z',
    updatedAt: '2026-11-01T10:00:00.000Z',
    actions: ['Edit', 'Run now', 'Deactivate', 'Delete'],
    runs: [],
    ...over,
  };
}

const program = (programId: string, name: string, feeCents: number) => ({
  programId,
  name,
  description: '',
  feeCents,
  frequency: 'monthly',
  startDate: '2026-09-01',
  endDate: null,
  capacity: null,
  prorate: false,
  status: 'active',
  enrolledCount: 20,
  placesLeft: null,
  createdAt: '2026-09-01T00:00:00.000Z',
  updatedAt: '2026-09-01T00:00:00.000Z',
  actions: [],
});

const fake = fakeApiPerTest();
beforeEach(() => {
  fake.on('GET', PROGRAMS, ok({ items: [program('prg_piano', 'Piano', 12_500), program('prg_violin', 'Violin', 9_000)], page: 1, pageSize: 100, total: 2 }));
});

describe('Manage Billing Cycles', () => {
  it('lists cycles with schedule, programs, next and last run, and links a run in review to its review', async () => {
    fake.on(
      'GET',
      API,
      ok({
        items: [cycle({ lastRun: run(), runsCount: 1, actions: ['Edit', 'Run now', 'Deactivate'] })],
        page: 1,
        pageSize: 25,
        total: 1,
      }),
    );
    renderAt(PAGE, { [PAGE]: <BillingCyclesPage /> }, { business: STUDENT });
    expect(await screen.findByText('Showing 1 to 1 of 1 Results')).toBeInTheDocument();
    const row = screen.getByText('Monthly tuition').closest('tr')!;
    expect(within(row).getByText('Monthly on day 1')).toBeInTheDocument();
    expect(within(row).getByText('Piano')).toBeInTheDocument();
    expect(within(row).getByText('Jan 01, 2027')).toBeInTheDocument();
    expect(within(row).getByText('bills January 2027')).toBeInTheDocument();
    expect(within(row).getByText('In review')).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: 'Review December 2026' })).toHaveAttribute('href', '/business/entity/program/billing/review?batchId=bat_1');
    const u = userEvent.setup();
    await u.click(within(row).getByRole('button', { name: 'Row actions' }));
    expect((await screen.findAllByRole('menuitem')).map((i) => i.textContent)).toEqual(['Edit', 'Run now', 'Deactivate', 'Runs']);
  });

  it('says so when there is no cycle yet', async () => {
    fake.on('GET', API, ok({ items: [], page: 1, pageSize: 25, total: 0 }));
    renderAt(PAGE, { [PAGE]: <BillingCyclesPage /> }, { business: STUDENT });
    expect(await screen.findByText('No billing cycles yet')).toBeInTheDocument();
  });

  it('creates a monthly cycle in a modal: the day of month, the programs, auto-submit', async () => {
    fake.on('GET', API, ok({ items: [], page: 1, pageSize: 25, total: 0 }));
    fake.on('POST', API, { status: 201, json: { status: 'Success', data: cycle() } });
    renderAt(PAGE, { [PAGE]: <BillingCyclesPage /> }, { business: STUDENT });
    const u = userEvent.setup();
    await u.click((await screen.findAllByRole('button', { name: 'New billing cycle' }))[0]!);
    const dialog = await screen.findByRole('dialog');
    await u.type(within(dialog).getByLabelText(/^Name/), 'Monthly tuition');
    const day = within(dialog).getByLabelText(/Day of the month/);
    await u.clear(day);
    await u.type(day, '5');
    await u.click(within(dialog).getByRole('combobox', { name: /Programs/ }));
    await u.click(await screen.findByRole('option', { name: /Piano/ }));
    await u.click(within(dialog).getByLabelText(/Submit each run at once/));
    await u.click(within(dialog).getByRole('button', { name: 'Create billing cycle' }));
    await waitFor(() => expect(fake.callsTo('POST', API)).toHaveLength(1));
    expect(fake.callsTo('POST', API)[0]!.body).toEqual({
      name: 'Monthly tuition',
      schedule: 'monthly',
      dayOfMonth: 5,
      programIds: ['prg_piano'],
      autoSubmit: true,
    });
    expect(await screen.findByText('Billing cycle created')).toBeInTheDocument();
  });

  it('checks a term cycle’s periods before sending, naming the field', async () => {
    const checked = checkBillingCycle({
      name: 'Terms',
      schedule: 'term',
      dayOfMonth: '',
      periods: [
        { start: '2027-01-05', end: '2027-03-31', label: 'Term 1' },
        { start: '2027-03-15', end: '2027-06-30', label: 'Term 2' },
      ],
      programIds: [],
      autoSubmit: false,
    });
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.errors['periods.1.start']).toMatch(/Term 2 must start after Term 1 ends/);
    expect(checked.errors.programIds).toMatch(/at least one program/);
    expect(checked.errors.dayOfMonth).toBeUndefined();
  });

  it('Run now asks first, then shows what the run made; a period billed already says so', async () => {
    fake.on('GET', API, ok({ items: [cycle()], page: 1, pageSize: 25, total: 1 }));
    fake.on('GET', `${API}/bcy_1/runs`, ok({ items: [run()], page: 1, pageSize: 10, total: 1 }));
    let answered = 0;
    fake.on('POST', `${API}/bcy_1/run`, () =>
      answered++ === 0
        ? ok({ run: run(), cycle: cycle({ lastRun: run(), runsCount: 1 }) })
        : apiError(409, 'CONFLICT', 'December 2026 was billed by this cycle on Dec 01, 2026 (run bcr_1). Monthly tuition bills each period once.'),
    );
    renderAt(PAGE, { [PAGE]: <BillingCyclesPage /> }, { business: STUDENT });
    const u = userEvent.setup();
    const runNow = async () => {
      const row = (await screen.findByText('Monthly tuition')).closest('tr')!;
      await u.click(within(row).getByRole('button', { name: 'Row actions' }));
      await u.click(await screen.findByRole('menuitem', { name: 'Run now' }));
      const confirm = await screen.findByRole('dialog');
      expect(within(confirm).getByText(/bills the current period now/)).toBeInTheDocument();
      await u.click(within(confirm).getByRole('button', { name: 'Yes, run now' }));
    };
    await runNow();
    expect(await screen.findByText(/December 2026: 20 requests for \$2,500\.00 wait in review\./)).toBeInTheDocument();
    // The cycle's runs open, with the way to the batch's review.
    expect(await screen.findByRole('link', { name: 'Review December 2026' })).toHaveAttribute('href', '/business/entity/program/billing/review?batchId=bat_1');
    await u.click(screen.getByRole('button', { name: 'Close runs' }));
    await runNow();
    expect(await screen.findByText(/December 2026 was billed by this cycle on Dec 01, 2026/)).toBeInTheDocument();
    expect(fake.callsTo('POST', `${API}/bcy_1/run`)).toHaveLength(2);
  });

  it('deletes only after confirmation', async () => {
    fake.on('GET', API, ok({ items: [cycle()], page: 1, pageSize: 25, total: 1 }));
    fake.on('DELETE', `${API}/bcy_1`, { status: 204 });
    renderAt(PAGE, { [PAGE]: <BillingCyclesPage /> }, { business: STUDENT });
    const u = userEvent.setup();
    const row = (await screen.findByText('Monthly tuition')).closest('tr')!;
    await u.click(within(row).getByRole('button', { name: 'Row actions' }));
    await u.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog');
    expect(fake.callsTo('DELETE', `${API}/bcy_1`)).toHaveLength(0);
    await u.click(within(confirm).getByRole('button', { name: 'Yes, delete' }));
    await waitFor(() => expect(fake.callsTo('DELETE', `${API}/bcy_1`)).toHaveLength(1));
    expect(await screen.findByText('Billing cycle deleted')).toBeInTheDocument();
  });

  it('shows a viewer the runs but no change or run', async () => {
    fake.on('GET', API, ok({ items: [cycle({ runsCount: 1 })], page: 1, pageSize: 25, total: 1 }));
    fake.on(
      'GET',
      `${API}/bcy_1/runs`,
      ok({ items: [run({ state: 'Submitted', batchState: 'Processed', trigger: 'schedule' })], page: 1, pageSize: 10, total: 1 }),
    );
    renderAt(PAGE, { [PAGE]: <BillingCyclesPage /> }, { business: { ...STUDENT, role: 'viewer' } });
    const u = userEvent.setup();
    const row = (await screen.findByText('Monthly tuition')).closest('tr')!;
    expect(screen.getAllByRole('button', { name: 'New billing cycle' })[0]).toBeDisabled();
    await u.click(within(row).getByRole('button', { name: 'Row actions' }));
    expect((await screen.findAllByRole('menuitem')).map((i) => i.textContent)).toEqual(['Runs']);
    await u.click(screen.getByRole('menuitem', { name: 'Runs' }));
    expect(await screen.findByRole('link', { name: 'View batch of December 2026' })).toBeInTheDocument();
    expect(screen.getByText('Submitted')).toBeInTheDocument();
  });
});
