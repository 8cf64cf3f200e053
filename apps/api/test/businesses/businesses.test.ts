import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { COMMANDS } from '../../src/ops/commands';
import { errorOf, registeredUser } from '../support/identity';
import { ACCOUNT_NUMBER, ADDRESS, BANK, completeSetup, createBusiness, OWNER, PNG_BASE64, PROFILE, request, ROUTING_NUMBER } from '../support/businesses';
import { createTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
beforeAll(async () => {
  // Operations approve by hand in this file; the auto-approval job has its own file.
  t = await createTestApp({ SANDBOX_AUTO_APPROVE: 'false' });
});
afterAll(async () => t?.close());

const url = (id: string, rest = '') => `/api/businesses/${id}${rest}`;

async function events(businessId: string) {
  return t.runtime.database.db
    .selectFrom('business_events')
    .select(['actor_user_id', 'actor', 'action', 'details'])
    .where('business_id', '=', businessId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Runs an operator command as `npm run ops` would, returning what it printed. */
async function ops(name: string, ...args: string[]): Promise<string> {
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  try {
    await COMMANDS[name]!.run(t.runtime, args);
    return log.mock.calls.map((call) => call.join(' ')).join('\n');
  } finally {
    log.mockRestore();
  }
}

describe('create and read a business', () => {
  it('creates an Incomplete business owned by the creator, with the chosen template', async () => {
    const token = await registeredUser(t.app, 'create@example.com');
    const res = await request(t.app, 'POST', '/api/businesses', token, { businessName: '  Little Oaks School ', entityType: 'student' });
    expect(res.statusCode).toBe(201);
    const business = res.json().data;
    expect(res.json().status).toBe('Success');
    expect(business.businessId).toMatch(/^biz_[0-9a-z]{26}$/);
    expect(business).toMatchObject({
      businessName: 'Little Oaks School',
      businessState: 'Incomplete',
      payoutEnabled: 0,
      entities: [{ entityType: 'student', entityTemplateName: 'School' }],
      businessProfile: { logoUrl: null, ein: null, mcc: null },
      address: null,
      owners: [],
      config: { timeZone: 'America/New_York', defaultExpiryDays: 30, reminderSchedule: [-3, 0, 3], invoiceTerms: null },
      automations: { autoReminders: true, autoExpire: true },
      bankAccount: null,
      submittedAt: null,
      approvedAt: null,
      stateReason: null,
    });
    expect(business.businessProfile.legalName).toBeUndefined();

    const read = await request(t.app, 'GET', url(business.businessId), token);
    expect(read.statusCode).toBe(200);
    expect(read.json().data).toEqual(business);

    const member = await t.runtime.database.db
      .selectFrom('business_members')
      .select(['role'])
      .where('business_id', '=', business.businessId)
      .executeTakeFirstOrThrow();
    expect(member.role).toBe('owner');
    const [created] = await events(business.businessId);
    expect(created).toMatchObject({
      actor: 'create@example.com',
      action: 'business.created',
      details: { businessName: 'Little Oaks School', entityType: 'student' },
    });
    expect(created!.actor_user_id).toMatch(/^usr_/);
  });

  it('refuses a missing name or an unknown template, naming the field', async () => {
    const token = await registeredUser(t.app, 'create-bad@example.com');
    const noName = await request(t.app, 'POST', '/api/businesses', token, { businessName: '  ', entityType: 'standard' });
    expect(noName.statusCode).toBe(400);
    expect(errorOf(noName).fields).toEqual({ businessName: 'Enter the name of your business.' });
    const badType = await request(t.app, 'POST', '/api/businesses', token, { businessName: 'X', entityType: 'casino' });
    expect(badType.statusCode).toBe(400);
    expect(Object.keys(errorOf(badType).fields!)).toEqual(['entityType']);
  });

  it('GET /api/user lists the businesses, first created first, with the person’s role, payouts and logo', async () => {
    const token = await registeredUser(t.app, 'two@example.com');
    const first = await createBusiness(t.app, token, { businessName: 'First', entityType: 'healthCare' });
    await createBusiness(t.app, token, { businessName: 'Second', entityType: 'standard' });
    const me = (await request(t.app, 'GET', '/api/user', token)).json().data;
    expect(me.businesses).toEqual([
      {
        businessId: first.businessId,
        businessName: 'First',
        businessState: 'Incomplete',
        role: 'owner',
        payoutEnabled: 0,
        entities: [{ entityType: 'healthCare', entityTemplateName: 'Healthcare' }],
        businessProfile: { logoUrl: null },
      },
      expect.objectContaining({ businessName: 'Second', entities: [{ entityType: 'standard', entityTemplateName: 'Standard' }] }),
    ]);
  });
});

describe('update: each setup section', () => {
  let token: string;
  let id: string;
  beforeAll(async () => {
    token = await registeredUser(t.app, 'setup@example.com');
    id = (await createBusiness(t.app, token)).businessId;
  });
  const update = (body: unknown) => request(t.app, 'PATCH', url(id, '/update'), token, body);

  it('profile: stores the EIN as 9 digits and returns it formatted', async () => {
    const res = await update({ businessProfile: { ...PROFILE, ein: '987654321' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.businessProfile).toEqual({ ...PROFILE, ein: '98-7654321', nonProfitCode: null, logoUrl: null });
    const row = await t.runtime.database.db.selectFrom('businesses').select(['ein', 'legal_name']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toEqual({ ein: '987654321', legal_name: 'Acme Learning LLC' });
  });

  it('profile: an absent optional field keeps its value; null clears it', async () => {
    const res = await update({ businessProfile: { legalName: 'Acme Learning LLC', website: null } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.businessProfile).toMatchObject({ ein: '98-7654321', mcc: '8211', website: null, phone: PROFILE.phone });
    await update({ businessProfile: PROFILE });
  });

  it('profile: any address and e-mail the form takes can be read back (international and unusual ones)', async () => {
    const res = await update({ businessProfile: { ...PROFILE, website: 'https://café.example/menu a', email: 'billing@b-.com' } });
    expect(res.statusCode, res.body).toBe(200);
    const read = await request(t.app, 'GET', url(id, ''), token);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().data.businessProfile).toMatchObject({ website: 'https://café.example/menu a', email: 'billing@b-.com' });
    await update({ businessProfile: PROFILE });
  });

  it('profile: invalid input is refused with one message per field', async () => {
    const res = await update({
      businessProfile: { legalName: '', ein: '12-34', mcc: '12', email: 'not-mail', website: 'example' },
    });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res)).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(errorOf(res).fields).toEqual({
      'businessProfile.legalName': 'Enter the legal name of the business.',
      'businessProfile.ein': 'Enter the 9-digit EIN, like 12-3456789.',
      'businessProfile.mcc': 'Choose a merchant category.',
      'businessProfile.email': 'Enter a valid e-mail address.',
      'businessProfile.website': 'Enter a full web address, like https://example.com.',
    });
  });

  it('profile: codes must exist in the reference lists; web addresses must be http(s)', async () => {
    const res = await update({
      businessProfile: { ...PROFILE, mcc: '0001', corporateStructure: 'pirate_ship', website: 'javascript:alert(1)', phone: '12' },
    });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).fields).toEqual({
      'businessProfile.mcc': '0001 is not a merchant category code; choose one from the list.',
      'businessProfile.corporateStructure': '"pirate_ship" is not a corporate structure we know; choose one from the list.',
      'businessProfile.website': 'Enter a web address that starts with https:// or http://, like https://example.com.',
      'businessProfile.phone': 'Enter the phone number with its area code, like (555) 123-4567.',
    });
    expect(errorOf(res).message).toBe(
      'Please correct the highlighted fields: businessProfile.corporateStructure, businessProfile.mcc, businessProfile.website, businessProfile.phone.',
    );
  });

  it('profile: a non-profit code only with a non-profit structure, and only a known one', async () => {
    const llc = await update({ businessProfile: { ...PROFILE, nonProfitCode: '501(c)(3)' } });
    expect(llc.statusCode).toBe(400);
    expect(errorOf(llc).fields).toEqual({
      'businessProfile.nonProfitCode':
        'A non-profit code applies only when the corporate structure is a non-profit organization; choose that structure or leave the code empty.',
    });
    const unknown = await update({ businessProfile: { ...PROFILE, corporateStructure: 'non_profit', nonProfitCode: '501(c)(99)' } });
    expect(errorOf(unknown).fields).toEqual({
      'businessProfile.nonProfitCode': '"501(c)(99)" is not an IRS non-profit code; choose one from the list, such as 501(c)(3).',
    });
    const ok = await update({ businessProfile: { ...PROFILE, mcc: '8398', corporateStructure: 'non_profit', nonProfitCode: '501(c)(3)' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.businessProfile).toMatchObject({ corporateStructure: 'non_profit', nonProfitCode: '501(c)(3)', mcc: '8398' });
    // Leaving the non-profit structure drops the code that no longer applies.
    const back = await update({ businessProfile: { legalName: PROFILE.legalName, corporateStructure: 'llc', mcc: '8211' } });
    expect(back.json().data.businessProfile).toMatchObject({ corporateStructure: 'llc', nonProfitCode: null });
  });

  it('address: a US address; state and ZIP are checked', async () => {
    const bad = await update({ address: { ...ADDRESS, state: 'XX', postalCode: '123', city: '' } });
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad).fields).toEqual({
      'address.city': 'Enter the city.',
      'address.state': 'Choose a state.',
      'address.postalCode': 'Enter a 5-digit ZIP code (or ZIP+4).',
    });
    const ok = await update({ address: ADDRESS });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.address).toEqual(ADDRESS);
  });

  it('owners: replaced as a whole list, ids kept for owners sent back', async () => {
    const first = await update({ owners: [OWNER, { ...OWNER, firstName: 'Ben', ownershipPercent: 40, email: 'ben@acme.example' }] });
    expect(first.statusCode, first.body).toBe(200);
    const owners = first.json().data.owners;
    expect(owners.map((o: { firstName: string }) => o.firstName)).toEqual(['Ana', 'Ben']);
    expect(owners[0]).toEqual({ ...OWNER, id: expect.stringMatching(/^own_/) });

    const replaced = await update({ owners: [{ ...owners[1], ownershipPercent: 100 }] });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json().data.owners).toEqual([{ ...owners[1], ownershipPercent: 100 }]);
    const stored = await t.runtime.database.db.selectFrom('business_owners').select('id').where('business_id', '=', id).execute();
    expect(stored).toEqual([{ id: owners[1].id }]);
  });

  it('owners: more than 100 % in total is refused', async () => {
    const res = await update({ owners: [OWNER, { ...OWNER, firstName: 'Ben', ownershipPercent: 41 }] });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).fields).toEqual({ owners: 'Ownership adds up to more than 100 %.' });
  });

  it('owners: each field is checked, and owners are adults', async () => {
    const res = await update({
      owners: [
        { ...OWNER, ssnLast4: '12a4', ownershipPercent: 10.5, email: 'x' },
        { ...OWNER, dateOfBirth: '2015-01-01', ownershipPercent: 10 },
      ],
    });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).fields).toEqual({
      'owners.0.ownershipPercent': 'Use a whole percentage.',
      'owners.0.ssnLast4': 'Enter the last 4 digits of the SSN.',
      'owners.0.email': 'Enter a valid e-mail address.',
    });
    const minor = await update({ owners: [{ ...OWNER, dateOfBirth: '2015-01-01' }] });
    expect(errorOf(minor).fields).toEqual({ 'owners.0.dateOfBirth': 'Owners must be at least 18 years old.' });
    const future = await update({ owners: [{ ...OWNER, dateOfBirth: '2999-01-01' }] });
    expect(errorOf(future).fields).toEqual({ 'owners.0.dateOfBirth': 'The date of birth cannot be in the future.' });
  });

  it('config and automations', async () => {
    const ok = await update({
      config: { timeZone: 'America/Chicago', defaultExpiryDays: 14, reminderSchedule: [3, -7, 0], invoiceTerms: 'Net 15' },
      automations: { autoReminders: false, autoExpire: true },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.config).toEqual({
      timeZone: 'America/Chicago',
      defaultExpiryDays: 14,
      reminderSchedule: [-7, 0, 3],
      invoiceTerms: 'Net 15',
      // Not sent: the amount limits and the negative balance keep their defaults.
      confirmAboveCents: 1_000_000,
      amountCeilingCents: 1_000_000_000,
      allowNegativeBalance: false,
      timeZoneChosen: true,
    });
    expect(ok.json().data.automations).toEqual({ autoReminders: false, autoExpire: true });

    const bad = await update({ config: { timeZone: 'Mars/Olympus_Mons', defaultExpiryDays: 0, reminderSchedule: [1, 1] } });
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad).fields).toEqual({ 'config.defaultExpiryDays': 'Too small: expected number to be >=1' });
    const badZone = await update({ config: { timeZone: 'Mars/Olympus_Mons', defaultExpiryDays: 5, reminderSchedule: [1, 1] } });
    expect(errorOf(badZone).fields).toEqual({
      'config.timeZone': '"Mars/Olympus_Mons" is not a time zone; choose one from the list, like America/New_York.',
      'config.reminderSchedule': 'Each reminder day can appear only once.',
    });
  });

  it('an empty update is refused', async () => {
    const res = await update({});
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).fields).toEqual({ body: 'Send at least one section to update.' });
  });

  it('every change writes one audit event naming the changed fields (and an unchanged update none)', async () => {
    const before = (await events(id)).length;
    await update({ businessName: 'Acme Learning Centre', config: { timeZone: 'America/Denver', defaultExpiryDays: 14, reminderSchedule: [-7, 0, 3] } });
    const after = await events(id);
    expect(after).toHaveLength(before + 1);
    expect(after.at(-1)).toMatchObject({
      actor: 'setup@example.com',
      action: 'business.updated',
      details: { changes: ['businessName', 'config.timeZone'] },
    });
    await update({ businessName: 'Acme Learning Centre' });
    expect(await events(id)).toHaveLength(before + 1);
  });
});

