import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Batch, BatchRow } from '@tay/contract';
import { BUSINESS_ID, fakeApiPerTest, ok, renderAt } from '../../../test/page-harness';
import { STUDENT_IMPORT_FLOW } from '../batch-flows';
import { BatchReviewPage } from './batch-review-page';

const BATCH = `/api/businesses/${BUSINESS_ID}/batches/bat_1`;
const REVIEW = '/business/entity/students/import/review';
const school = { entities: [{ entityType: 'student', entityTemplateName: 'Student' }] };

const batch = (over: Partial<Batch> = {}): Batch => ({
  batchId: 'bat_1',
  kind: 'students',
  fileName: 'students.csv',
  fileBytes: 200,
  uploadedBy: 'owner@biz.example',
  createdAt: '2026-11-20T10:00:00.000Z',
  state: 'Draft',
  phase: 'validated',
  columns: ['Student id', 'First name', 'Last name', 'Guardian e-mail'],
  sample: [],
  mapping: { payer: 'existing', columns: { studentNumber: 'Student id', firstName: 'First name', lastName: 'Last name', guardianEmail: 'Guardian e-mail' } },
  duplicateOf: null,
  counts: { rows: 2, valid: 1, invalid: 1, sent: 0, failed: 0 },
  totalCents: 0,
  sentCents: 0,
  progress: { done: 0, total: 0 },
  sendAt: null,
  submittedAt: null,
  submittedBy: null,
  processedAt: null,
  updatedAt: '2026-11-20T10:00:00.000Z',
  ...over,
});

const rows: BatchRow[] = [
  {
    row: 2,
    status: 'sent',
    fields: { studentNumber: 'S-1001', firstName: 'Mia', lastName: 'Lopez', guardianEmail: 'ana@families.example' },
    errors: {},
    amountCents: 0,
    payerName: 'Mia Lopez (S-1001)',
    requestId: 'stu_1',
    referenceNumber: null,
  },
  {
    row: 3,
    status: 'invalid',
    fields: { studentNumber: 'S-1002', firstName: 'Leo', lastName: '', guardianEmail: 'sam@families.example' },
    errors: { lastName: "Enter the student's last name." },
    amountCents: null,
    payerName: 'Leo (S-1002)',
    requestId: null,
    referenceNumber: null,
  },
];

const fake = fakeApiPerTest();
beforeEach(() => {
  fake.on('GET', `${BATCH}/rows`, ok({ items: rows, page: 1, pageSize: 25, total: 2 }));
  fake.on('GET', `/api/businesses/${BUSINESS_ID}`, ok({ businessId: BUSINESS_ID, config: { timeZone: 'America/New_York' } }));
});

describe('the student import review', () => {
  it('shows students and guardians without amounts, each problem by field, and links each made student', async () => {
    fake.on('GET', BATCH, ok(batch({ state: 'Processed', phase: 'done', counts: { rows: 2, valid: 0, invalid: 1, sent: 1, failed: 0 } })));
    renderAt(`${REVIEW}?batchId=bat_1`, { [REVIEW]: <BatchReviewPage flow={STUDENT_IMPORT_FLOW} /> }, { business: school });
    const bad = (await screen.findByText('Leo (S-1002)')).closest('tr')!;
    expect(within(bad).getByText("Last name: Enter the student's last name.")).toBeInTheDocument();
    const made = screen.getByText('Mia Lopez (S-1001)').closest('tr')!;
    expect(within(made).getByText('ana@families.example')).toBeInTheDocument();
    expect(within(made).getByRole('link', { name: 'Open the student' })).toHaveAttribute('href', '/business/entity/students/edit?studentId=stu_1');
    expect(screen.queryByRole('columnheader', { name: 'Amount' })).toBeNull();
    expect(screen.queryByText('$0.00')).toBeNull();
    expect(screen.getByRole('link', { name: 'See them in Manage Students' })).toHaveAttribute('href', '/business/entity/students');
  });
});
