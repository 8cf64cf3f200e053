import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Batch, BatchRow } from '@tay/contract';
import { BUSINESS_ID, fakeApiPerTest, ok, renderAt } from '../../../test/page-harness';
import { answerBatchRows, batch as batchRecord, batchRow } from '../../../test/fixtures';
import { PATIENT_BILLING_FLOW } from '../batch-flows';
import { BatchReviewPage } from './batch-review-page';
import { BatchUploadPage } from './batch-upload-page';
import { BatchesPage } from './batches-page';

const BATCH = `/api/businesses/${BUSINESS_ID}/batches/bat_1`;
const REVIEW = '/business/entity/billing/healthcare-clients/review-bulk-request';
const LANDING = '/business/entity/billing/healthcare-clients/bulk';
const UPLOAD = '/business/entity/billing/healthcare-clients/bulk/upload';
const clinic = { entities: [{ entityType: 'healthCare', entityTemplateName: 'Healthcare' }] };

const batch = (over: Partial<Batch> = {}): Batch =>
  batchRecord({
    kind: 'patient-billing',
    fileName: 'charges.csv',
    fileBytes: 400,
    uploadedBy: 'owner@clinic.example',
    columns: ['MRN', 'Date of service', 'Description', 'Billed', 'Insurance paid', 'Adjustment', 'Patient responsibility', 'Memo', 'Due date'],
    mapping: {
      payer: 'existing',
      columns: {
        mrn: 'MRN',
        dateOfService: 'Date of service',
        description: 'Description',
        billed: 'Billed',
        insurancePaid: 'Insurance paid',
        adjustment: 'Adjustment',
      },
    },
    counts: { rows: 5, valid: 3, invalid: 2, sent: 0, failed: 0 },
    totalCents: 16_000,
    groups: { valid: 2, sent: 0 },
    ...over,
  });

const charge = (row: number, over: Partial<BatchRow> & { fields?: Record<string, string> }): BatchRow =>
  batchRow(row, {
    ...over,
    fields: {
      mrn: 'MRN-1001',
      dateOfService: '2026-11-18',
      description: 'Office visit',
      billed: '250.00',
      insurancePaid: '180.00',
      adjustment: '20.00',
      ...over.fields,
    },
  });

const rows: BatchRow[] = [
  charge(2, { amountCents: 5_000, payerName: 'Ana Lopez (Sam Lopez)' }),
  charge(3, {
    amountCents: 2_000,
    payerName: 'Ana Lopez (Sam Lopez)',
    fields: { description: 'X-ray', billed: '120.00', insurancePaid: '100.00', adjustment: '0' },
  }),
  charge(4, {
    amountCents: 9_000,
    payerName: 'Leo Lee (Leo Lee)',
    fields: { mrn: 'MRN-1002', description: 'Physiotherapy session', billed: '90.00', insurancePaid: '0', adjustment: '' },
  }),
  charge(5, {
    status: 'invalid',
    payerName: 'Kim Park (Kim Park)',
    fields: { mrn: 'MRN-1003', description: 'Visit', billed: '100.00', insurancePaid: '50.00', adjustment: '0', patientResponsibility: '60.00' },
    errors: {
      patientResponsibility: 'The patient responsibility does not add up: $100.00 billed − $50.00 insurance paid − $0.00 adjustment is $50.00, not $60.00.',
    },
  }),
  charge(6, {
    status: 'invalid',
    amountCents: 1_000,
    payerName: 'Kim Park (Kim Park)',
    fields: { mrn: 'MRN-1003', description: 'Lab', billed: '10.00', insurancePaid: '0', adjustment: '0' },
    errors: { row: 'Another charge of this patient (row 5) has an error: fix or drop it to send this statement.' },
  }),
];

const fake = fakeApiPerTest();
beforeEach(() => {
  fake.on('GET', BATCH, ok(batch()));
  answerBatchRows(fake, rows);
});

const review = <BatchReviewPage flow={PATIENT_BILLING_FLOW} />;

