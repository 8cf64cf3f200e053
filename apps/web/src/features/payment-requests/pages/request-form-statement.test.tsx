import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { BUSINESS_ID, fakeApiPerTest, ok, renderAt, shownLocation, answerBusiness } from '../../../test/page-harness';
import { approvedBusiness, detail, patientStatement, payer, request } from '../../../test/fixtures';
import { RequestFormPage } from './request-form-page';

const LIST = `/api/businesses/${BUSINESS_ID}/payment-requests`;
const FORM = '/business/payment/request';

const statement = patientStatement();

const fake = fakeApiPerTest();
beforeEach(() => {
  answerBusiness(fake, approvedBusiness());
  fake.on('GET', `/api/businesses/${BUSINESS_ID}/payers/pyr_pat`, ok(payer('Pat Payer', { payerId: 'pyr_pat' })));
});

const form = (path: string) =>
  renderAt(path, {
    [FORM]: <RequestFormPage />,
    '/business/healthcare-clients/payment/request': <p>Statement form</p>,
  });

describe('a patient’s statement on the request form (the healthcare template)', () => {
  it('editing a draft statement shows its lines and says its amount is their total', async () => {
    const draft = request({ transactionState: 'Draft', amountCents: 7_500, clientId: 'pat_ana', patientName: 'Ana Lopez', statement });
    fake.on('GET', `${LIST}/${draft.transactionId}`, ok(detail(draft)));
    form(`${FORM}?transid=${draft.transactionId}`);
    expect(await screen.findByRole('heading', { name: `Edit ${draft.referenceNumber}` })).toBeInTheDocument();
    expect(screen.getByText('A statement for Ana Lopez')).toBeInTheDocument();
    expect(screen.getByText(/the total of its lines’ patient responsibility, \$75\.00/)).toBeInTheDocument();
    expect(within(screen.getByRole('table', { name: 'Statement lines' })).getByText('Office visit')).toBeInTheDocument();
  });

  it('a statement is billed to its guarantor: no payer picker and no amount field; Save keeps its payer and total', async () => {
    const draft = request({ transactionState: 'Draft', amountCents: 7_500, clientId: 'pat_ana', patientName: 'Ana Lopez', statement });
    fake.on('GET', `${LIST}/${draft.transactionId}`, ok(detail(draft)));
    fake.on('PATCH', `${LIST}/${draft.transactionId}`, (call) => ok({ ...draft, ...(call.body as object) }));
    const u = userEvent.setup();
    form(`${FORM}?transid=${draft.transactionId}`);
    expect(await screen.findByRole('heading', { name: `Edit ${draft.referenceNumber}` })).toBeInTheDocument();
    const billedTo = screen.getByRole('alert', { name: 'Billed to' });
    expect(billedTo).toHaveTextContent('Pat Payer · pat@payers.example');
    expect(billedTo).toHaveTextContent('The patient’s guarantor. To bill someone else, make a new statement.');
    expect(screen.queryByRole('textbox', { name: 'Payer' })).toBeNull();
    expect(screen.queryByLabelText('Amount (USD)')).toBeNull();
    await u.click(screen.getByRole('button', { name: 'Save as draft' }));
    await waitFor(() => expect(fake.callsTo('PATCH', `${LIST}/${draft.transactionId}`)).toHaveLength(1));
    expect(fake.callsTo('PATCH', `${LIST}/${draft.transactionId}`)[0]!.body).toMatchObject({ payerId: 'pyr_pat', amountCents: 7_500, mode: 'draft' });
  });

  it('a scheduled statement cannot be deleted: the notice says to cancel it', async () => {
    const pending = request({
      transactionState: 'Pending',
      sendAt: '2099-03-08T10:30:00.000Z',
      amountCents: 7_500,
      clientId: 'pat_ana',
      patientName: 'Ana Lopez',
      statement,
    });
    fake.on('GET', `${LIST}/${pending.transactionId}`, ok(detail(pending)));
    form(`${FORM}?transid=${pending.transactionId}`);
    expect(await screen.findByRole('heading', { name: `Edit ${pending.referenceNumber}` })).toBeInTheDocument();
    expect(screen.getByText(/To change the lines, cancel this scheduled statement and make a new statement\./)).toBeInTheDocument();
    expect(screen.queryByText(/delete this draft/)).toBeNull();
    expect(screen.queryByLabelText('Amount (USD)')).toBeNull();
  });

  it('copying a statement opens a new statement for the patient instead', async () => {
    const sent = request({ transactionState: 'Sent', amountCents: 7_500, clientId: 'pat_ana', patientName: 'Ana Lopez', statement });
    fake.on('GET', `${LIST}/${sent.transactionId}`, ok(detail(sent)));
    form(`${FORM}?transid=${sent.transactionId}&copy=1`);
    await waitFor(() => expect(shownLocation()).toBe(`/business/healthcare-clients/payment/request?entity=true&clientId=pat_ana&copy=${sent.transactionId}`));
  });
});
