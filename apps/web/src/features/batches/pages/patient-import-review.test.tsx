import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Batch, BatchRow } from '@tay/contract';
import { BUSINESS_ID, fakeApiPerTest, ok, renderAt } from '../../../test/page-harness';
import { PATIENT_IMPORT_FLOW } from '../batch-flows';
import { BatchReviewPage } from './batch-review-page';

const BATCH = `/api/businesses/${BUSINESS_ID}/batches/bat_1`;
const REVIEW = '/business/healthcare-clients/import/review';
const clinic = { entities: [{ entityType: 'healthCare', entityTemplateName: 'Healthcare' }] };

const batch = (over: Partial<Batch> = {}): Batch => ({
  batchId: 'bat_1',
  kind: 'patients',
  fileName: 'patients.csv',
  fileBytes: 200,
  uploadedBy: 'owner@biz.example',
  createdAt: '2026-11-20T10:00:00.000Z',
  state: 'Draft',
  phase: 'validated',
  columns: ['MRN', 'First name', 'Last name', 'Date of birth', 'Guarantor', 'Guarantor e-mail'],
  sample: [],
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
    fields: {
      mrn: 'MRN-1001',
      firstName: 'Ana',
      lastName: 'Lopez',
      dateOfBirth: '1984-05-31',
      guarantorRelationship: 'self',
      guarantorEmail: 'ana@patients.example',
    },
    errors: {},
    amountCents: 0,
    payerName: 'Ana Lopez (MRN-1001)',
    requestId: 'pat_1',
    referenceNumber: null,
  },
  {
    row: 3,
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
    amountCents: null,
    payerName: 'Leo Lee (MRN-1002)',
    requestId: null,
    referenceNumber: null,
  },
];

const fake = fakeApiPerTest();
beforeEach(() => {
  fake.on('GET', `${BATCH}/rows`, ok({ items: rows, page: 1, pageSize: 25, total: 2 }));
  fake.on('GET', `/api/businesses/${BUSINESS_ID}`, ok({ businessId: BUSINESS_ID, config: { timeZone: 'America/New_York' } }));
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