describe('prepare-submit, submit, review by operations', () => {
  let token: string;
  let id: string;
  beforeAll(async () => {
    token = await registeredUser(t.app, 'owner@acme.example');
    id = (await createBusiness(t.app, token, { businessName: 'Acme Learning', entityType: 'standard' })).businessId;
  });

  it('prepareSubmit lists every missing item in words a person can act on', async () => {
    // No body, as the web client sends it: Content-Type JSON and nothing else.
    const res = await t.app.inject({
      method: 'PATCH',
      url: url(id, '/update/prepareSubmit'),
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      status: 'Success',
      data: {
        ready: false,
        missing: [
          { section: 'profile', field: 'legalName', message: 'Enter the legal name of the business, as registered with the IRS.' },
          { section: 'profile', field: 'ein', message: 'Enter the 9-digit Employer Identification Number (EIN), like 12-3456789.' },
          { section: 'profile', field: 'mcc', message: 'Choose the merchant category that best describes what the business sells.' },
          { section: 'profile', field: 'corporateStructure', message: 'Choose the corporate structure, such as LLC or sole proprietorship.' },
          { section: 'profile', field: 'phone', message: 'Enter the phone number of the business.' },
          { section: 'profile', field: 'email', message: 'Enter the e-mail address of the business.' },
          { section: 'address', field: 'line1', message: 'Add the business address: street, city, state and ZIP code.' },
          { section: 'owners', field: 'owner', message: 'Add at least one owner: a person who owns or controls the business.' },
          { section: 'bankAccount', field: 'settlementAccount', message: 'Link the bank account where Tay should send the money you collect.' },
        ],
      },
    });
  });

  it('a non-profit also needs its non-profit code', async () => {
    await request(t.app, 'PATCH', url(id, '/update'), token, {
      businessProfile: { ...PROFILE, corporateStructure: 'non_profit' },
    });
    const res = await request(t.app, 'PATCH', url(id, '/update/prepareSubmit'), token);
    expect(res.json().data.missing).toContainEqual({
      section: 'profile',
      field: 'nonProfitCode',
      message: 'Choose the IRS code the organization is exempt under, such as 501(c)(3).',
    });
  });

  it('submit while something is missing: 422 with the missing items keyed section.field', async () => {
    const res = await request(t.app, 'PATCH', url(id, '/update/submit'), token);
    expect(res.statusCode).toBe(422);
    expect(errorOf(res)).toEqual({
      code: 'UNPROCESSABLE_ENTITY',
      message: 'The business cannot be submitted yet: 4 details are missing.',
      fields: {
        'profile.nonProfitCode': 'Choose the IRS code the organization is exempt under, such as 501(c)(3).',
        'address.line1': 'Add the business address: street, city, state and ZIP code.',
        'owners.owner': 'Add at least one owner: a person who owns or controls the business.',
        'bankAccount.settlementAccount': 'Link the bank account where Tay should send the money you collect.',
      },
    });
    expect((await request(t.app, 'GET', url(id), token)).json().data.businessState).toBe('Incomplete');
  });

  it('ops cannot approve a business that was never submitted', async () => {
    await expect(ops('approve-business', id)).rejects.toThrow(
      'Acme Learning (' + id + ') has not been submitted yet; only a Pending business can be approved. The owner submits it from the portal first.',
    );
    await expect(ops('enable-payouts', id)).rejects.toThrow('is Incomplete: payouts can be turned on only for an approved business.');
  });

  it('once complete, prepareSubmit is ready and submit moves it to Pending', async () => {
    await request(t.app, 'PATCH', url(id, '/update'), token, { businessProfile: PROFILE });
    await completeSetup(t.app, token, id);
    const ready = await request(t.app, 'PATCH', url(id, '/update/prepareSubmit'), token);
    expect(ready.json().data).toEqual({ ready: true, missing: [] });

    // The web app sends the business payload along with submit (docs/product.md §7); it is not needed.
    const res = await request(t.app, 'PATCH', url(id, '/update/submit'), token, { businessName: 'ignored' });
    expect(res.statusCode, res.body).toBe(200);
    const business = res.json().data;
    expect(business.businessState).toBe('Pending');
    expect(business.businessName).toBe('Acme Learning');
    expect(Date.now() - Date.parse(business.submittedAt)).toBeLessThan(60_000);
    expect((await events(id)).at(-1)).toMatchObject({
      action: 'business.submitted',
      actor: 'owner@acme.example',
      details: { from: 'Incomplete', to: 'Pending' },
    });
    const me = (await request(t.app, 'GET', '/api/user', token)).json().data;
    expect(me.businesses[0]).toMatchObject({ businessId: id, businessState: 'Pending' });
  });

  it('while Pending, nothing can be changed, nor submitted again', async () => {
    const message = 'This business has been submitted and is being reviewed; its details cannot change until the review is finished.';
    const writes = [
      await request(t.app, 'PATCH', url(id, '/update'), token, { businessName: 'New name' }),
      await request(t.app, 'POST', url(id, '/bank-accounts'), token, BANK),
      await request(t.app, 'POST', url(id, '/logo'), token, { dataUrl: `data:image/png;base64,${PNG_BASE64}` }),
    ];
    for (const res of writes) {
      expect(res.statusCode).toBe(409);
      expect(errorOf(res)).toEqual({ code: 'CONFLICT', message });
    }
    const again = await request(t.app, 'PATCH', url(id, '/update/submit'), token);
    expect(again.statusCode).toBe(409);
    expect(errorOf(again).message).toBe('This business has already been submitted and is waiting for review.');
  });

  it('operations approve it (by the owner e-mail), audited as operations', async () => {
    const printed = await ops('approve-business', 'Owner@Acme.example');
    expect(printed).toBe(`Approved Acme Learning (${id}): Pending → Approved.`);
    const business = (await request(t.app, 'GET', url(id), token)).json().data;
    expect(business.businessState).toBe('Approved');
    expect(business.approvedAt).not.toBeNull();
    expect((await events(id)).at(-1)).toEqual({
      actor_user_id: null,
      actor: 'operations',
      action: 'business.approved',
      details: { from: 'Pending', to: 'Approved' },
    });
    await expect(ops('approve-business', id)).rejects.toThrow(`Acme Learning (${id}) is already approved.`);
  });

  it('an approved business can be edited, but must stay complete', async () => {
    const ok = await request(t.app, 'PATCH', url(id, '/update'), token, { businessProfile: { ...PROFILE, dbaName: 'Acme' } });
    expect(ok.statusCode).toBe(200);
    const noOwners = await request(t.app, 'PATCH', url(id, '/update'), token, { owners: [] });
    expect(noOwners.statusCode).toBe(422);
    expect(errorOf(noOwners)).toEqual({
      code: 'UNPROCESSABLE_ENTITY',
      message: 'An approved business must keep all its required details; this change would remove some.',
      fields: { 'owners.owner': 'Add at least one owner: a person who owns or controls the business.' },
    });
    expect((await request(t.app, 'GET', url(id), token)).json().data.owners).toHaveLength(1);
  });

  it('payouts on and off, reflected in GET /api/user and audited', async () => {
    expect(await ops('enable-payouts', id)).toBe(`Payouts are now on for Acme Learning (${id}).`);
    expect((await request(t.app, 'GET', '/api/user', token)).json().data.businesses[0].payoutEnabled).toBe(1);
    expect(await ops('enable-payouts', id)).toBe(`Payouts were already on for Acme Learning (${id}); nothing changed.`);
    expect(await ops('disable-payouts', 'owner@acme.example')).toBe(`Payouts are now off for Acme Learning (${id}).`);
    expect((await request(t.app, 'GET', '/api/user', token)).json().data.businesses[0].payoutEnabled).toBe(0);
    const actions = (await events(id)).map((e) => e.action);
    expect(actions.filter((a) => a.startsWith('payouts.'))).toEqual(['payouts.enabled', 'payouts.disabled']);
  });

  it('disable with a reason, then enable again', async () => {
    const printed = await ops('disable-business', id, '--reason', 'Chargeback review');
    expect(printed).toBe(`Disabled Acme Learning (${id}): Approved → Disabled. Reason: Chargeback review`);
    const disabled = (await request(t.app, 'GET', url(id), token)).json().data;
    expect(disabled).toMatchObject({ businessState: 'Disabled', stateReason: 'Chargeback review' });
    const write = await request(t.app, 'PATCH', url(id, '/update'), token, { businessName: 'X' });
    expect(write.statusCode).toBe(409);
    expect(errorOf(write).message).toBe('This business is disabled, so its details cannot change. Contact Tay support to reactivate it.');
    await expect(ops('disable-business', id)).rejects.toThrow(`Acme Learning (${id}) is already disabled.`);
    await expect(ops('approve-business', id)).rejects.toThrow('is disabled; enable it again instead of approving it.');

    expect(await ops('enable-business', id)).toBe(`Enabled Acme Learning (${id}): Disabled → Approved.`);
    expect((await request(t.app, 'GET', url(id), token)).json().data).toMatchObject({ businessState: 'Approved', stateReason: null });
    await expect(ops('enable-business', id)).rejects.toThrow('is Approved, not disabled; only a disabled business can be enabled.');
    const trail = (await events(id)).slice(-2);
    expect(trail).toEqual([
      { actor_user_id: null, actor: 'operations', action: 'business.disabled', details: { from: 'Approved', to: 'Disabled', reason: 'Chargeback review' } },
      { actor_user_id: null, actor: 'operations', action: 'business.enabled', details: { from: 'Disabled', to: 'Approved' } },
    ]);
  });

  it('ops commands say clearly when they cannot tell which business is meant', async () => {
    await expect(ops('approve-business')).rejects.toThrow('Usage: approve-business <business id | owner e-mail>');
    await expect(ops('approve-business', 'biz_nothere')).rejects.toThrow('No business has the id biz_nothere.');
    await expect(ops('approve-business', 'nobody@example.com')).rejects.toThrow('No business is owned by nobody@example.com.');
    await expect(ops('approve-business', 'acme')).rejects.toThrow('"acme" is neither a business id (biz_…) nor an e-mail address.');
    await createBusiness(t.app, token, { businessName: 'Acme Two', entityType: 'standard' });
    await expect(ops('approve-business', 'owner@acme.example')).rejects.toThrow(/owner@acme\.example owns 2 businesses; name one by its id:\n {2}biz_/);
  });

  it('the audit trail is append-only', async () => {
    // The app's role may not change or remove its rows (ADR 022); the owner's trigger refuses too.
    const db = t.runtime.database.db;
    await expect(db.updateTable('business_events').set({ actor: 'someone else' }).where('business_id', '=', id).execute()).rejects.toThrow(
      /permission denied for table business_events/,
    );
    await expect(db.deleteFrom('business_events').where('business_id', '=', id).execute()).rejects.toThrow(/permission denied for table business_events/);
  });
});