describe('the patient billing review', () => {
  it('shows each charge with the patient (by MRN, never the date of birth), its problem by field, and the statements and amount to send', async () => {
    renderAt(`${REVIEW}?batchId=bat_1`, { [REVIEW]: review }, { business: clinic });
    const bad = (await screen.findAllByText('Kim Park (Kim Park)'))[0]!.closest('tr')!;
    expect(
      within(bad).getByText(
        'Patient responsibility: The patient responsibility does not add up: $100.00 billed − $50.00 insurance paid − $0.00 adjustment is $50.00, not $60.00.',
      ),
    ).toBeInTheDocument();
    expect(within(bad).getByText('MRN MRN-1003')).toBeInTheDocument();
    const held = screen.getAllByText('Kim Park (Kim Park)')[1]!.closest('tr')!;
    expect(within(held).getByText('Another charge of this patient (row 5) has an error: fix or drop it to send this statement.')).toBeInTheDocument();
    const ana = screen.getAllByText('Ana Lopez (Sam Lopez)')[0]!.closest('tr')!;
    expect(within(ana).getByText('Office visit')).toBeInTheDocument();
    expect(within(ana).getByText('$250.00')).toBeInTheDocument();
    expect(within(ana).getByText('$50.00')).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Patient (guarantor)' })).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Service date' })).toBeInTheDocument();

    // The totals: statements (one per patient), not rows.
    expect(screen.getByText('Statements')).toBeInTheDocument();
    expect(screen.getByText('One per patient, with all their charges')).toBeInTheDocument();
    expect(screen.getByText('2 statements')).toBeInTheDocument();
    expect(screen.getByText(/2 statements for \$160\.00 will be sent; 2 rows with errors will not/)).toBeInTheDocument();
    expect(screen.queryByText(/date of birth/i)).toBeNull();
  });

  it('asks before sending, saying how many statements go out', async () => {
    fake.on('POST', `${BATCH}/submit`, {
      status: 202,
      json: { status: 'Success', data: batch({ state: 'Submitted', phase: 'sending', progress: { done: 0, total: 3 } }) },
    });
    const u = userEvent.setup();
    renderAt(`${REVIEW}?batchId=bat_1`, { [REVIEW]: review }, { business: clinic });
    await u.click(await screen.findByRole('button', { name: 'Submit and send' }));
    expect(await screen.findByText('Send these statements now?')).toBeInTheDocument();
    expect(screen.getByText(/2 statements for \$160\.00 go out now, each e-mailed to the patient's guarantor/)).toBeInTheDocument();
    expect(fake.callsTo('POST', `${BATCH}/submit`)).toHaveLength(0);
    await u.click(screen.getByRole('button', { name: 'Send now' }));
    expect(await screen.findByText('Submitted')).toBeInTheDocument();
    expect(fake.callsTo('POST', `${BATCH}/submit`)).toHaveLength(1);
  });

  it('once sent, counts the statements made and links each charge to its statement', async () => {
    fake.on(
      'GET',
      BATCH,
      ok(
        batch({
          state: 'Processed',
          phase: 'done',
          counts: { rows: 3, valid: 0, invalid: 0, sent: 3, failed: 0 },
          sentCents: 16_000,
          groups: { valid: 0, sent: 2 },
        }),
      ),
    );
    const sent = rows
      .slice(0, 3)
      .map((r, i) => ({ ...r, status: 'sent' as const, requestId: i < 2 ? 'req_ana' : 'req_leo', referenceNumber: i < 2 ? 'TRX-10001' : 'TRX-10002' }));
    fake.on('GET', `${BATCH}/rows`, ok({ items: sent, page: 1, pageSize: 25, total: 3 }));
    renderAt(`${REVIEW}?batchId=bat_1`, { [REVIEW]: review }, { business: clinic });
    expect(await screen.findByText(/2 statements made \(\$160\.00\)/)).toBeInTheDocument();
    expect(await screen.findAllByRole('link', { name: 'TRX-10001' })).toHaveLength(2);
    expect(screen.getAllByRole('link', { name: 'TRX-10001' })[0]).toHaveAttribute('href', '/business/payment/transactions/history?transid=req_ana');
  });
});

describe('the patient billing landing and upload', () => {
  it('lists the batches of this kind, with the new bulk statement button', async () => {
    fake.on('GET', `/api/businesses/${BUSINESS_ID}/batches`, ok({ items: [batch()], page: 1, pageSize: 25, total: 1 }));
    renderAt(LANDING, { [LANDING]: <BatchesPage flow={PATIENT_BILLING_FLOW} /> }, { business: clinic });
    expect(await screen.findByRole('link', { name: 'charges.csv' })).toHaveAttribute('href', `${REVIEW}?batchId=bat_1`);
    expect(screen.getByRole('heading', { name: 'Request to Pay Multiple Patients' })).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: /New bulk statement/ })[0]).toHaveAttribute('href', UPLOAD);
    const call = fake.callsTo('GET', `/api/businesses/${BUSINESS_ID}/batches`)[0]!;
    expect(call.url.searchParams.get('kind')).toBe('patient-billing');
  });

  it('explains the file: one row per charge, grouped into one statement per patient', async () => {
    renderAt(UPLOAD, { [UPLOAD]: <BatchUploadPage flow={PATIENT_BILLING_FLOW} /> }, { business: clinic });
    expect(await screen.findByText(/One row per charge: the patient's MRN/)).toBeInTheDocument();
    expect(screen.getByText(/The rows of one patient make one statement to their guarantor/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download the CSV template with example rows' })).toBeInTheDocument();
  });
});
