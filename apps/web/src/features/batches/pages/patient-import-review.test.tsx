import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Batch, BatchRow } from '@tay/contract';
import { BUSINESS_ID, fakeApiPerTest, ok, renderAt } from '../../../test/page-harness';
import { answerBatchRows, batch as batchRecord, batchRow } from '../../../test/fixtures';
import { PATIENT_IMPORT_FLOW } from '../batch-flows';
import { BatchReviewPage } from './batch-review-page';

const BATCH = `/api/businesses/${BUSINESS_ID}/batches/bat_1`;
const REVIEW = '/business/healthcare-clients/import/review';
const clinic = { entities: [{ entityType: 'healthCare', entityTemplateName: 'Healthcare' }] };

const batch = (over: Partial<Batch> = {}): Batch =>
  batchRecord({
    kind: 'patients',
    fileName: 'patients.csv',
    columns: ['MRN', 'First name', 'Last name', 'Date of birth', 'Guarantor', 'Guarantor e-mail'],
    mapping: {
      payer: 'existing',
      columns: {
        mrn: 'MRN',
        firstName: 'First name',
        lastName: 'Last name',
        dateOfBirth: 'Date of birth',
        guarantorRelationship: 'Guarantor',
        guarantorEmail: 'Guarantor e-mail',
      },
    },
    totalCents: 0,
    ...over,
  });

const rows: BatchRow[] = [
  batchRow(2, {
    status: 'sent',
    fields: {
      mrn: 'MRN-1001',
      firstName: 'Ana',
      lastName: 'Lopez',
      dateOfBirth: '1984-05-31',
      guarantorRelationship: 'self',
      guarantorEmail: 'ana@patients.example',
    },
    amountCents: 0,
    payerName: 'Ana Lopez (MRN-1001)',
    requestId: 'pat_1',
  }),
  batchRow(3, {
    status: 'invalid',
    fields: {
      mrn: 'MRN-1002',
      firstName: 'Leo',
      lastName: 'Lee',
      dateOfBirth: '2016-04-02',
      guarantorRelationship: 'cousin',
      guarantorEmail: 'sam@patients.example',
    },
    errors: { guarantorRelationship: '"cousin" is not a guarantor we know. Write self, parent, spouse, child or other (blank: self).' },
    payerName: 'Leo Lee (MRN-1002)',
  }),
];

const fake = fakeApiPerTest();
beforeEach(() => {
  answerBatchRows(fake, rows);
});

describe('the patient import review', () => {
  it('shows patients and guarantors without amounts, each problem by field, and links each made patient', async () => {
    fake.on('GET', BATCH, ok(batch({ state: 'Processed', phase: 'done', counts: { rows: 2, valid: 0, invalid: 1, sent: 1, failed: 0 } })));
    renderAt(`${REVIEW}?batchId=bat_1`, { [REVIEW]: <BatchReviewPage flow={PATIENT_IMPORT_FLOW} /> }, { business: clinic });
    const bad = (await screen.findByText('Leo Lee (MRN-1002)')).closest('tr')!;
    expect(within(bad).getByText(/Guarantor: "cousin" is not a guarantor we know/)).toBeInTheDocument();
    const made = screen.getByText('Ana Lopez (MRN-1001)').closest('tr')!;
    expect(within(made).getByText('ana@patients.example')).toBeInTheDocument();
    expect(within(made).getByRole('link', { name: 'Open the patient' })).toHaveAttribute('href', '/business/healthcare-clients/edit?clientId=pat_1');
    expect(screen.queryByRole('columnheader', { name: 'Amount' })).toBeNull();
    // The review shows no date of birth of a made patient.
    expect(screen.queryByText('1984-05-31')).toBeNull();
    expect(screen.getByRole('link', { name: 'See them in Manage Clients' })).toHaveAttribute('href', '/business/healthcare-clients');
  });
});