describe('disabling a Pending business declines it', () => {
  it('Pending → Disabled, and the owner sees why', async () => {
    const token = await registeredUser(t.app, 'declined@example.com');
    const { businessId } = await createBusiness(t.app, token);
    await completeSetup(t.app, token, businessId);
    expect((await request(t.app, 'PATCH', url(businessId, '/update/submit'), token)).statusCode).toBe(200);
    expect(await ops('disable-business', businessId, '--reason', 'We could not verify the EIN.')).toContain('Pending → Disabled');
    expect((await request(t.app, 'GET', '/api/user', token)).json().data.businesses[0].businessState).toBe('Disabled');
    expect((await request(t.app, 'GET', url(businessId), token)).json().data.stateReason).toBe('We could not verify the EIN.');
  });
});

describe('settlement bank account', () => {
  let token: string;
  let id: string;
  beforeAll(async () => {
    token = await registeredUser(t.app, 'bank@example.com');
    id = (await createBusiness(t.app, token)).businessId;
  });
  const add = (body: unknown) => request(t.app, 'POST', url(id, '/bank-accounts'), token, body);

  it('a routing number that fails the checksum is refused on that field', async () => {
    const res = await add({ ...BANK, routingNumber: '123456789' });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res)).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'This routing number is not valid; check the 9 digits on your cheque.',
      fields: { routingNumber: 'This routing number is not valid; check the 9 digits on your cheque.' },
    });
  });

  it('checks the form: 9 digits, matching account numbers, one way to name the bank', async () => {
    const res = await add({ ...BANK, routingNumber: '12345', confirmAccountNumber: '999' });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).fields).toEqual({
      routingNumber: 'Enter the 9-digit routing number.',
      confirmAccountNumber: 'The account numbers do not match.',
    });
    const neither = await add({ ...BANK, routingNumber: undefined });
    expect(errorOf(neither).fields).toEqual({ routingNumber: 'Choose a bank from the directory or enter a routing number.' });
    const unknownBank = await add({ ...BANK, routingNumber: undefined, directoryId: 'no-such-bank' });
    expect(errorOf(unknownBank).fields).toEqual({ directoryId: 'Choose a bank from the directory.' });
  });

  it('a good account is stored encrypted and shown masked; the full number appears nowhere', async () => {
    const res = await add(BANK);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.bankAccount).toEqual({
      directoryId: 'manual',
      accountNumber: '••••6789',
      routingNumber: '••••6780',
      bankName: 'Other bank',
      institutionLogo: null,
      accountType: 'checking',
      accountHolderName: 'Acme Learning LLC',
    });
    expect(res.body).not.toContain(ACCOUNT_NUMBER);
    expect((await request(t.app, 'GET', url(id), token)).body).not.toContain(ACCOUNT_NUMBER);

    const { rows } = await sql<{ row: string }>`SELECT b::text AS row FROM bank_accounts b`.execute(t.runtime.database.db);
    expect(rows.length).toBeGreaterThan(0);
    for (const { row } of rows) expect(row).not.toContain('123456789');
    const { rows: trail } = await sql<{ row: string }>`SELECT e::text AS row FROM business_events e WHERE business_id = ${id}`.execute(t.runtime.database.db);
    for (const { row } of trail) expect(row).not.toContain('123456789');
    expect(trail.some(({ row }) => row.includes('bank_account.added'))).toBe(true);
  });

  it('picked from the directory: the routing number and logo come from the directory; the replacement is audited', async () => {
    const banks = (await request(t.app, 'GET', '/api/directory/banks?search=first test', token)).json().data;
    expect(banks).toHaveLength(1);
    const res = await add({ ...BANK, routingNumber: undefined, directoryId: banks[0].directoryId, accountNumber: '5555', confirmAccountNumber: '5555' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.bankAccount).toEqual({
      directoryId: 'first-test-cu',
      accountNumber: '••••5555',
      routingNumber: `••••${banks[0].routingNumber.slice(-4)}`,
      bankName: 'First Test Credit Union',
      institutionLogo: banks[0].institutionLogo,
      accountType: 'checking',
      accountHolderName: 'Acme Learning LLC',
    });
    const accounts = await t.runtime.database.db
      .selectFrom('bank_accounts')
      .select(['is_settlement', 'replaced_at', 'routing_number'])
      .where('business_id', '=', id)
      .orderBy('created_at')
      .execute();
    expect(accounts.map((a) => [a.routing_number, a.is_settlement, a.replaced_at !== null])).toEqual([
      [ROUTING_NUMBER, false, true],
      [banks[0].routingNumber, true, false],
    ]);
    const last = (await events(id)).at(-1)!;
    expect(last).toMatchObject({
      action: 'bank_account.replaced',
      actor: 'bank@example.com',
      details: { bankName: 'First Test Credit Union', accountNumber: '••••5555', directoryId: 'first-test-cu' },
    });
    expect(last.details.replacedBankAccountId).toMatch(/^ba_/);
  });

  it('a typed routing number of a directory bank is recognised as that bank', async () => {
    const [bank] = (await request(t.app, 'GET', '/api/directory/banks?search=tay sandbox', token)).json().data;
    const res = await add({ ...BANK, routingNumber: bank.routingNumber });
    expect(res.json().data.bankAccount).toMatchObject({ directoryId: 'tay-sandbox-bank', bankName: 'Tay Sandbox Bank' });
  });

  it('the database holds at most one settlement account per business', async () => {
    await expect(
      t.runtime.database.db
        .insertInto('bank_accounts')
        .values({
          business_id: id,
          id: 'ba_second',
          directory_id: 'manual',
          bank_name: 'x',
          routing_number: ROUTING_NUMBER,
          account_number_last4: '0000',
          account_number_encrypted: 'x',
          account_type: 'checking',
          account_holder_name: 'x',
          is_settlement: true,
        })
        .execute(),
    ).rejects.toThrow(/bank_accounts_one_settlement_idx/);
  });
});

