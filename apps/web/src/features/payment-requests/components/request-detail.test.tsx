import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { REQUEST_TIMELINE_EVENTS } from '@tay/contract';
import { BUSINESS_ID, ok, renderAt, fakeApiPerTest, answerBusiness } from '../../../test/page-harness';
import { approvedBusiness, detail, patientStatement, qrPayment, request } from '../../../test/fixtures';
import { wrapsAnywhere } from '../../../test/text-wrap';
import { RequestDetailDrawer } from './request-detail';

const LIST = `/api/businesses/${BUSINESS_ID}/payment-requests`;

const fake = fakeApiPerTest();

/** The drawer of a request whose timeline holds the given entries. */
async function drawerWith(timeline: { event: string; detail: string | null }[]) {
  const r = request({ transactionState: 'Pending', payerName: 'Tina Timeline' });
  fake.on(
    'GET',
    `${LIST}/${r.transactionId}`,
    ok({
      ...detail(r),
      timeline: timeline.map((e, i) => ({ at: `2026-05-0${(i % 9) + 1}T10:00:00.000Z`, actor: 'System', fromState: null, toState: null, ...e })),
    }),
  );
  renderAt('/detail', { '/detail': <RequestDetailDrawer requestId={r.transactionId} onClose={() => {}} onAction={() => {}} /> });
  return screen.findByRole('dialog', { name: `Request ${r.referenceNumber}` });
}

/** Each timeline entry's title, in order (the text the person reads as "what happened"). */
function titles(dialog: HTMLElement): string[] {
  return [...dialog.querySelectorAll('.mantine-Timeline-itemTitle')].map((t) => t.textContent ?? '');
}

describe('the request timeline', () => {
  it('labels every event the API can write in words, and shows its detail', async () => {
    const dialog = await drawerWith(REQUEST_TIMELINE_EVENTS.map((event) => ({ event, detail: `What happened at ${event}.` })));
    for (const event of REQUEST_TIMELINE_EVENTS) expect(await within(dialog).findByText(`What happened at ${event}.`)).toBeInTheDocument();
    const shown = titles(dialog);
    expect(shown).toHaveLength(REQUEST_TIMELINE_EVENTS.length);
    shown.forEach((title, i) => {
      const event = REQUEST_TIMELINE_EVENTS[i]!;
      // A label is words for a person, not the API's name for the event.
      expect(title, event).not.toBe(event);
      expect(title, event).toMatch(/^[A-Z]/);
      expect(title, event).not.toMatch(/[a-z][A-Z]/);
    });
    // Two events never read the same.
    expect(new Set(shown).size).toBe(shown.length);
  });

  it('a held scheduled send reads "Not sent (held)" with the reason and what to do', async () => {
    const reason =
      'Not sent: Pat Payer (pat@payers.example) is deactivated. It goes out once you activate the payer again, unless it has expired by then (it expires on Jul 01, 2099); or cancel it.';
    const dialog = await drawerWith([
      { event: 'create', detail: null },
      { event: 'schedule', detail: 'To be sent Jun 01, 2099 5:00' },
      { event: 'sendHeld', detail: reason },
    ]);
    expect(await within(dialog).findByText(reason)).toBeInTheDocument();
    expect(titles(dialog)).toEqual(['Created', 'Scheduled', 'Not sent (held)']);
  });
});

describe('a scheduled request', () => {
  it('reads its send time by the business’s clock, naming the zone', async () => {
    answerBusiness(fake, approvedBusiness({ timeZone: 'America/Los_Angeles' }));
    const r = request({ transactionState: 'Pending', payerName: 'Sam Scheduled' });
    fake.on('GET', `${LIST}/${r.transactionId}`, ok({ ...detail(r), sendAt: '2099-06-01T16:30:00.000Z' }));
    renderAt('/detail', { '/detail': <RequestDetailDrawer requestId={r.transactionId} onClose={() => {}} onAction={() => {}} /> });
    const dialog = await screen.findByRole('dialog', { name: `Request ${r.referenceNumber}` });
    const row = (await within(dialog).findByText('Scheduled for')).closest('tr')!;
    expect(await within(row).findByText('Jun 01, 2099 9:30 PDT')).toBeInTheDocument();
  });
});

