import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Batch, BatchRow } from '@tay/contract';
import { BUSINESS_ID, fakeApiPerTest, ok, renderAt } from '../../../test/page-harness';
import { answerBatchRows, batch as batchRecord, batchRow } from '../../../test/fixtures';
import { STUDENT_IMPORT_FLOW } from '../batch-flows';
import { BatchReviewPage } from './batch-review-page';

const BATCH = `/api/businesses/${BUSINESS_ID}/batches/bat_1`;
const REVIEW = '/business/entity/students/import/review';
const school = { entities: [{ entityType: 'student', entityTemplateName: 'Student' }] };

const batch = (over: Partial<Batch> = {}): Batch =>
  batchRecord({
    kind: 'students',
    fileName: 'students.csv',
    columns: ['Student id', 'First name', 'Last name', 'Guardian e-mail'],
    mapping: { payer: 'existing', columns: { studentNumber: 'Student id', firstName: 'First name', lastName: 'Last name', guardianEmail: 'Guardian e-mail' } },
    totalCents: 0,
    ...over,
  });

const rows: BatchRow[] = [
  batchRow(2, {
    status: 'sent',
    fields: { studentNumber: 'S-1001', firstName: 'Mia', lastName: 'Lopez', guardianEmail: 'ana@families.example' },
    amountCents: 0,
    payerName: 'Mia Lopez (S-1001)',
    requestId: 'stu_1',
  }),
  batchRow(3, {
    status: 'invalid',
    fields: { studentNumber: 'S-1002', firstName: 'Leo', lastName: '', guardianEmail: 'sam@families.example' },
    errors: { lastName: "Enter the student's last name." },
    payerName: 'Leo (S-1002)',
  }),
];

const fake = fakeApiPerTest();
beforeEach(() => {
  answerBatchRows(fake, rows);
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