describe('bank directory and reference lists', () => {
  it('the directory: about a dozen banks with valid routing numbers and inline logos; searchable', async () => {
    const token = await registeredUser(t.app, 'directory@example.com');
    const all = (await request(t.app, 'GET', '/api/directory/banks', token)).json().data;
    expect(all.length).toBeGreaterThanOrEqual(10);
    expect(all[0]).toMatchObject({ directoryId: 'tay-sandbox-bank', bankName: 'Tay Sandbox Bank' });
    for (const bank of all) expect(bank.institutionLogo).toMatch(/^data:image\/svg\+xml,/);
    const byName = (await request(t.app, 'GET', '/api/directory/banks?search=CREDIT%20union', token)).json().data;
    expect(byName.map((b: { bankName: string }) => b.bankName)).toEqual([
      'First Test Credit Union',
      'Lakeshore Test Credit Union',
      'Red Rock Test Credit Union',
    ]);
    const byRouting = (await request(t.app, 'GET', `/api/directory/banks?search=${all[3].routingNumber.slice(2, 7)}`, token)).json().data;
    expect(byRouting.map((b: { directoryId: string }) => b.directoryId)).toContain(all[3].directoryId);
    expect((await request(t.app, 'GET', '/api/directory/banks?search=zzz', token)).json().data).toEqual([]);
    expect((await request(t.app, 'GET', '/api/directory/banks')).statusCode).toBe(401);
  });

  it('MCC, corporate structures and non-profit codes: public and cacheable', async () => {
    const mcc = await request(t.app, 'GET', '/api/mcc');
    expect(mcc.statusCode).toBe(200);
    expect(mcc.headers['cache-control']).toBe('public, max-age=86400');
    const codes = mcc.json().data as { code: string; label: string }[];
    expect(codes.length).toBeGreaterThan(250);
    const byCode = new Map(codes.map((c) => [c.code, c.label]));
    for (const code of ['0742', '0763', '0780', '1520', '5411', '5812', '8011', '8021', '8062', '8211', '8220', '8398', '8641', '8661', '9399']) {
      expect(byCode.has(code), code).toBe(true);
    }
    expect(byCode.get('5411')).toBe('Grocery Stores and Supermarkets');
    expect(byCode.get('8211')).toBe('Elementary and Secondary Schools');

    const structures = (await request(t.app, 'GET', '/api/corpStruct')).json().data;
    expect(structures.map((s: { code: string }) => s.code)).toEqual([
      'sole_proprietorship',
      'partnership',
      'llc',
      'c_corporation',
      's_corporation',
      'non_profit',
      'government',
      'trust',
    ]);
    const nonProfit = await request(t.app, 'GET', '/api/nonProfitCode');
    expect(nonProfit.headers['cache-control']).toBe('public, max-age=86400');
    expect(nonProfit.json().data).toContainEqual({
      code: '501(c)(3)',
      label: '501(c)(3) Religious, educational, charitable, scientific, literary, public-safety testing, amateur sports and anti-cruelty organizations',
    });
  });
});