describe('a request that collects an invoice', () => {
  it('links its invoice, and offers to edit the invoice instead of the request', async () => {
    const r = request({ transactionState: 'Pending', payerName: 'Ivy Invoiced', invoiceId: 'inv_9', invoiceNumber: 'INV-0009' });
    fake.on('GET', `${LIST}/${r.transactionId}`, ok(detail(r)));
    renderAt('/detail', { '/detail': <RequestDetailDrawer requestId={r.transactionId} onClose={() => {}} onAction={() => {}} /> });
    const dialog = await screen.findByRole('dialog', { name: `Request ${r.referenceNumber}` });
    const row = (await within(dialog).findByText('Invoice', { selector: 'th' })).closest('tr')!;
    expect(within(row).getByRole('link', { name: 'INV-0009' })).toHaveAttribute('href', '/business/payment/invoices/details?invoiceid=inv_9');
    const guidance = within(dialog).getByRole('region', { name: 'What you can do' });
    expect(within(guidance).getByRole('link', { name: 'Edit the invoice' })).toHaveAttribute('href', '/business/payment/invoices/draft?invoiceid=inv_9');
    expect(within(guidance).queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(within(guidance).getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
  });
});

describe('a payment through a QR code', () => {
  const open = (r: ReturnType<typeof request>, over: Parameters<typeof detail>[1] = {}) => {
    fake.on('GET', `${LIST}/${r.transactionId}`, ok(detail(r, over)));
    renderAt('/detail', { '/detail': <RequestDetailDrawer requestId={r.transactionId} onClose={() => {}} onAction={() => {}} /> });
    return screen.findByRole('dialog', { name: `Request ${r.referenceNumber}` });
  };

  it('names the code it came through (linking to its payments), and what the walk-in payer gave; no payer to link to', async () => {
    const r = qrPayment({ payerName: 'Walk-in payer' });
    const dialog = await open(r, { payerPhone: '+1 555 010 0123', payerNote: 'Table 4' });
    const through = await within(dialog).findByText(/^Paid through QR code/);
    expect(through).toHaveTextContent('Paid through QR code Front counter');
    expect(within(through).getByRole('link', { name: 'Front counter' })).toHaveAttribute('href', '/business/payment/qrcode/transactions?qrcodeid=qr_counter');
    expect(within(dialog).getByText('Walk-in payer')).toBeInTheDocument();
    expect(within(dialog).queryByRole('link', { name: 'Walk-in payer' })).toBeNull();
    expect(within(dialog).getByRole('row', { name: 'Payer’s phone +1 555 010 0123' })).toBeInTheDocument();
    expect(within(dialog).getByRole('row', { name: 'Payer’s note Table 4' })).toBeInTheDocument();
    // It was sent to no one, on no day.
    expect(within(dialog).queryByRole('row', { name: /^Sent by/ })).toBeNull();
    expect(within(dialog).queryByRole('row', { name: /^Due/ })).toBeNull();
  });

  it('offers only its receipt once paid: never Copy, Resend or Edit', async () => {
    const r = qrPayment();
    expect(r.actions).toEqual(['View/Download']);
    const dialog = await open(r);
    const guidance = await within(dialog).findByRole('region', { name: 'What you can do' });
    expect(
      within(guidance)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['View/Download receipt']);
    expect(guidance).toHaveTextContent('Paid through a QR code; nothing remains to pay. You can view or download the receipt.');
  });

  it('offers nothing while its payment settles', async () => {
    const dialog = await open(qrPayment({ transactionState: 'Accepted', amountPaidCents: 0, payerName: 'Sam Scan' }));
    const guidance = await within(dialog).findByRole('region', { name: 'What you can do' });
    expect(within(guidance).queryAllByRole('button')).toEqual([]);
    expect(guidance).toHaveTextContent('Sam Scan paid through a QR code; the money is being settled.');
  });

  it('a QR payment by one of the business’s payers links to the payer', async () => {
    const dialog = await open(qrPayment({ payerId: 'pyr_pat', payerName: 'Pat Payer', payerEmail: 'pat@payers.example' }));
    expect(await within(dialog).findByRole('link', { name: 'Pat Payer' })).toHaveAttribute('href', '/business/payment/payers/transactions?payerId=pyr_pat');
    expect(within(dialog).getByText(/· pat@payers\.example/)).toBeInTheDocument();
  });
});

describe('the request’s messages', () => {
  it('show each e-mail’s delivery, and why one was not delivered', async () => {
    const r = request({ transactionState: 'Sent', payerName: 'Dee Down' });
    const email = (over: Record<string, unknown>) => ({
      messageId: `msg_${Math.random()}`,
      channel: 'email',
      to: 'dee@payers.example',
      subject: `Harbor Music requests $125.00 (${r.referenceNumber})`,
      attempts: 1,
      lastError: null,
      createdAt: '2026-05-02T10:00:00.000Z',
      sentAt: null,
      ...over,
    });
    fake.on(
      'GET',
      `${LIST}/${r.transactionId}`,
      ok({
        ...detail(r),
        emails: [
          email({ delivery: 'failed', attempts: 9, lastError: '550 5.1.1 Mailbox does not exist' }),
          email({ delivery: 'retrying', attempts: 2, lastError: 'connect ECONNREFUSED 10.0.0.5:25' }),
          email({ delivery: 'delivered', attempts: 1, sentAt: '2026-05-01T10:00:05.000Z' }),
        ],
      }),
    );
    renderAt('/detail', { '/detail': <RequestDetailDrawer requestId={r.transactionId} onClose={() => {}} onAction={() => {}} /> });
    const table = await screen.findByRole('table', { name: 'Messages' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[2]!.textContent)).toEqual([
      "Not deliveredEvery attempt failed: 550 5.1.1 Mailbox does not exist. Check the payer's address, then resend the request.",
      'RetryingAttempt 2 of 9 failed: connect ECONNREFUSED 10.0.0.5:25. Tay tries again.',
      'Delivered',
    ]);
    expect(within(rows[0]!).getByText('To dee@payers.example')).toBeInTheDocument();
    expect(screen.getByRole('row', { name: 'Sent by E-mail' })).toBeInTheDocument();
  });

  it('a request sent by text message says so, and lists each text by the number it went to, beside its receipt e-mail', async () => {
    const r = request({ transactionState: 'Paid', payerName: 'Sam Text' });
    const message = { attempts: 1, lastError: null, createdAt: '2026-05-02T10:00:00.000Z', sentAt: '2026-05-02T10:00:02.000Z' };
    fake.on(
      'GET',
      `${LIST}/${r.transactionId}`,
      ok(
        detail(r, {
          channel: 'sms',
          emails: [
            {
              ...message,
              messageId: 'msg_receipt',
              channel: 'email',
              to: 'sam@payers.example',
              subject: `Receipt for ${r.referenceNumber}`,
              delivery: 'delivered',
            },
            {
              ...message,
              messageId: 'msg_link',
              channel: 'sms',
              to: '+15551234567',
              subject: '',
              delivery: 'failed',
              attempts: 9,
              lastError: '30003 Unreachable destination handset',
            },
          ],
        }),
      ),
    );
    renderAt('/detail', { '/detail': <RequestDetailDrawer requestId={r.transactionId} onClose={() => {}} onAction={() => {}} /> });
    const dialog = await screen.findByRole('dialog', { name: `Request ${r.referenceNumber}` });
    expect(await within(dialog).findByRole('row', { name: 'Sent by Text message (SMS)' })).toBeInTheDocument();
    const rows = within(await within(dialog).findByRole('table', { name: 'Messages' }))
      .getAllByRole('row')
      .slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[1]!.textContent)).toEqual([
      `Receipt for ${r.referenceNumber}To sam@payers.example`,
      'Text message to +1 555 123 4567',
    ]);
    expect(within(rows[1]!).getAllByRole('cell')[2]!.textContent).toMatch(/^Not deliveredEvery attempt failed: 30003 Unreachable destination handset\./);
  });

  it('a request not sent yet says so', async () => {
    await drawerWith([{ event: 'create', detail: null }]);
    expect(await screen.findByText('No message sent yet.')).toBeInTheDocument();
  });
});

