import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Button } from '@mantine/core';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { payoutEndpoints } from '@tay/contract';
import { callForData } from '../../lib/endpoint-client';
import { BUSINESS_ID, fakeApiPerTest, ok, renderAt } from '../../test/page-harness';
import { AmountConfirmation } from './amount-confirmation';

const SUBMIT = `/api/businesses/${BUSINESS_ID}/payouts/pout_1/submit`;
const fake = fakeApiPerTest();

/** A page that submits a payout, as the payouts pages do, and says what came back. */
function Submitter() {
  const [said, setSaid] = useState('');
  return (
    <>
      <Button
        onClick={() =>
          callForData(payoutEndpoints.submit, { params: { id: BUSINESS_ID, payoutId: 'pout_1' }, body: {}, headers: { 'Idempotency-Key': 'k-1' } }).then(
            (p) => setSaid(`Submitted ${p.reference}`),
            (error: Error) => setSaid(error.message),
          )
        }
      >
        Submit it
      </Button>
      <p>{said}</p>
    </>
  );
}

const refusal = {
  status: 422,
  headers: { 'content-type': 'application/json', 'confirm-amount-cents': '1000000000' },
  json: {
    status: 'Error',
    errorDetails: {
      code: 'AMOUNT_CONFIRMATION_REQUIRED',
      message: 'too large',
      fields: { confirmedAmountCents: 'too large' },
    },
  },
};

function answerSubmit() {
  fake.on('POST', SUBMIT, (call) => {
    const body = call.body as { confirmedAmountCents?: number };
    if (body.confirmedAmountCents !== 1_000_000_000) return refusal;
    return ok({ ...payoutDetail(), state: 'Approved' });
  });
}

function payoutDetail() {
  return {
    payoutId: 'pout_1',
    number: 1000,
    reference: 'PAY-1000',
    receiverId: 'rcv_1',
    receiverName: 'Riley Receiver',
    receiverEmail: 'riley@example.com',
    receiverReviewed: true,
    amountCents: 1_000_000_000,
    feeCents: 25,
    memo: '',
    payOn: null,
    state: 'Approved',
    batchId: null,
    eventId: null,
    rejectReason: null,
    failureReason: null,
    submittedBy: 'owner@biz.example',
    submittedAt: '2026-11-25T10:00:00.000Z',
    createdByUserId: 'usr_1',
    secondApproverRequired: false,
    approvedBy: 'owner@biz.example',
    approvedAt: '2026-11-25T10:00:00.000Z',
    processedAt: null,
    createdAt: '2026-11-25T10:00:00.000Z',
    updatedAt: '2026-11-25T10:00:00.000Z',
    actions: ['Copy'],
    receiver: { name: 'Riley Receiver', email: 'riley@example.com', bankName: null, accountMasked: null, verified: true, active: true },
    timeline: [],
  };
}

const open = () =>
  renderAt('/p', {
    '/p': (
      <>
        <AmountConfirmation />
        <Submitter />
      </>
    ),
  });

describe('a large amount the API asks to confirm', () => {
  it('is asked with the amount in figures and in words, then sent again with it repeated under the same key', async () => {
    answerSubmit();
    open();
    await userEvent.click(screen.getByRole('button', { name: 'Submit it' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('$10,000,000.00')).toBeInTheDocument();
    expect(within(dialog).getByText('ten million dollars')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes, send $10,000,000.00' }));
    expect(await screen.findByText('Submitted PAY-1000')).toBeInTheDocument();
    const calls = fake.callsTo('POST', SUBMIT);
    expect(calls.map((c) => c.body)).toEqual([{}, { confirmedAmountCents: 1_000_000_000 }]);
    expect(calls.map((c) => c.headers['Idempotency-Key'])).toEqual(['k-1', 'k-1']);
  });

  it('sends nothing more when the person goes back, and says so', async () => {
    answerSubmit();
    open();
    await userEvent.click(screen.getByRole('button', { name: 'Submit it' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Go back' }));
    expect(await screen.findByText('Nothing was sent: the amount was not confirmed.')).toBeInTheDocument();
    await waitFor(() => expect(fake.callsTo('POST', SUBMIT)).toHaveLength(1));
  });
});
