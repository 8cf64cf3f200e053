import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Dispute } from '@tay/contract';
import { apiError, BUSINESS_ID, fakeApiPerTest, ok, renderAt, shownLocation } from '../../../test/page-harness';
import { DisputesPage } from './disputes-page';

const API = `/api/businesses/${BUSINESS_ID}/disputes`;
const PAGE = '/business/payment/disputes';
const fake = fakeApiPerTest();

const dispute = (over: Partial<Dispute> = {}): Dispute => ({
  disputeId: 'dsp_1',
  requestId: 'req_1',
  referenceNumber: 'TRX-1042',
  payerName: 'Dana Disputer',
  paymentId: 'pay_1',
  instrument: 'Visa •••• 0259',
  paymentAmountCents: 12_500,
  amountCents: 12_500,
  feeCents: 1_500,
  feeReturnedCents: 0,
  reason: 'fraudulent',
  state: 'NeedsResponse',
  evidenceDueAt: new Date(Date.now() + 9.5 * 86_400_000).toISOString(),
  evidence: null,
  files: [],
  submittedAt: null,
  submittedBy: null,
  closedAt: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  ...over,
});

const listOf = (items: Dispute[]) => ok({ items, page: 1, pageSize: 25, total: items.length });

describe('the Disputes page', () => {
  it('lists disputes with the days left, filters by status, and says so when there are none', async () => {
    fake.on('GET', API, (call) =>
      call.url.searchParams.get('state') === 'Won' ? listOf([]) : listOf([dispute(), dispute({ disputeId: 'dsp_2', state: 'Won', payerName: 'Wendy Won' })]),
    );
    renderAt(PAGE, { [PAGE]: <DisputesPage /> });
    const row = (await screen.findByText('Dana Disputer')).closest('tr')!;
    expect(within(row).getByText('$125.00')).toBeInTheDocument();
    expect(within(row).getByText('10 days left')).toBeInTheDocument();
    expect(within(row).getByText('Needs response')).toBeInTheDocument();
    expect(screen.getByText('Showing 1 to 2 of 2 Results')).toBeInTheDocument();
    const won = screen.getByText('Wendy Won').closest('tr')!;
    expect(within(won).queryByText(/days left/)).toBeNull();
  });

  it('opens a dispute from its row and sends the evidence, text and a file, after confirming', async () => {
    const u = userEvent.setup();
    fake.on('GET', API, listOf([dispute()]));
    fake.on('GET', `${API}/dsp_1`, ok(dispute()));
    fake.on('POST', `${API}/dsp_1/evidence`, ok(dispute({ state: 'UnderReview' })));
    renderAt(PAGE, { [PAGE]: <DisputesPage /> });
    await u.click(await screen.findByText('Dana Disputer'));
    const drawer = await screen.findByRole('dialog', { name: 'Dispute of TRX-1042' });
    expect(shownLocation()).toBe('/business/payment/disputes?dispute=dsp_1');
    expect(within(drawer).getByText(/Send evidence by .+ \(10 days left\), or accept the dispute/)).toBeInTheDocument();

    // Nothing to send is refused on the screen.
    await u.click(within(drawer).getByRole('button', { name: 'Send evidence' }));
    expect(await within(drawer).findByText('Describe what happened or attach a file: the bank decides on what you send.')).toBeInTheDocument();
    expect(fake.callsTo('POST', `${API}/dsp_1/evidence`)).toHaveLength(0);

    await u.type(within(drawer).getByLabelText('What the payer paid for'), 'Two tickets to the spring concert');
    const pdf = new File(['%PDF-1.4 receipt'], 'receipt.pdf', { type: 'application/pdf' });
    // The field's button opens the hidden file input beside it.
    expect(within(drawer).getByLabelText('Files')).toBeInTheDocument();
    await u.upload(drawer.querySelector<HTMLInputElement>('input[type="file"]')!, pdf);
    expect(await within(drawer).findByText('receipt.pdf')).toBeInTheDocument();
    await u.click(within(drawer).getByRole('button', { name: 'Send evidence' }));
    const confirm = await screen.findByRole('dialog', { name: 'Send this evidence?' });
    await u.click(within(confirm).getByRole('button', { name: 'Send evidence' }));
    await waitFor(() => expect(fake.callsTo('POST', `${API}/dsp_1/evidence`)).toHaveLength(1));
    const call = fake.callsTo('POST', `${API}/dsp_1/evidence`)[0]!;
    expect(call.body).toEqual({
      productDescription: 'Two tickets to the spring concert',
      files: [{ name: 'receipt.pdf', dataUrl: `data:application/pdf;base64,${btoa('%PDF-1.4 receipt')}` }],
    });
    expect(call.headers['Idempotency-Key']).toBeTruthy();
    expect(await screen.findByText('The dispute of $125.00 is under review.')).toBeInTheDocument();
  });

  it('accepts a dispute only after a warning naming the money, and shows the API’s refusal', async () => {
    const u = userEvent.setup();
    fake.on('GET', API, listOf([dispute()]));
    fake.on('GET', `${API}/dsp_1`, ok(dispute()));
    fake.on('POST', `${API}/dsp_1/accept`, apiError(409, 'DISPUTE_CLOSED', 'This dispute is under review: it no longer takes an answer.'));
    renderAt(`${PAGE}?dispute=dsp_1`, { [PAGE]: <DisputesPage /> });
    const drawer = await screen.findByRole('dialog', { name: 'Dispute of TRX-1042' });
    await u.click(within(drawer).getByRole('button', { name: 'Accept dispute' }));
    const confirm = await screen.findByRole('dialog', { name: 'Accept this dispute?' });
    expect(confirm).toHaveTextContent('$125.00 stays with Dana Disputer, and the $15.00 dispute fee is not returned. This cannot be undone.');
    await u.click(within(confirm).getByRole('button', { name: 'Accept dispute' }));
    expect(await screen.findByText('This dispute is under review: it no longer takes an answer.')).toBeInTheDocument();
    expect(fake.callsTo('POST', `${API}/dsp_1/accept`)).toHaveLength(1);
  });

  it('shows a member the dispute and its evidence, without the form', async () => {
    const answered = dispute({
      state: 'UnderReview',
      evidence: { customerCommunication: 'Confirmed by e-mail.' },
      files: [{ fileId: 'dfl_1', name: 'mail.png', contentType: 'image/png', sizeBytes: 2048 }],
      submittedAt: '2026-11-21T10:00:00.000Z',
      submittedBy: 'owner@biz.example',
    });
    fake.on('GET', API, listOf([answered]));
    fake.on('GET', `${API}/dsp_1`, ok(answered));
    renderAt(`${PAGE}?dispute=dsp_1`, { [PAGE]: <DisputesPage /> }, { business: { role: 'member' } });
    const drawer = await screen.findByRole('dialog', { name: 'Dispute of TRX-1042' });
    const evidence = within(drawer).getByRole('region', { name: 'Evidence sent' });
    expect(evidence).toHaveTextContent('Confirmed by e-mail.');
    expect(within(evidence).getByRole('button', { name: 'mail.png' })).toBeInTheDocument();
    expect(within(drawer).queryByRole('form', { name: 'Answer the dispute' })).toBeNull();
    expect(within(drawer).getByText(/Your evidence is with the payer’s bank/)).toBeInTheDocument();
  });

  it('tells a member why they cannot answer a dispute that needs a response', async () => {
    fake.on('GET', API, listOf([dispute()]));
    fake.on('GET', `${API}/dsp_1`, ok(dispute()));
    renderAt(`${PAGE}?dispute=dsp_1`, { [PAGE]: <DisputesPage /> }, { business: { role: 'member' } });
    const drawer = await screen.findByRole('dialog', { name: 'Dispute of TRX-1042' });
    expect(await within(drawer).findByText(/owner or admin/)).toBeInTheDocument();
    expect(within(drawer).queryByRole('button', { name: 'Send evidence' })).toBeNull();
  });
});