describe('a student’s request (the student template)', () => {
  it('says whom it is for, the program and the period, linking to the student’s billing history', async () => {
    const r = request({ student: { studentId: 'stu_mia', name: 'Mia Lopez' }, program: { programId: 'prg_piano', name: 'Piano' }, period: 'December 2026' });
    fake.on('GET', `${LIST}/${r.transactionId}`, ok(detail(r)));
    renderAt('/detail', { '/detail': <RequestDetailDrawer requestId={r.transactionId} onClose={() => {}} onAction={() => {}} /> });
    const dialog = await screen.findByRole('dialog', { name: `Request ${r.referenceNumber}` });
    const line = await within(dialog).findByLabelText('Student');
    expect(line).toHaveTextContent('For Mia Lopez — Piano, December 2026');
    expect(within(line).getByRole('link', { name: 'Mia Lopez' })).toHaveAttribute(
      'href',
      expect.stringContaining('/business/entity/billing/transactions?studentId=stu_mia'),
    );
  });

  it('a request of no student says nothing of one', async () => {
    const r = request();
    fake.on('GET', `${LIST}/${r.transactionId}`, ok(detail(r)));
    renderAt('/detail', { '/detail': <RequestDetailDrawer requestId={r.transactionId} onClose={() => {}} onAction={() => {}} /> });
    const dialog = await screen.findByRole('dialog', { name: `Request ${r.referenceNumber}` });
    await within(dialog).findByRole('heading', { name: '$125.00' });
    expect(within(dialog).queryByLabelText('Student')).toBeNull();
  });
});

