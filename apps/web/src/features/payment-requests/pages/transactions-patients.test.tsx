import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { BUSINESS_ID, fakeApiPerTest, renderAt, shownLocation } from '../../../test/page-harness';
import { listOf, request } from '../../../test/fixtures';
import { TransactionsPage } from './transactions-page';

const LIST = `/api/businesses/${BUSINESS_ID}/payment-requests`;
const HISTORY = '/business/payment/transactions/history';

const fake = fakeApiPerTest();

const page = (path = HISTORY) => renderAt(path, { [HISTORY]: <TransactionsPage view="history" /> });

describe('the history of a healthcare business (patients’ statements)', () => {
  it('shows a Patient column when a row has one', async () => {
    fake.on('GET', LIST, listOf([request({ transactionId: 'req_s', clientId: 'pat_ana', patientName: 'Ana Lopez' }), request({ transactionId: 'req_p' })]));
    page();
    const table = await screen.findByRole('table');
    expect(await within(table).findByRole('columnheader', { name: 'Patient' })).toBeInTheDocument();
    expect(within(table).getByText('Ana Lopez')).toBeInTheDocument();
  });

  it('no Patient column when no row has one', async () => {
    const plain = request();
    fake.on('GET', LIST, listOf([plain]));
    page();
    const table = await screen.findByRole('table');
    await within(table).findByText(plain.referenceNumber);
    expect(within(table).queryByRole('columnheader', { name: 'Patient' })).toBeNull();
  });

  it('?clientId= narrows the list to the patient, says so in a chip, and the chip clears it', async () => {
    fake.on('GET', LIST, listOf([request({ clientId: 'pat_ana', patientName: 'Ana Lopez' })]));
    page(`${HISTORY}?clientId=pat_ana&clientName=Ana%20Lopez`);
    expect(await screen.findByText('Patient: Ana Lopez')).toBeInTheDocument();
    await waitFor(() => expect(fake.callsTo('GET', LIST).at(-1)!.url.searchParams.get('clientId')).toBe('pat_ana'));
    await userEvent.click(screen.getByRole('button', { name: "Show every patient's requests" }));
    await waitFor(() => expect(shownLocation()).toBe(HISTORY));
    expect(screen.queryByText(/^Patient: /)).toBeNull();
  });

  it('a link with the patient’s id alone names them from the rows', async () => {
    fake.on('GET', LIST, listOf([request({ clientId: 'pat_ana', patientName: 'Ana Lopez' })]));
    page(`${HISTORY}?clientId=pat_ana`);
    expect(await screen.findByText('Patient: Ana Lopez')).toBeInTheDocument();
  });

  it('Copy on a statement opens a new statement for the patient with its lines; Copy on a plain request opens the request form', async () => {
    const statement = {
      dateOfService: '2026-11-20',
      lines: [{ serviceDate: '2026-11-20', description: 'Visit', billedCents: 5_000, insurancePaidCents: 0, adjustmentCents: 0, responsibilityCents: 5_000 }],
      totals: { billedCents: 5_000, insurancePaidCents: 0, adjustmentCents: 0, responsibilityCents: 5_000 },
    };
    const row = request({ transactionId: 'req_s', payerName: 'Gus Guarantor', clientId: 'pat_ana', patientName: 'Ana Lopez', statement });
    fake.on('GET', LIST, listOf([row]));
    renderAt(HISTORY, {
      [HISTORY]: <TransactionsPage view="history" />,
      '/business/healthcare-clients/payment/request': <p>Statement form</p>,
    });
    const tr = (await screen.findByText('Gus Guarantor')).closest('tr')!;
    await userEvent.click(within(tr).getByRole('button', { name: 'Row actions' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Copy' }));
    await waitFor(() => expect(shownLocation()).toBe('/business/healthcare-clients/payment/request?entity=true&clientId=pat_ana&copy=req_s'));
  });
});
