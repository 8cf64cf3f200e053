import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ProgramBillingLine, ProgramBillingPreview } from '@tay/contract';
import { apiError, BUSINESS_ID, fakeApiPerTest, ok, renderAt, shownLocation } from '../../../test/page-harness';
import { ProgramBillingPage } from './program-billing-page';

const PAGE = '/business/entity/program/billing';
const REVIEW = '/business/entity/program/billing/review';
const BASE = `/api/businesses/${BUSINESS_ID}`;
const STUDENT = { entities: [{ entityType: 'student', entityTemplateName: 'Student' }] } as const;

function line(over: Partial<ProgramBillingLine> & { enrollmentId: string; name: string }): ProgramBillingLine {
  const { name, ...rest } = over;
  return {
    student: { studentId: `stu_${over.enrollmentId}`, studentNumber: `S-${over.enrollmentId}`, name, grade: 'Year 5', status: 'active' },
    guardian: { payerId: 'pyr_1', name: `Parent of ${name}`, email: 'parent@families.example' },
    secondGuardian: null,
    program: { programId: 'prg_piano', name: 'Piano', feeCents: 12_000, prorate: true },
    enrollmentStart: '2026-01-01',
    enrollmentEnd: null,
    amountCents: 12_000,
    days: 31,
    periodDays: 31,
    prorated: false,
    alreadyBilled: null,
    problem: null,
    ...rest,
  };
}

const PREVIEW: ProgramBillingPreview = {
  period: { start: '2026-12-01', end: '2026-12-31', label: 'December 2026' },
  lines: [
    line({ enrollmentId: 'e1', name: 'Mia Lopez' }),
    line({ enrollmentId: 'e2', name: 'Leo Lee', amountCents: 7_742, days: 20, prorated: true }),
    line({ enrollmentId: 'e3', name: 'Ana Park', alreadyBilled: { requestId: 'req_9', referenceNumber: 'TRX-10009' } }),
  ],
  totals: { count: 2, totalCents: 19_742, alreadyBilled: 1, problems: 0 },
};

const fake = fakeApiPerTest();
beforeEach(() => {
  fake.on(
    'GET',
    `${BASE}/programs`,
    ok({
      items: [
        {
          programId: 'prg_piano',
          name: 'Piano',
          description: '',
          feeCents: 12_000,
          frequency: 'monthly',
          startDate: '2026-01-01',
          endDate: null,
          capacity: null,
          prorate: true,
          status: 'active',
          enrolledCount: 3,
          placesLeft: null,
          createdAt: '2026-01-01T00:00:00.000Z',
          actions: [],
        },
      ],
      page: 1,
      pageSize: 100,
      total: 1,
    }),
  );
});

const open = (role = 'owner') => renderAt(PAGE, { [PAGE]: <ProgramBillingPage />, [REVIEW]: <p>Review page</p> }, { business: { ...STUDENT, role } as never });

async function pickPianoAndPreview(u: ReturnType<typeof userEvent.setup>) {
  await u.click(await screen.findByRole('checkbox', { name: 'Piano ($120.00)' }));
  await u.click(screen.getByRole('button', { name: 'Preview' }));
}

describe('Program Billing and Payment', () => {
  it('previews who pays what, takes an adjustment and a skip, and makes the batch for review', async () => {
    fake.on('POST', `${BASE}/program-billing/preview`, ok(PREVIEW));
    fake.on('POST', `${BASE}/program-billing`, {
      status: 201,
      json: { status: 'Success', data: { batchId: 'bat_1', rows: 1, valid: 1, invalid: 0, totalCents: 10_000 } },
    });
    open();
    const u = userEvent.setup();
    await pickPianoAndPreview(u);

    expect(await screen.findByText('Mia Lopez')).toBeInTheDocument();
    const [previewCall] = fake.callsTo('POST', `${BASE}/program-billing/preview`);
    expect(previewCall!.body).toMatchObject({ programIds: ['prg_piano'] });
    expect((previewCall!.body as { month: string }).month).toMatch(/^\d{4}-\d{2}$/);
    expect(screen.getByText('Prorated: 20 of 31 days of $120.00')).toBeInTheDocument();
    // Already billed: no amount to change, its request named.
    const billed = screen.getByText('Ana Park').closest('tr')!;
    expect(within(billed).getByText('TRX-10009')).toBeInTheDocument();
    expect(within(billed).queryByRole('textbox')).toBeNull();
    expect(screen.getByText('$197.42')).toBeInTheDocument();

    const amount = screen.getByRole('textbox', { name: 'Amount for Mia Lopez, Piano' });
    await u.clear(amount);
    await u.type(amount, '100');
    await u.click(screen.getByRole('switch', { name: 'Skip Leo Lee, Piano' }));
    expect(screen.getByText('$100.00')).toBeInTheDocument();

    await u.click(screen.getByRole('button', { name: 'Create batch for review' }));
    await waitFor(() => expect(shownLocation()).toBe(`${REVIEW}?batchId=bat_1`));
    const [made] = fake.callsTo('POST', `${BASE}/program-billing`);
    expect(made!.body).toEqual({
      programIds: ['prg_piano'],
      period: PREVIEW.period,
      dueDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      billTo: 'guardian',
      adjustments: [
        { enrollmentId: 'e1', amountCents: 10_000 },
        { enrollmentId: 'e2', skip: true },
      ],
    });
    expect(made!.headers['Idempotency-Key']).toBeTruthy();
    expect(await screen.findByText('Batch ready for review')).toBeInTheDocument();
  });

  it("shows the API's refusal beside the field it names", async () => {
    fake.on(
      'POST',
      `${BASE}/program-billing/preview`,
      apiError(400, 'VALIDATION_FAILED', 'The due date cannot be in the past.', { dueDate: 'The due date cannot be in the past.' }),
    );
    open();
    const u = userEvent.setup();
    await pickPianoAndPreview(u);
    expect(await screen.findAllByText('The due date cannot be in the past.')).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Create batch for review' })).toBeNull();
  });

  it('asks for a program before previewing', async () => {
    open();
    const u = userEvent.setup();
    await u.click(screen.getByRole('button', { name: 'Preview' }));
    expect(await screen.findByText('Choose at least one program.')).toBeInTheDocument();
    expect(fake.callsTo('POST', `${BASE}/program-billing/preview`)).toHaveLength(0);
  });

  it('a viewer previews but cannot make the batch', async () => {
    fake.on('POST', `${BASE}/program-billing/preview`, ok(PREVIEW));
    open('viewer');
    const u = userEvent.setup();
    await pickPianoAndPreview(u);
    expect(await screen.findByText('Mia Lopez')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create batch for review' })).toBeDisabled();
  });
});