describe('a patient’s statement (the healthcare template)', () => {
  const statement = patientStatement();

  it('says whose statement it is, links to the patient’s history, and shows the lines and totals', async () => {
    const r = request({ amountCents: 7_500, clientId: 'pat_ana', patientName: 'Ana Lopez', statement });
    fake.on('GET', `${LIST}/${r.transactionId}`, ok(detail(r)));
    renderAt('/detail', { '/detail': <RequestDetailDrawer requestId={r.transactionId} onClose={() => {}} onAction={() => {}} /> });
    const dialog = await screen.findByRole('dialog', { name: `Request ${r.referenceNumber}` });
    const line = await within(dialog).findByLabelText('Patient');
    expect(line).toHaveTextContent('Statement for Ana Lopez — date of service Nov 20, 2026');
    expect(within(line).getByRole('link', { name: 'Ana Lopez' })).toHaveAttribute(
      'href',
      expect.stringContaining('/business/payment/transactions/history?clientId=pat_ana'),
    );
    const table = within(dialog).getByRole('table', { name: 'Statement lines' });
    expect(within(table).getByText('Office visit')).toBeInTheDocument();
    expect(within(table).getAllByText('$75.00')).toHaveLength(2);
  });

  it('a request of no patient shows no statement', async () => {
    const r = request();
    fake.on('GET', `${LIST}/${r.transactionId}`, ok(detail(r)));
    renderAt('/detail', { '/detail': <RequestDetailDrawer requestId={r.transactionId} onClose={() => {}} onAction={() => {}} /> });
    const dialog = await screen.findByRole('dialog', { name: `Request ${r.referenceNumber}` });
    await within(dialog).findByRole('heading', { name: '$125.00' });
    expect(within(dialog).queryByLabelText('Patient')).toBeNull();
    expect(within(dialog).queryByRole('table', { name: 'Statement lines' })).toBeNull();
  });
});

describe('long text in the drawer on a phone (390 px)', () => {
  it('breaks the payer’s name and e-mail, the memo with its link, the reference, the payer’s note and a timeline entry', async () => {
    const surname = 'Wolfeschlegelsteinhausenbergerdorffwelchevoralternwarengewissenhaftschaferswessenschafewarenwohlgepflege';
    const email = `${'pat.'.repeat(20)}payer@harbor-music-and-arts-academy.example`;
    const url = `https://harbor.example/terms/${'x'.repeat(200)}`;
    const r = request({
      transactionState: 'Sent',
      payerId: 'pyr_long',
      payerName: `Pat ${surname}`,
      payerEmail: email,
      memo: `Spring term\n${url}`,
      reference: 'R'.repeat(64),
    });
    fake.on(
      'GET',
      `${LIST}/${r.transactionId}`,
      ok(
        detail(r, {
          payerNote: `Table ${'4'.repeat(120)}`,
          timeline: [{ at: '2026-05-01T10:00:00.000Z', actor: email, event: 'create', fromState: null, toState: null, detail: `Noted: ${url}` }],
        }),
      ),
    );
    renderAt('/detail', { '/detail': <RequestDetailDrawer requestId={r.transactionId} onClose={() => {}} onAction={() => {}} /> });
    const dialog = await screen.findByRole('dialog', { name: `Request ${r.referenceNumber}` });
    const name = await within(dialog).findByRole('link', { name: `Pat ${surname}` });
    expect(name.parentElement).toHaveTextContent(`Pat ${surname} · ${email}`);
    expect(wrapsAnywhere(name.parentElement)).toBe(true);
    const memo = within(dialog).getByText(url, { exact: false, selector: 'td' });
    expect(memo).toHaveStyle({ overflowWrap: 'anywhere', whiteSpace: 'pre-line' });
    expect(within(dialog).getByText('R'.repeat(64))).toHaveStyle({ overflowWrap: 'anywhere' });
    expect(within(dialog).getByText(`Table ${'4'.repeat(120)}`)).toHaveStyle({ overflowWrap: 'anywhere' });
    expect(wrapsAnywhere(within(dialog).getByText(`Noted: ${url}`))).toBe(true);
    const actor = within(dialog).getByText(`Noted: ${url}`).previousElementSibling;
    expect(actor).toHaveTextContent(email);
    expect(wrapsAnywhere(actor)).toBe(true);
  });
});
