import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SignedInHeader } from '../components/layout/signed-in-header';
import { RequestDetailDrawer } from '../features/payment-requests/components/request-detail';
import { useSession } from '../lib/session';
import { detail, patient as patientFixture, request } from '../test/fixtures';
import { BUSINESS_ID, FakeApi, ok, ownBusiness, renderAt, signedInUser, type ApiCall } from '../test/page-harness';
import { liveQueryKeys, useLiveUpdates } from './live-updates';
import { payoutsKey } from '../features/payouts/api/payouts-api';
import { receiversKey } from '../features/receivers/api/receivers-api';
import { reportsKey } from '../features/analytics/api/reports-api';
import { studentsKey } from '../features/students/api/students-api';
import { programsKey } from '../features/programs/api/programs-api';
import { billingCyclesKey } from '../features/billing-cycles/api/billing-cycles-api';
import { patientsKey, usePatientList, usePatientRecord } from '../features/patients/api/patients-api';

const EVENTS = `/api/businesses/${BUSINESS_ID}/changes`;

/** One connection of the event stream, fed by the test; aborting the fetch ends it, as in a browser. */
class ServerStream {
  private controller!: ReadableStreamDefaultController<Uint8Array>;
  private readonly encoder = new TextEncoder();
  readonly body: ReadableStream<Uint8Array>;
  aborted = false;

  constructor(call: ApiCall) {
    this.body = new ReadableStream({ start: (controller) => void (this.controller = controller) });
    call.signal?.addEventListener('abort', () => {
      this.aborted = true;
      this.controller.error(new DOMException('The operation was aborted.', 'AbortError'));
    });
  }

