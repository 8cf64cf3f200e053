import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Program } from '@tay/contract';
import { BUSINESS_ID, fakeApiPerTest, ok, renderAt, shownLocation } from '../../../test/page-harness';
import { program as programRecord } from '../../../test/fixtures';
import { ProgramsPage } from './programs-page';

const API = `/api/businesses/${BUSINESS_ID}/programs`;
const PAGE = '/business/entity/program';

const program = (over: Partial<Program> = {}) => programRecord({ description: 'Weekly lessons', endDate: '2027-06-30', ...over });

const fake = fakeApiPerTest();

const open = (business = {}) =>
  renderAt(
    PAGE,
    {
      [PAGE]: <ProgramsPage />,
      '/business/entity/program/students/list': <p>Program students</p>,
      '/business/entity/program/manage': <p>Program form</p>,
    },
    { business },
  );
/** A Select's input (its label also names its listbox). */
const selectInput = (label: string) => screen.getAllByLabelText(label).find((el) => el.tagName === 'INPUT')!;

describe('the programs list', () => {
  it('shows fee, frequency, dates, enrolled of capacity and status, "Showing 1 to 2 of 2 Results", and the row actions', async () => {
    const chess = program({
      programId: 'prg_2',
      name: 'Chess',
      feeCents: 5_000,
      frequency: 'term',
      endDate: null,
      capacity: null,
      placesLeft: null,
      enrolledCount: 0,
      status: 'Disabled',
      actions: ['Edit', 'Students', 'Activate', 'Delete'],
    });
    fake.on('GET', API, ok({ items: [program(), chess], page: 1, pageSize: 25, total: 2 }));
    open();
    expect(await screen.findByText('Showing 1 to 2 of 2 Results')).toBeInTheDocument();
    const piano = screen.getByText('Piano').closest('tr')!;
    expect(within(piano).getByText('$120.00')).toBeInTheDocument();
    expect(within(piano).getByText('Monthly')).toBeInTheDocument();
    expect(within(piano).getByText('Sep 01, 2026 – Jun 30, 2027')).toBeInTheDocument();
    expect(within(piano).getByText('3 / 10')).toBeInTheDocument();
    const chessRow = screen.getByText('Chess').closest('tr')!;
    expect(within(chessRow).getByText('0 (no limit)')).toBeInTheDocument();
    expect(within(chessRow).getByText('Per term')).toBeInTheDocument();
    expect(within(chessRow).getByText('Disabled')).toBeInTheDocument();

    const u = userEvent.setup();
    await u.click(within(piano).getByRole('button', { name: 'Row actions' }));
    expect((await screen.findAllByRole('menuitem')).map((i) => i.textContent)).toEqual(['Edit', 'Students', 'Enroll', 'Deactivate']);
    await u.click(screen.getByRole('menuitem', { name: 'Students' }));
    await waitFor(() => expect(shownLocation()).toBe('/business/entity/program/students/list?programId=prg_1'));
  });

  it('sends the chosen filters to the API', async () => {
    fake.on('GET', API, ok({ items: [program()], page: 1, pageSize: 25, total: 1 }));
    open();
    await screen.findByText('Piano');
    const u = userEvent.setup();
    await u.click(selectInput('Frequency'));
    await u.click(await screen.findByRole('option', { name: 'Per term' }));
    await waitFor(() => expect(fake.callsTo('GET', API).at(-1)!.url.searchParams.get('frequency')).toBe('term'));
    await u.click(selectInput('Status'));
    await u.click(await screen.findByRole('option', { name: 'Disabled' }));
    await waitFor(() => expect(fake.callsTo('GET', API).at(-1)!.url.searchParams.get('status')).toBe('Disabled'));
  });

  it('asks before Deactivate, then deactivates and says so', async () => {
    fake.on('GET', API, ok({ items: [program()], page: 1, pageSize: 25, total: 1 }));
    fake.on('POST', `${API}/prg_1/deactivate`, ok(program({ status: 'Disabled' })));
    open();
    const u = userEvent.setup();
    const row = (await screen.findByText('Piano')).closest('tr')!;
    await u.click(within(row).getByRole('button', { name: 'Row actions' }));
    await u.click(await screen.findByRole('menuitem', { name: 'Deactivate' }));
    expect(fake.callsTo('POST', `${API}/prg_1/deactivate`)).toHaveLength(0);
    await u.click(await screen.findByRole('button', { name: 'Yes, deactivate' }));
    expect(await screen.findByText('Program deactivated')).toBeInTheDocument();
    expect(fake.callsTo('POST', `${API}/prg_1/deactivate`)).toHaveLength(1);
  });

  it('asks before Delete, and shows the refusal when the program has enrollments', async () => {
    fake.on('GET', API, ok({ items: [program({ actions: ['Edit', 'Students', 'Enroll', 'Deactivate', 'Delete'] })], page: 1, pageSize: 25, total: 1 }));
    fake.on('DELETE', `${API}/prg_1`, {
      status: 409,
      json: { status: 'Error', errorDetails: { code: 'CONFLICT', message: 'Piano has enrollments, so it stays on record with them. Deactivate it instead.' } },
    });
    open();
    const u = userEvent.setup();
    const row = (await screen.findByText('Piano')).closest('tr')!;
    await u.click(within(row).getByRole('button', { name: 'Row actions' }));
    await u.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    await u.click(await screen.findByRole('button', { name: 'Yes, delete' }));
    expect(await screen.findByText('Piano has enrollments, so it stays on record with them. Deactivate it instead.')).toBeInTheDocument();
  });

  it('shows the empty state, and a viewer gets no change actions', async () => {
    fake.on('GET', API, ok({ items: [], page: 1, pageSize: 25, total: 0 }));
    open({ role: 'viewer' });
    expect(await screen.findByText('No programs yet')).toBeInTheDocument();
    expect(screen.getByText('View only')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add program' })).toBeDisabled();
  });
});
