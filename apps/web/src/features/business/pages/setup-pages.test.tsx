import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Business, MissingItem } from '@tay/contract';
import { business } from '../../../test/fixtures';
import { answerSignedIn, BUSINESS_ID, fakeApiPerTest, ok, renderAt, shownLocation } from '../../../test/page-harness';
import { AddBankAccountPage } from './add-bank-account-page';
import { AddressPage } from './address-page';
import { ConfigPage } from './config-page';
import { OwnersPage } from './owners-page';
import { PaymentProfilePage } from './payment-profile-page';
import { SetupOverviewPage } from './setup-overview-page';
import { SetupProfilePage } from './setup-profile-page';

const BUSINESS = `/api/businesses/${BUSINESS_ID}`;

const missingBank: MissingItem = {
  section: 'bankAccount',
  field: 'settlementAccount',
  message: 'Link the bank account where Tay should send the money you collect.',
};
const missingEin: MissingItem = { section: 'profile', field: 'ein', message: 'Enter the 9-digit Employer Identification Number (EIN), like 12-3456789.' };

const fake = fakeApiPerTest();
beforeEach(() => {
  // A save re-reads the session and the user, as the header shows the business from them.
  answerSignedIn(fake);
});

/** The business as stored, and what the API says is missing after each save. */
function serve(stored: Business, missingAfterSave: MissingItem[], missingNow = missingAfterSave) {
  let saved = false;
  fake.on('GET', BUSINESS, ok(stored));
  fake.on('PATCH', `${BUSINESS}/update/prepareSubmit`, () => ok({ ready: false, missing: saved ? missingAfterSave : missingNow }));
  fake.on('PATCH', `${BUSINESS}/update`, (call) => {
    saved = true;
    const body = call.body as Partial<Business>;
    return ok({ ...stored, ...body, config: body.config ? { ...body.config, timeZoneChosen: true } : stored.config });
  });
}

const SETUP_ROUTES = {
  '/business/setup': <SetupOverviewPage />,
  '/business/setup/profile': <SetupProfilePage />,
  '/business/owner': <OwnersPage />,
  '/business/setup/address': <AddressPage />,
  '/business/setup/config': <ConfigPage />,
  '/business/setup/automations': <p>Automations page</p>,
  '/business/setup/payments': <p>Payments page</p>,
  '/business/setup/payment/profile': <PaymentProfilePage />,
};

describe('each setup page moves on to the next unfinished step after saving', () => {
  it('the address goes on to a time zone nobody has confirmed yet', async () => {
    serve(business({ config: { ...business().config, timeZoneChosen: false } }), [missingBank]);
    const u = userEvent.setup();
    renderAt('/business/setup/address', SETUP_ROUTES, { business: { businessState: 'Incomplete' } });
    await u.click(await screen.findByRole('button', { name: 'Save address' }));
    await waitFor(() => expect(shownLocation()).toBe('/business/setup/config'));
    expect(fake.callsTo('PATCH', `${BUSINESS}/update`)).toHaveLength(1);
  });

  it('the configuration skips the automations (they have defaults) and goes on to the bank account', async () => {
    serve(business({ config: { ...business().config, timeZoneChosen: false }, bankAccount: null }), [missingBank]);
    const u = userEvent.setup();
    renderAt('/business/setup/config', SETUP_ROUTES, { business: { businessState: 'Incomplete' } });
    await u.click(await screen.findByRole('button', { name: 'Save configuration' }));
    await waitFor(() => expect(shownLocation()).toBe('/business/setup/payments'));
  });

  it('comes round to an earlier step still open, and to the overview when nothing is', async () => {
    serve(business(), [missingEin]);
    const u = userEvent.setup();
    const first = renderAt('/business/setup/address', SETUP_ROUTES, { business: { businessState: 'Incomplete' } });
    await u.click(await screen.findByRole('button', { name: 'Save address' }));
    await waitFor(() => expect(shownLocation()).toBe('/business/setup/profile'));
    first.unmount();

    serve(business(), []);
    renderAt('/business/setup/address', SETUP_ROUTES, { business: { businessState: 'Incomplete' } });
    await u.click(await screen.findByRole('button', { name: 'Save address' }));
    await waitFor(() => expect(shownLocation()).toBe('/business/setup'));
  });
});

describe('the setup overview', () => {
  it('counts every card it shows, the optional automations and an unconfirmed time zone included', async () => {
    serve(business({ config: { ...business().config, timeZoneChosen: false } }), [missingEin]);
    renderAt('/business/setup', SETUP_ROUTES, { business: { businessState: 'Incomplete' } });
    expect(await screen.findByText('4 of 6 steps complete')).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: /^[A-Z][\w ]+: (complete|complete \(optional\)|\d+ to do)\b/ })).toHaveLength(6);
    expect(screen.getByRole('link', { name: /^Automations: complete \(optional\)/ })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /^Configuration: 1 to do/ })).toHaveTextContent(
      'Confirm the time zone: America/Los_Angeles, from your address in California.',
    );
  });

  it('with nothing missing, offers to submit and points at a time zone nobody confirmed', async () => {
    serve(business({ config: { ...business().config, timeZoneChosen: false } }), []);
    renderAt('/business/setup', SETUP_ROUTES, { business: { businessState: 'Incomplete' } });
    expect(await screen.findByRole('button', { name: 'Submit for review' })).toBeInTheDocument();
    expect(screen.getByText('5 of 6 steps complete')).toBeInTheDocument();
    expect(screen.getByText(/Before you do: Confirm the time zone: America\/Los_Angeles/)).toBeInTheDocument();
  });
});