describe('logo', () => {
  let token: string;
  let id: string;
  beforeAll(async () => {
    token = await registeredUser(t.app, 'logo@example.com');
    id = (await createBusiness(t.app, token)).businessId;
  });
  const upload = (dataUrl: string) => request(t.app, 'POST', url(id, '/logo'), token, { dataUrl });
  const svg = (body: string) => `data:image/svg+xml;base64,${Buffer.from(body).toString('base64')}`;

  it('a PNG is stored and served with its type, caching and nosniff; logoUrl changes with each upload', async () => {
    const res = await upload(`data:image/png;base64,${PNG_BASE64}`);
    expect(res.statusCode, res.body).toBe(200);
    const logoUrl = res.json().data.businessProfile.logoUrl as string;
    expect(logoUrl).toMatch(new RegExp(`^/api/businesses/${id}/logo\\?v=\\d{13}$`));

    const image = await t.app.inject({ method: 'GET', url: logoUrl });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['cache-control']).toBe('public, max-age=300');
    expect(image.headers['x-content-type-options']).toBe('nosniff');
    expect(image.rawPayload.equals(Buffer.from(PNG_BASE64, 'base64'))).toBe(true);

    const me = (await request(t.app, 'GET', '/api/user', token)).json().data;
    expect(me.businesses[0].businessProfile.logoUrl).toBe(logoUrl);
    expect((await events(id)).at(-1)).toMatchObject({ action: 'logo.updated', details: { contentType: 'image/png', bytes: 70 } });
  });

  it('a clean SVG is served under a policy that runs nothing', async () => {
    const res = await upload(
      svg('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle r="4" cx="5" cy="5" style="fill:red"/></svg>'),
    );
    expect(res.statusCode, res.body).toBe(200);
    const image = await t.app.inject({ method: 'GET', url: res.json().data.businessProfile.logoUrl });
    expect(image.headers['content-type']).toBe('image/svg+xml');
    expect(image.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(image.body).toContain('<circle');
  });

  it('refuses other types, lies about the type, oversized images and SVG with scripts or handlers', async () => {
    const cases: [string, number, string][] = [
      ['data:image/gif;base64,R0lGODlhAQABAAAAACw=', 400, 'This file type (image/gif) is not accepted. Upload a PNG, JPEG, WebP or SVG image.'],
      [`data:image/jpeg;base64,${PNG_BASE64}`, 400, 'This file is not a valid JPEG image (it is a PNG). Upload a PNG, JPEG, WebP or SVG image.'],
      [
        `data:image/png;base64,${Buffer.from('just text').toString('base64')}`,
        400,
        'This file is not a valid PNG image. Upload a PNG, JPEG, WebP or SVG image.',
      ],
      [
        `data:image/png;base64,${Buffer.concat([Buffer.from(PNG_BASE64, 'base64'), Buffer.alloc(520 * 1024)]).toString('base64')}`,
        413,
        'The logo is 521 KB; the largest accepted is 512 KB. Upload a smaller image.',
      ],
      [
        svg('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
        400,
        'SVG files that contain scripts are not accepted; export the logo again without scripts.',
      ],
      [
        svg('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect/></svg>'),
        400,
        'SVG files with event handlers (onload) are not accepted; export the logo again without them.',
      ],
      ['not a data url', 400, 'Send the logo as a data URL, like data:image/png;base64,… Upload a PNG, JPEG, WebP or SVG image.'],
    ];
    for (const [dataUrl, status, message] of cases) {
      const res = await upload(dataUrl);
      expect(res.statusCode, message).toBe(status);
      expect(errorOf(res).message).toBe(message);
      expect(errorOf(res).fields).toEqual({ dataUrl: message });
    }
  });

  it('a business without a logo, or an unknown id, has no logo (404)', async () => {
    const other = await createBusiness(t.app, token);
    for (const businessId of [other.businessId, 'biz_unknown']) {
      const res = await t.app.inject({ method: 'GET', url: url(businessId, '/logo') });
      expect(res.statusCode).toBe(404);
      expect(errorOf(res)).toEqual({ code: 'NOT_FOUND', message: 'Logo not found.' });
    }
  });
});

describe('the user profile', () => {
  it('PATCH /api/user completes the profile', async () => {
    const token = await registeredUser(t.app, 'profile@example.com');
    const bad = await request(t.app, 'PATCH', '/api/user', token, { firstName: '', lastName: 'Lopez', mobileNumber: '555-1234' });
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad).fields).toEqual({ firstName: 'Enter your first name.', mobileNumber: 'Enter a valid mobile number.' });

    const res = await request(t.app, 'PATCH', '/api/user', token, { firstName: ' Ana ', lastName: 'Lopez', mobileNumber: '+14155550123' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      name: 'profile@example.com',
      userState: 'complete',
      firstName: 'Ana',
      lastName: 'Lopez',
      mobileNumber: '+14155550123',
      businesses: [],
    });
    expect((await request(t.app, 'GET', '/api/user', token)).json().data.userState).toBe('complete');
  });

  it('PATCH /api/enrollReminder sets both notification preferences', async () => {
    const token = await registeredUser(t.app, 'reminders@example.com');
    const res = await request(t.app, 'PATCH', '/api/enrollReminder', token, {
      enrollNotificationViaEmail: false,
      enrollNotificationViaMobileNumber: true,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ enrollNotificationViaEmail: false, enrollNotificationViaMobileNumber: true, userState: 'Incomplete' });
    const missing = await request(t.app, 'PATCH', '/api/enrollReminder', token, { enrollNotificationViaEmail: true });
    expect(missing.statusCode).toBe(400);
    expect(Object.keys(errorOf(missing).fields!)).toEqual(['enrollNotificationViaMobileNumber']);
    const anonymous = [
      await request(t.app, 'PATCH', '/api/user', undefined, { firstName: 'A', lastName: 'B', mobileNumber: '+14155550123' }),
      await request(t.app, 'PATCH', '/api/enrollReminder', undefined, { enrollNotificationViaEmail: true, enrollNotificationViaMobileNumber: true }),
    ];
    for (const res of anonymous) expect(res.statusCode).toBe(401);
  });
});