  send(event: string, data: unknown): void {
    this.controller.enqueue(this.encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
  }

  end(): void {
    this.controller.close();
  }
}

type Refusal = { status: number; json: unknown };
let fake: FakeApi;
let streams: ServerStream[];
/** Answers the server gives instead of a stream, in turn; `refuseAlways` after them. */
let refusals: Refusal[];
let refuseAlways: Refusal | null;

beforeEach(() => {
  fake = new FakeApi();
  fake.install();
  streams = [];
  refusals = [];
  refuseAlways = null;
  fake.on('GET', EVENTS, (call) => {
    const refusal = refusals.shift() ?? refuseAlways;
    if (refusal) return refusal;
    const stream = new ServerStream(call);
    streams.push(stream);
    return { stream: stream.body, headers: { 'content-type': 'text/event-stream; charset=utf-8' } };
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  setVisibility('visible');
});

function setVisibility(state: 'visible' | 'hidden') {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  document.dispatchEvent(new Event('visibilitychange'));
}

function Live() {
  useLiveUpdates({ retryDelayMs: () => 5 });
  return null;
}

/** The header as the business layout renders it, from the signed-in person's record. */
function Header() {
  const session = useSession();
  return (
    <SignedInHeader
      user={session.currentUser}
      business={session.currentUser?.businesses[0]}
      onSignOut={() => {}}
      onSelectBusiness={() => {}}
      navigation={{ opened: false, onToggle: () => {}, hiddenFrom: 'lg', controls: 'navigation' }}
    />
  );
}

async function connected(n: number): Promise<ServerStream> {
  await waitFor(() => expect(streams).toHaveLength(n));
  return streams[n - 1]!;
}

const Sent = request({ transactionState: 'Sent', payerName: 'Nora Quinn' });

function drawer() {
  fake.on('GET', `/api/businesses/${BUSINESS_ID}/payment-requests/${Sent.transactionId}`, ok(detail(Sent)));
  renderAt('/r', {
    '/r': (
      <>
        <Live />
        <RequestDetailDrawer requestId={Sent.transactionId} onClose={() => {}} onAction={() => {}} />
      </>
    ),
  });
}

const badge = async () => (await screen.findByRole('dialog', { name: `Request ${Sent.referenceNumber}` })).querySelector('[data-state]');

describe('live updates', () => {
  it('an open request drawer turns Paid when the notice of the payment arrives', async () => {
    drawer();
    const stream = await connected(1);
    expect(fake.callsTo('GET', EVENTS)[0]!.headers.Authorization).toBe('Bearer test-token');
    stream.send('ready', {});
    await waitFor(async () => expect(await badge()).toHaveTextContent('Sent'));

    fake.on(
      'GET',
      `/api/businesses/${BUSINESS_ID}/payment-requests/${Sent.transactionId}`,
      ok(detail({ ...Sent, transactionState: 'Paid', amountPaidCents: Sent.amountCents })),
    );
    stream.send('change', { kind: 'request', id: Sent.transactionId });
    await waitFor(async () => expect(await badge()).toHaveTextContent('Paid'));
  });

  it('a notice about the business reads the person’s record again: the menus open once it is approved', async () => {
    fake.on('GET', '/api/user', ok(signedInUser([ownBusiness()])));
    renderAt(
      '/h',
      {
        '/h': (
          <>
            <Live />
            <Header />
          </>
        ),
      },
      { business: { businessState: 'Pending' } },
    );
    const stream = await connected(1);
    stream.send('ready', {});
    const menu = await screen.findByRole('navigation', { name: 'Main' });
    expect(within(menu).queryByRole('link', { name: 'Payments In' })).toBeNull();

    stream.send('change', { kind: 'business', id: BUSINESS_ID });
    expect(await within(menu).findByRole('link', { name: 'Payments In' })).toBeInTheDocument();
  });

  /** The drawer of the Sent request, open on the first stream, and how many times it has read the request. */
  async function drawerOnStream() {
    drawer();
    const first = await connected(1);
    first.send('ready', {});
    await badge();
    const reads = () => fake.callsTo('GET', `/api/businesses/${BUSINESS_ID}/payment-requests/${Sent.transactionId}`).length;
    return { first, reads, before: reads() };
  }

  it('after the connection drops it reconnects, and reads again what it may have missed', async () => {
    const { first, reads, before } = await drawerOnStream();

    first.end();
    const second = await connected(2);
    expect(reads()).toBe(before);
    second.send('ready', {});
    await waitFor(() => expect(reads()).toBe(before + 1));
  });

  it('lets go of the stream while the tab is hidden, and catches up when it is shown again', async () => {
    const { first, reads, before } = await drawerOnStream();

    setVisibility('hidden');
    await waitFor(() => expect(first.aborted).toBe(true));
    setVisibility('visible');
    const second = await connected(2);
    second.send('ready', {});
    await waitFor(() => expect(reads()).toBe(before + 1));
  });

  it('stops for good when the server says the business is not the person’s (404)', async () => {
    const retryDelay = vi.fn((_attempt: number) => 5);
    refuseAlways = { status: 404, json: { status: 'Error', errorDetails: { code: 'NOT_FOUND', message: 'Business not found.' } } };
    function Refused() {
      useLiveUpdates({ retryDelayMs: retryDelay });
      return <p>page</p>;
    }
    renderAt('/x', { '/x': <Refused /> });
    await waitFor(() => expect(fake.callsTo('GET', EVENTS)).toHaveLength(1));
    // A retry would ask for its pause as soon as the answer is in.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(retryDelay).not.toHaveBeenCalled();
    expect(fake.callsTo('GET', EVENTS)).toHaveLength(1);
  });

  it('backs off when the server is busy (429), then connects', async () => {
    const retryDelay = vi.fn((_attempt: number) => 5);
    const busy = { status: 429, json: { status: 'Error', errorDetails: { code: 'RATE_LIMITED', message: 'Too many.' } } };
    refusals = [busy, busy];
    function Busy() {
      useLiveUpdates({ retryDelayMs: retryDelay });
      return null;
    }
    renderAt('/x', { '/x': <Busy /> });
    await connected(1);
    expect(fake.callsTo('GET', EVENTS)).toHaveLength(3);
    expect(retryDelay.mock.calls.map(([attempt]) => attempt)).toEqual([0, 1]);
  });
});

describe('what a payments-out notice refreshes', () => {
  it('the payouts (dashboard, queue, list) and the receivers, and nothing of the payments in', () => {
    const keys = liveQueryKeys('payout', BUSINESS_ID).map((k) => JSON.stringify(k));
    expect(keys).toContain(JSON.stringify(payoutsKey(BUSINESS_ID)));
    expect(keys).toContain(JSON.stringify(receiversKey(BUSINESS_ID)));
    expect(liveQueryKeys('request', BUSINESS_ID).map((k) => JSON.stringify(k))).not.toContain(JSON.stringify(payoutsKey(BUSINESS_ID)));
  });
});

describe('what a request notice refreshes', () => {
  it('the billing reports: a payment, a return or a send moves their figures', () => {
    const keys = liveQueryKeys('request', BUSINESS_ID).map((k) => JSON.stringify(k));
    expect(keys).toContain(JSON.stringify(reportsKey(BUSINESS_ID)));
  });
});

describe('what the templates’ lists follow', () => {
  const has = (kind: Parameters<typeof liveQueryKeys>[0], key: readonly unknown[]) =>
    liveQueryKeys(kind, BUSINESS_ID)
      .map((k) => JSON.stringify(k))
      .includes(JSON.stringify(key));

  it('students, programs, billing cycles and patients are audited: a business notice reads them again', () => {
    for (const key of [studentsKey(BUSINESS_ID), programsKey(BUSINESS_ID), billingCyclesKey(BUSINESS_ID), patientsKey(BUSINESS_ID)]) {
      expect(has('business', key)).toBe(true);
    }
  });

  it('their requests’ counts and balances, and a billing cycle’s last run, move with a request', () => {
    for (const key of [studentsKey(BUSINESS_ID), billingCyclesKey(BUSINESS_ID), patientsKey(BUSINESS_ID)]) expect(has('request', key)).toBe(true);
  });

  it('guardians and guarantors are payers: a payer notice reads the students and patients again', () => {
    expect(has('payer', studentsKey(BUSINESS_ID))).toBe(true);
    expect(has('payer', patientsKey(BUSINESS_ID))).toBe(true);
  });

  it('a notice reads the patients’ list again, never an open patient record (each read of one is a recorded view)', async () => {
    const API = `/api/businesses/${BUSINESS_ID}/healthcare-clients`;
    const patient = patientFixture({ actions: ['Edit'] });
    fake.on('GET', API, ok({ items: [patient], page: 1, pageSize: 25, total: 1 }));
    fake.on('GET', `${API}/pat_1`, ok(patient));
    const clinic = { entities: [{ entityType: 'healthCare', entityTemplateName: 'Healthcare' }] };
    // A business notice reads the person's record again too.
    fake.on('GET', '/api/user', ok(signedInUser([ownBusiness({ businessName: 'Harbor Clinic', ...clinic })])));
    function Patients() {
      const list = usePatientList({ page: 1, pageSize: 25 });
      const record = usePatientRecord('pat_1');
      return (
        <p>
          {list.data ? 'list' : ''} {record.data ? 'record' : ''}
        </p>
      );
    }
    renderAt(
      '/p',
      {
        '/p': (
          <>
            <Live />
            <Patients />
          </>
        ),
      },
      { business: clinic },
    );
    const stream = await connected(1);
    stream.send('ready', {});
    expect(await screen.findByText('list record')).toBeInTheDocument();
    const lists = () => fake.callsTo('GET', API).length;
    const before = lists();

    stream.send('change', { kind: 'request', id: null });
    await waitFor(() => expect(lists()).toBe(before + 1));
    // Opening a record is itself audited: its business notice must not read the record again.
    stream.send('change', { kind: 'business', id: BUSINESS_ID });
    await waitFor(() => expect(lists()).toBe(before + 2));
    expect(fake.callsTo('GET', `${API}/pat_1`)).toHaveLength(1);
  });
});