describe('owners', () => {
  it('starts the first owner from the person’s profile, and masks the SSN digits', async () => {
    serve(business({ owners: [] }), [missingBank]);
    renderAt('/business/owner', SETUP_ROUTES, { business: { businessState: 'Incomplete' } });
    expect(await screen.findByLabelText('First name')).toHaveValue('Owner');
    expect(screen.getByLabelText('Last name')).toHaveValue('Person');
    expect(screen.getByLabelText('E-mail')).toHaveValue('owner@biz.example');
    expect(screen.getByLabelText('Last 4 digits of SSN')).toHaveAttribute('type', 'password');
  });

  it('shows the stored owners as they are, the SSN digits masked', async () => {
    serve(business(), [missingBank]);
    renderAt('/business/owner', SETUP_ROUTES, { business: { businessState: 'Incomplete' } });
    expect(await screen.findByLabelText('First name')).toHaveValue('Maya');
    const ssn = screen.getByLabelText('Last 4 digits of SSN');
    expect(ssn).toHaveValue('1234');
    expect(ssn).toHaveAttribute('type', 'password');
  });
});

describe('the address', () => {
  it('finds the state by part of its name', async () => {
    serve(business({ address: null }), [missingBank]);
    const u = userEvent.setup();
    renderAt('/business/setup/address', SETUP_ROUTES, { business: { businessState: 'Incomplete' } });
    await u.type(await screen.findByRole('combobox', { name: 'State' }), 'Calif');
    await u.click(await screen.findByRole('option', { name: 'California (CA)' }));
    await u.type(screen.getByLabelText('Street address'), '1 Main St');
    await u.type(screen.getByLabelText('City'), 'Fresno');
    await u.type(screen.getByLabelText('ZIP code'), '93721');
    await u.click(screen.getByRole('button', { name: 'Save address' }));
    await waitFor(() => expect(fake.callsTo('PATCH', `${BUSINESS}/update`)).toHaveLength(1));
    expect(fake.callsTo('PATCH', `${BUSINESS}/update`)[0]!.body).toMatchObject({ address: { state: 'CA', city: 'Fresno' } });
  });
});

describe('the configuration', () => {
  it('offers the time zone of the address until the business chooses one', async () => {
    serve(business({ address: { ...business().address!, state: 'TX' }, config: { ...business().config, timeZoneChosen: false } }), [missingBank]);
    const first = renderAt('/business/setup/config', SETUP_ROUTES, { business: { businessState: 'Incomplete' } });
    expect(await screen.findByRole('combobox', { name: 'Time zone' })).toHaveValue('America/Chicago');
    expect(screen.getByText(/Suggested from your address in Texas/)).toBeInTheDocument();
    first.unmount();

    serve(business({ address: { ...business().address!, state: 'TX' }, config: { ...business().config, timeZoneChosen: true } }), [missingBank]);
    renderAt('/business/setup/config', SETUP_ROUTES, { business: { businessState: 'Incomplete' } });
    expect(await screen.findByRole('combobox', { name: 'Time zone' })).toHaveValue('America/New_York');
  });

  it('turns on refunds beyond the balance, off until the business says so, and saves it', async () => {
    serve(business(), []);
    const u = userEvent.setup();
    renderAt('/business/setup/config', SETUP_ROUTES, { business: { businessState: 'Incomplete' } });
    const toggle = await screen.findByRole('switch', { name: /^Allow refunds beyond the balance/ });
    expect(toggle).not.toBeChecked();
    expect(screen.getByText(/no payout is approved until payments bring it back/)).toBeInTheDocument();
    await u.click(toggle);
    await u.click(screen.getByRole('button', { name: 'Save configuration' }));
    await waitFor(() => expect(fake.callsTo('PATCH', `${BUSINESS}/update`)).toHaveLength(1));
    expect((fake.callsTo('PATCH', `${BUSINESS}/update`)[0]!.body as { config: Record<string, unknown> }).config).toMatchObject({ allowNegativeBalance: true });
  });
});

describe('the settlement account', () => {
  it('shows the bank and masked numbers, not our internal directory id', async () => {
    serve(business(), []);
    renderAt('/business/setup/payment/profile', SETUP_ROUTES, { business: { businessState: 'Incomplete' } });
    expect(await screen.findByText('••••6789')).toBeInTheDocument();
    expect(screen.queryByText('Directory id')).toBeNull();
    expect(screen.queryByText('sandbox-tay')).toBeNull();
  });
});

describe('setup pages by role (the permission table)', () => {
  it("a member sees the business's details but cannot change them, and is told who can", async () => {
    serve(business({ businessState: 'Approved' }), []);
    renderAt('/business/setup/profile', { '/business/setup/profile': <SetupProfilePage /> }, { business: { role: 'member', businessState: 'Approved' } });
    await screen.findByText('Only an owner or admin of this business can change its details.');
    expect(screen.getByRole('button', { name: 'Save business profile' })).toBeDisabled();
  });

  it('an admin changes the details, but the settlement account is for owners', async () => {
    serve(business({ businessState: 'Approved' }), []);
    renderAt(
      '/business/setup/payment/add-bank-account',
      { '/business/setup/payment/add-bank-account': <AddBankAccountPage /> },
      { business: { role: 'admin' } },
    );
    await screen.findByText('Only an owner of this business can change its settlement bank account.');
    expect(screen.getByRole('button', { name: 'Save bank account' })).toBeDisabled();
  });
});
