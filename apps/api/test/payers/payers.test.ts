import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { showingSummary } from '@tay/contract';
import { errorOf, registeredUser } from '../support/identity';
import { completeSetup, createBusiness, request } from '../support/businesses';
import { approvedBusiness, send, verificationLink, type ApprovedBusiness } from '../support/payers';
import { createTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
let a: ApprovedBusiness;
let b: ApprovedBusiness;
beforeAll(async () => {
  t = await createTestApp({ SANDBOX_AUTO_APPROVE: 'false' });
  a = await approvedBusiness(t.app, t.runtime, 'payers-a@example.com', 'Acme Payers');
  b = await approvedBusiness(t.app, t.runtime, 'payers-b@example.com', 'Beta Payers');
});
afterAll(async () => t?.close());

const base = (businessId: string) => `/api/businesses/${businessId}/payers`;
const db = () => t.runtime.database.db;

async function addPayer(owner: ApprovedBusiness, body: Record<string, unknown>) {
  const res = await send(t.app, 'POST', base(owner.businessId), owner.token, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { payerId: string; email: string; verification: string; status: string; transactionCount: number };
}

async function list(owner: ApprovedBusiness, query = '') {
  const res = await send(t.app, 'GET', `${base(owner.businessId)}${query}`, owner.token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as {
    items: { payerId: string; displayName: string; email: string; status: string; verification: string; transactionCount: number }[];
    page: number;
    pageSize: number;
    total: number;
  };
}

async function events(businessId: string) {
  return db()
    .selectFrom('business_events')
    .select(['action', 'actor', 'details'])
    .where('business_id', '=', businessId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** A request to pay naming the payer, written directly: that engineer's API is not needed here. */
async function insertRequest(businessId: string, payerId: string, number: number, state: 'Draft' | 'Sent' | 'Paid' = 'Draft') {
  await db()
    .insertInto('payment_requests')
    .values({
      business_id: businessId,
      id: `req_test_${payerId}_${number}`,
      number,
      payer_id: payerId,
      payer_display_name: 'Someone',
      payer_email: 'someone@example.com',
      amount_cents: 1250,
      due_date: '2030-01-01',
      expires_on: '2030-01-31',
      state,
      send_at: null,
      sent_at: state === 'Draft' ? null : new Date(),
      paid_at: null,
      pay_token_hash: null,
      last_reminder_offset: null,
      created_by: null,
    })
    .execute();
}

describe('add a payer', () => {
  it('creates an active, unverified payer, e-mails a verification link and stores only its hash', async () => {
    const res = await send(t.app, 'POST', base(a.businessId), a.token, {
      firstName: ' Ana ',
      lastName: 'Lopez',
      email: ' Ana.Lopez@Example.com ',
      mobileNumber: '+14155552671',
      reference: 'ACC-1',
    });
    expect(res.statusCode, res.body).toBe(201);
    const payer = res.json().data;
    expect(payer).toMatchObject({
      firstName: 'Ana',
      lastName: 'Lopez',
      companyName: '',
      displayName: 'Ana Lopez',
      email: 'ana.lopez@example.com',
      mobileNumber: '+14155552671',
      reference: 'ACC-1',
      status: 'active',
      verification: 'unverified',
      verifiedAt: null,
      transactionCount: 0,
    });
    expect(payer.payerId).toMatch(/^pyr_[0-9a-z]{26}$/);
    expect(payer.verificationSentAt).not.toBeNull();

    const { link, token } = await verificationLink(t.app, 'ana.lopez@example.com');
    expect(link).toBe(`${t.runtime.config.publicUrl}/pay/verify/${token}`);
    const row = await db().selectFrom('payers').selectAll().where('id', '=', payer.payerId).executeTakeFirstOrThrow();
    expect(row.verification_token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(token);

    const [created] = (await events(a.businessId)).filter((e) => e.action === 'payer.created');
    expect(created).toMatchObject({ actor: 'payers-a@example.com', details: { payerId: payer.payerId } });
    expect(JSON.stringify(created)).not.toContain('ana.lopez');
  });

  it('a company alone is enough; the display name is the company', async () => {
    const payer = await addPayer(a, { companyName: 'Zeta Works', email: 'billing@zeta.example' });
    expect(payer).toMatchObject({ displayName: 'Zeta Works', mobileNumber: null, reference: null });
  });

  it('refuses invalid input with one message per field', async () => {
    const res = await send(t.app, 'POST', base(a.businessId), a.token, { firstName: 'Solo', email: 'not-mail', mobileNumber: '555-1234' });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).code).toBe('VALIDATION_FAILED');
    expect(errorOf(res).fields).toEqual({
      email: 'Enter a valid e-mail address.',
      mobileNumber: 'Enter a valid mobile number.',
      firstName: 'Enter a first and last name, or a company name.',
    });
    const nothing = await send(t.app, 'POST', base(a.businessId), a.token, {});
    expect(nothing.statusCode).toBe(400);
    expect(Object.keys(errorOf(nothing).fields!)).toContain('email');
    // The limits the form's maxLength attributes follow (PAYER_FIELD_LIMITS), each named.
    const long = await send(t.app, 'POST', base(a.businessId), a.token, {
      firstName: 'F'.repeat(101),
      lastName: 'Long',
      companyName: 'C'.repeat(201),
      email: `${'e'.repeat(310)}@long.example`,
      reference: 'R'.repeat(65),
    });
    expect(long.statusCode).toBe(400);
    expect(errorOf(long).fields).toEqual({
      firstName: 'Use at most 100 characters.',
      companyName: 'Use at most 200 characters.',
      email: 'Use at most 320 characters.',
      reference: 'Use at most 64 characters.',
    });
  });

  it('refuses a second payer with the same e-mail or reference (409 on the clashing field)', async () => {
    const email = await send(t.app, 'POST', base(a.businessId), a.token, { firstName: 'Ana', lastName: 'Again', email: 'ANA.LOPEZ@example.com' });
    expect(email.statusCode).toBe(409);
    expect(errorOf(email)).toEqual({
      code: 'CONFLICT',
      message: 'This business already has a payer with this e-mail address.',
      fields: { email: 'Another payer of this business already has this e-mail address.' },
    });
    const reference = await send(t.app, 'POST', base(a.businessId), a.token, { companyName: 'Other', email: 'other@example.com', reference: 'ACC-1' });
    expect(reference.statusCode).toBe(409);
    expect(errorOf(reference).fields).toEqual({ reference: 'Another payer of this business already has this reference.' });
    const both = await send(t.app, 'POST', base(a.businessId), a.token, { companyName: 'Other', email: 'ana.lopez@example.com', reference: 'ACC-1' });
    expect(Object.keys(errorOf(both).fields!).sort()).toEqual(['email', 'reference']);
    // Another business may have the same person.
    await addPayer(b, { firstName: 'Ana', lastName: 'Lopez', email: 'ana.lopez@example.com', reference: 'ACC-1' });
  });
});

describe('read and change a payer', () => {
  let payerId: string;
  beforeAll(async () => {
    payerId = (await addPayer(a, { firstName: 'Ben', lastName: 'Ng', email: 'ben@example.com', mobileNumber: '+14155550100', reference: 'B-1' })).payerId;
  });

  it('GET returns it; an unknown id is 404', async () => {
    const res = await send(t.app, 'GET', `${base(a.businessId)}/${payerId}`, a.token);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ payerId, displayName: 'Ben Ng' });
    const unknown = await send(t.app, 'GET', `${base(a.businessId)}/pyr_nothere`, a.token);
    expect(unknown.statusCode).toBe(404);
    expect(errorOf(unknown)).toEqual({ code: 'NOT_FOUND', message: 'Payer not found.' });
  });

  it('PATCH changes only what is sent; null clears an optional field', async () => {
    const res = await send(t.app, 'PATCH', `${base(a.businessId)}/${payerId}`, a.token, { lastName: 'Nguyen', mobileNumber: null });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      firstName: 'Ben',
      lastName: 'Nguyen',
      displayName: 'Ben Nguyen',
      mobileNumber: null,
      reference: 'B-1',
      email: 'ben@example.com',
    });
    const updated = (await events(a.businessId)).filter((e) => e.action === 'payer.updated').at(-1);
    expect(updated?.details).toEqual({
      payerId,
      fields: ['lastName', 'mobileNumber'],
      changes: [
        { field: 'lastName', before: 'Ng', after: 'Nguyen' },
        { field: 'mobileNumber', before: '+14155550100', after: null },
      ],
    });
  });

  it('PATCH validates the result and refuses duplicates', async () => {
    const noName = await send(t.app, 'PATCH', `${base(a.businessId)}/${payerId}`, a.token, { firstName: '' });
    expect(noName.statusCode).toBe(400);
    expect(errorOf(noName).fields).toEqual({ firstName: 'Enter a first and last name, or a company name.' });
    const clash = await send(t.app, 'PATCH', `${base(a.businessId)}/${payerId}`, a.token, { email: 'ana.lopez@example.com' });
    expect(clash.statusCode).toBe(409);
    expect(errorOf(clash).fields).toEqual({ email: 'Another payer of this business already has this e-mail address.' });
    const empty = await send(t.app, 'PATCH', `${base(a.businessId)}/${payerId}`, a.token, {});
    expect(empty.statusCode).toBe(400);
  });

  it('a new e-mail address must be confirmed again: unverified, a link to the new address, the old link dead', async () => {
    const first = await verificationLink(t.app, 'ben@example.com');
    expect((await send(t.app, 'POST', `/api/public/payers/verify/${first.token}`)).statusCode).toBe(200);
    const res = await send(t.app, 'PATCH', `${base(a.businessId)}/${payerId}`, a.token, { email: 'Ben.New@example.com' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ email: 'ben.new@example.com', verification: 'unverified', verifiedAt: null });
    const fresh = await verificationLink(t.app, 'ben.new@example.com');
    expect(fresh.token).not.toBe(first.token);
    expect((await send(t.app, 'POST', `/api/public/payers/verify/${first.token}`)).statusCode).toBe(404);
  });
});

describe('verification', () => {
  let payerId: string;
  const email = 'cara@example.com';
  beforeAll(async () => {
    payerId = (await addPayer(a, { firstName: 'Cara', lastName: 'Diaz', email })).payerId;
  });

  it('the link marks the payer verified; opening it again changes nothing', async () => {
    const { token } = await verificationLink(t.app, email);
    const res = await send(t.app, 'POST', `/api/public/payers/verify/${token}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ payerName: 'Cara Diaz', businessName: 'Acme Payers', alreadyVerified: false });
    const again = await send(t.app, 'POST', `/api/public/payers/verify/${token}`);
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toMatchObject({ alreadyVerified: true, verifiedAt: res.json().data.verifiedAt });
    const payer = (await send(t.app, 'GET', `${base(a.businessId)}/${payerId}`, a.token)).json().data;
    expect(payer).toMatchObject({ verification: 'verified', verifiedAt: res.json().data.verifiedAt });
    expect((await events(a.businessId)).some((e) => e.action === 'payer.verified' && e.actor === 'payer')).toBe(true);
  });

  it('an unknown link is 404 with a sentence', async () => {
    const res = await send(t.app, 'POST', '/api/public/payers/verify/not-a-real-token');
    expect(res.statusCode).toBe(404);
    expect(errorOf(res).message).toBe(
      'This confirmation link is not valid, or a newer link has replaced it. Open the link in the latest e-mail, or ask the business to send you a new one.',
    );
  });

  it('resend is for unverified payers only; re-verify for verified ones', async () => {
    const resend = await send(t.app, 'POST', `${base(a.businessId)}/${payerId}/resend-verification`, a.token);
    expect(resend.statusCode).toBe(409);
    expect(errorOf(resend).message).toBe('This payer has already confirmed their e-mail address. Use Re-verify to ask them to confirm it again.');
  });

  it('re-verify makes the payer unverified, sends a new link and kills the old one', async () => {
    const old = await verificationLink(t.app, email);
    const res = await send(t.app, 'POST', `${base(a.businessId)}/${payerId}/reverify`, a.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ verification: 'unverified', verifiedAt: null });
    const fresh = await verificationLink(t.app, email);
    expect(fresh.count).toBe(old.count + 1);
    expect((await send(t.app, 'POST', `/api/public/payers/verify/${old.token}`)).statusCode).toBe(404);
    const again = await send(t.app, 'POST', `${base(a.businessId)}/${payerId}/reverify`, a.token);
    expect(again.statusCode).toBe(409);
    expect(errorOf(again).message).toBe('This payer has not confirmed their e-mail address yet. Use Resend verification to send them a new link.');

    const resent = await send(t.app, 'POST', `${base(a.businessId)}/${payerId}/resend-verification`, a.token);
    expect(resent.statusCode).toBe(200);
    const newest = await verificationLink(t.app, email);
    expect(newest.count).toBe(fresh.count + 1);
    expect((await send(t.app, 'POST', `/api/public/payers/verify/${fresh.token}`)).statusCode).toBe(404);
    expect((await send(t.app, 'POST', `/api/public/payers/verify/${newest.token}`)).json().data.alreadyVerified).toBe(false);
    const actions = (await events(a.businessId)).map((e) => e.action);
    expect(actions).toContain('payer.reverification_requested');
    expect(actions).toContain('payer.verification_sent');
  });
});

describe('activate, deactivate, delete', () => {
  it('deactivate ⇄ activate, refusing the state it already has', async () => {
    const { payerId } = await addPayer(a, { firstName: 'Dan', lastName: 'Ek', email: 'dan@example.com' });
    const off = await send(t.app, 'POST', `${base(a.businessId)}/${payerId}/deactivate`, a.token);
    expect(off.statusCode).toBe(200);
    expect(off.json().data.status).toBe('Disabled');
    const twice = await send(t.app, 'POST', `${base(a.businessId)}/${payerId}/deactivate`, a.token);
    expect(twice.statusCode).toBe(409);
    expect(errorOf(twice).message).toBe('This payer is already deactivated.');
    const on = await send(t.app, 'POST', `${base(a.businessId)}/${payerId}/activate`, a.token);
    expect(on.json().data.status).toBe('active');
    expect(errorOf(await send(t.app, 'POST', `${base(a.businessId)}/${payerId}/activate`, a.token)).message).toBe('This payer is already active.');
    const actions = (await events(a.businessId)).filter((e) => (e.details as { payerId?: string }).payerId === payerId).map((e) => e.action);
    expect(actions).toEqual(['payer.created', 'payer.deactivated', 'payer.activated']);
  });

  it('delete is refused while a request to pay names the payer, and works otherwise', async () => {
    const { payerId } = await addPayer(a, { firstName: 'Eve', lastName: 'Fox', email: 'eve@example.com' });
    await insertRequest(a.businessId, payerId, 1);
    const listed = (await list(a, '?search=eve')).items[0];
    expect(listed?.transactionCount).toBe(1);
    const refused = await send(t.app, 'DELETE', `${base(a.businessId)}/${payerId}`, a.token);
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused).message).toBe('This payer has a request to pay, so it cannot be deleted; its history must stay. Deactivate the payer instead.');

    const gone = await addPayer(a, { firstName: 'Gus', lastName: 'Hale', email: 'gus@example.com' });
    const res = await send(t.app, 'DELETE', `${base(a.businessId)}/${gone.payerId}`, a.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ payerId: gone.payerId });
    expect((await send(t.app, 'GET', `${base(a.businessId)}/${gone.payerId}`, a.token)).statusCode).toBe(404);
    expect((await events(a.businessId)).some((e) => e.action === 'payer.deleted' && (e.details as { payerId: string }).payerId === gone.payerId)).toBe(true);
  });
});

describe('how many requests a payer has', () => {
  it("the list counts what the payer's Transactions page lists (every state but Draft), and the drafts apart", async () => {
    const { payerId } = await addPayer(a, { firstName: 'Ivy', lastName: 'Moss', email: 'ivy@example.com' });
    await insertRequest(a.businessId, payerId, 101, 'Draft');
    await insertRequest(a.businessId, payerId, 102, 'Sent');
    await insertRequest(a.businessId, payerId, 103, 'Paid');
    const listed = (await list(a, '?search=ivy')).items[0] as unknown as Record<string, unknown>;
    expect(listed).toMatchObject({ transactionCount: 3, historyCount: 2, draftCount: 1 });
    const one = (await send(t.app, 'GET', `${base(a.businessId)}/${payerId}`, a.token)).json().data;
    expect(one).toMatchObject({ transactionCount: 3, historyCount: 2, draftCount: 1 });

    // The Transactions page asks the history view for this payer: the same number.
    const history = await send(t.app, 'GET', `/api/businesses/${a.businessId}/payment-requests?payerId=${payerId}&view=history`, a.token);
    expect(history.statusCode, history.body).toBe(200);
    expect(history.json().data.total).toBe(2);
    // A draft still keeps the payer from being deleted (its history must stay once sent).
    expect((await send(t.app, 'DELETE', `${base(a.businessId)}/${payerId}`, a.token)).statusCode).toBe(409);
  });

  it('a payer with only drafts lists 0 requests and 1 draft', async () => {
    const { payerId } = await addPayer(a, { firstName: 'Jon', lastName: 'Reed', email: 'jon@example.com' });
    await insertRequest(a.businessId, payerId, 104, 'Draft');
    expect((await list(a, '?search=jon')).items[0]).toMatchObject({ transactionCount: 1, historyCount: 0, draftCount: 1 });
  });
});

describe('the list: search, filters, sort, pages', () => {
  let owner: ApprovedBusiness;
  const people = [
    { firstName: 'Alice', lastName: 'Zimmer', email: 'zimmer@example.com', reference: 'R-100' },
    { firstName: 'bob', lastName: 'Young', email: 'bob@example.com', reference: 'R-200' },
    { companyName: 'Carrot & Co', email: 'accounts@carrot.example', reference: 'R-300' },
    { firstName: 'Dora', lastName: 'Xu', email: 'dora@example.com' },
    { companyName: '100% Pure_Oil', email: 'oil@example.com' },
  ];
  beforeAll(async () => {
    owner = await approvedBusiness(t.app, t.runtime, 'payers-list@example.com', 'List Co');
    for (const p of people) await addPayer(owner, p);
    const dora = (await list(owner, '?search=dora')).items[0]!;
    await send(t.app, 'POST', `${base(owner.businessId)}/${dora.payerId}/deactivate`, owner.token);
    const { token } = await verificationLink(t.app, 'bob@example.com');
    await send(t.app, 'POST', `/api/public/payers/verify/${token}`);
  });

  const names = async (query: string) => (await list(owner, query)).items.map((p) => p.displayName);

  it('defaults to newest first, 25 a page, with the exact total', async () => {
    const page = await list(owner);
    expect(page).toMatchObject({ page: 1, pageSize: 25, total: 5 });
    expect(page.items.map((p) => p.displayName)).toEqual(['100% Pure_Oil', 'Dora Xu', 'Carrot & Co', 'bob Young', 'Alice Zimmer']);
    expect(showingSummary(page.page, page.pageSize, page.total)).toBe('Showing 1 to 5 of 5 Results');
  });

  it('searches by the beginning of the name or e-mail (any case), or the exact reference', async () => {
    expect(await names('?search=AL')).toEqual(['Alice Zimmer']);
    expect(await names('?search=zim')).toEqual(['Alice Zimmer']);
    expect(await names('?search=accounts@')).toEqual(['Carrot & Co']);
    expect(await names('?search=R-200')).toEqual(['bob Young']);
    expect(await names('?search=R-2')).toEqual([]);
    expect(await names('?search=immer')).toEqual([]);
    // LIKE wildcards are plain characters.
    expect(await names('?search=100%25')).toEqual(['100% Pure_Oil']);
    expect(await names('?search=%25')).toEqual([]);
    expect(await names('?search=_')).toEqual([]);
  });

  it('filters by status and verification', async () => {
    expect(await names('?status=Disabled')).toEqual(['Dora Xu']);
    expect(await names('?status=active&verification=verified')).toEqual(['bob Young']);
    expect((await list(owner, '?verification=unverified')).total).toBe(4);
  });

  it('sorts by name, e-mail, creation and status, both ways', async () => {
    expect(await names('?sortBy=name&sortDirection=asc')).toEqual(['100% Pure_Oil', 'Alice Zimmer', 'bob Young', 'Carrot & Co', 'Dora Xu']);
    expect(await names('?sortBy=name&sortDirection=desc')).toEqual(['Dora Xu', 'Carrot & Co', 'bob Young', 'Alice Zimmer', '100% Pure_Oil']);
    expect(await names('?sortBy=email&sortDirection=asc')).toEqual(['Carrot & Co', 'bob Young', 'Dora Xu', '100% Pure_Oil', 'Alice Zimmer']);
    expect(await names('?sortBy=createdAt&sortDirection=asc')).toEqual(['Alice Zimmer', 'bob Young', 'Carrot & Co', 'Dora Xu', '100% Pure_Oil']);
    // By code point: 'Disabled' before 'active'.
    expect((await names('?sortBy=status&sortDirection=asc'))[0]).toBe('Dora Xu');
    expect((await names('?sortBy=status&sortDirection=desc')).at(-1)).toBe('Dora Xu');
  });

  it('pages: page 1 is first, the last page is partial, the total is exact', async () => {
    const second = await list(owner, '?sortBy=name&sortDirection=asc&page=2&pageSize=2');
    expect(second).toMatchObject({ page: 2, pageSize: 2, total: 5 });
    expect(second.items.map((p) => p.displayName)).toEqual(['bob Young', 'Carrot & Co']);
    const last = await list(owner, '?sortBy=name&sortDirection=asc&page=3&pageSize=2');
    expect(last.items.map((p) => p.displayName)).toEqual(['Dora Xu']);
    expect(showingSummary(3, 2, 5)).toBe('Showing 5 to 5 of 5 Results');
  });

  it('refuses a page below 1, a page size over 100 and unknown sorts', async () => {
    for (const query of ['?page=0', '?pageSize=101', '?sortBy=mobile', '?status=gone']) {
      const res = await send(t.app, 'GET', `${base(owner.businessId)}${query}`, owner.token);
      expect(res.statusCode, query).toBe(400);
    }
  });
});

describe('typeahead', () => {
  let owner: ApprovedBusiness;
  beforeAll(async () => {
    owner = await approvedBusiness(t.app, t.runtime, 'payers-typeahead@example.com', 'Typeahead Co');
    await addPayer(owner, { firstName: 'Maria', lastName: 'Mora', email: 'maria@example.com', reference: 'Student-7' });
    await addPayer(owner, { firstName: 'Marco', lastName: 'Polo', email: 'polo@example.com' });
    await addPayer(owner, { companyName: 'Mars Inc', email: 'billing@mars.example' });
    const gone = await addPayer(owner, { firstName: 'Mark', lastName: 'Gone', email: 'mark@example.com' });
    await send(t.app, 'POST', `${base(owner.businessId)}/${gone.payerId}/deactivate`, owner.token);
  });
  const search = (q: string, extra = '') =>
    send(t.app, 'GET', `/api/directory/payers/beginsWith?businessId=${owner.businessId}&q=${encodeURIComponent(q)}${extra}`, owner.token);

  it('finds active payers by the beginning of name, e-mail or reference, any case, by name', async () => {
    const res = await search('MAR');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.map((p: { displayName: string }) => p.displayName)).toEqual(['Marco Polo', 'Maria Mora', 'Mars Inc']);
    expect(res.json().data[1]).toEqual({
      payerId: expect.stringMatching(/^pyr_/),
      displayName: 'Maria Mora',
      email: 'maria@example.com',
      mobileNumber: null,
      reference: 'Student-7',
      verification: 'unverified',
    });
    expect((await search('polo@')).json().data.map((p: { displayName: string }) => p.displayName)).toEqual(['Marco Polo']);
    expect((await search('student-')).json().data.map((p: { displayName: string }) => p.displayName)).toEqual(['Maria Mora']);
    expect((await search('ora')).json().data).toEqual([]);
    expect((await search('mar', '&limit=1')).json().data).toHaveLength(1);
  });

  it('needs a query and a member of the business', async () => {
    expect((await search('')).statusCode).toBe(400);
    const stranger = await send(t.app, 'GET', `/api/directory/payers/beginsWith?businessId=${owner.businessId}&q=mar`, b.token);
    expect(stranger.statusCode).toBe(404);
    expect(errorOf(stranger).message).toBe('Business not found.');
  });
});

describe('CSV export', () => {
  let owner: ApprovedBusiness;
  beforeAll(async () => {
    owner = await approvedBusiness(t.app, t.runtime, 'payers-export@example.com', 'Export Co');
    await addPayer(owner, {
      firstName: '=HYPERLINK("http://evil.example")',
      lastName: 'Smith, Jr.',
      email: 'smith@example.com',
      mobileNumber: '+14155550111',
      reference: '@SUM(A1)',
    });
    await addPayer(owner, { companyName: 'Plain "Quoted" Ltd', email: 'plain@example.com' });
    await addPayer(owner, { companyName: 'Other Ltd', email: 'other@example.com' });
  });
  const exportCsv = (query = '') => send(t.app, 'GET', `${base(owner.businessId)}/export.csv${query}`, owner.token);

  it('is an attachment named by the date, with a header row and one row per payer', async () => {
    const res = await exportCsv('?sortBy=name&sortDirection=asc');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="payers-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe(
      'Payer ID,First name,Last name,Company,Display name,E-mail,Mobile number,Reference,Status,Verification,Verified at,Requests,Drafts,Created at',
    );
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain(',smith@example.com,');
    expect(lines[2]).toMatch(/^pyr_[0-9a-z]{26},,,Other Ltd,Other Ltd,other@example.com,,,active,unverified,,0,0,"[A-Z][a-z]{2} \d{2}, \d{4} \d{1,2}:\d{2}"$/);
    expect(lines[3]).toContain(',"Plain ""Quoted"" Ltd",');
  });

  it("counts a payer's requests as the list does: the history, then the drafts", async () => {
    const payerId = (await exportCsv('?search=other')).body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n')[1]!
      .split(',')[0]!;
    for (const [i, state] of (['Draft', 'Sent', 'Paid'] as const).entries()) await insertRequest(owner.businessId, payerId, 901 + i, state);
    const row = (await exportCsv('?search=other')).body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n')[1]!;
    expect(row).toMatch(/,active,unverified,,2,1,"/);
    const listed = (await send(t.app, 'GET', `${base(owner.businessId)}?search=other`, owner.token)).json().data.items[0];
    expect(listed).toMatchObject({ historyCount: 2, draftCount: 1 });
    await db().deleteFrom('payment_requests').where('business_id', '=', owner.businessId).where('payer_id', '=', payerId).execute();
  });

  it('neutralises formulas, so a spreadsheet shows them as text', async () => {
    const res = await exportCsv('?search=smith');
    const row = res.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n')[1]!;
    expect(row).toContain(`"'=HYPERLINK(""http://evil.example"")","Smith, Jr.",`);
    expect(row).toContain(`,'+14155550111,'@SUM(A1),`);
    expect(row).not.toMatch(/,=|,\+|,@/);
  });

  it('applies the same filters, search and sort as the list, over every page', async () => {
    const res = await exportCsv('?search=o&sortBy=name&sortDirection=desc&page=2&pageSize=1');
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines.slice(1).map((l) => l.split(',')[4])).toEqual(['Other Ltd']);
    const none = await exportCsv('?status=Disabled');
    expect(
      none.body
        .replace(/^\uFEFF/, '')
        .trimEnd()
        .split('\r\n'),
    ).toHaveLength(1);
  });

  it('reads large lists in batches without losing or repeating a row, in the asked order', async () => {
    const big = await approvedBusiness(t.app, t.runtime, 'payers-export-big@example.com', 'Big Co');
    const total = 1234;
    const rows = Array.from({ length: total }, (_, i) => ({
      business_id: big.businessId,
      id: `pyr_bulk${String(i).padStart(5, '0')}`,
      display_name: `Payer ${String(i % 7)}`,
      company_name: `Payer ${String(i % 7)}`,
      email: `bulk${i}@example.com`,
      mobile_number: null,
      reference: null,
      verification_token_hash: null,
      verification_sent_at: null,
      verified_at: null,
      import_batch_id: null,
    }));
    for (let i = 0; i < rows.length; i += 500)
      await db()
        .insertInto('payers')
        .values(rows.slice(i, i + 500))
        .execute();
    for (const [sortBy, direction] of [
      ['status', 'asc'],
      ['name', 'desc'],
      ['createdAt', 'asc'],
      ['email', 'desc'],
    ] as const) {
      const res = await send(t.app, 'GET', `${base(big.businessId)}/export.csv?sortBy=${sortBy}&sortDirection=${direction}`, big.token);
      const ids = res.body
        .replace(/^\uFEFF/, '')
        .trimEnd()
        .split('\r\n')
        .slice(1)
        .map((l) => l.split(',')[0]);
      expect(ids, sortBy).toHaveLength(total);
      expect(new Set(ids).size, sortBy).toBe(total);
      const all = await send(t.app, 'GET', `${base(big.businessId)}?sortBy=${sortBy}&sortDirection=${direction}&pageSize=100&page=3`, big.token);
      expect(ids.slice(200, 300), sortBy).toEqual(all.json().data.items.map((p: { payerId: string }) => p.payerId));
    }
  });
});

describe('a payer’s history: who changed what, and when', () => {
  const history = async (owner: ApprovedBusiness, payerId: string) => {
    const res = await send(t.app, 'GET', `${base(owner.businessId)}/${payerId}/history`, owner.token);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { items: { action: string; actor: string; text: string; createdAt: string }[]; more: boolean };
  };

  it('names every change, newest first, with who made it — the payer’s own confirmation too', async () => {
    const payer = await addPayer(a, { firstName: 'Hal', lastName: 'Story', email: 'hal.story@example.com' });
    const link = await verificationLink(t.app, 'hal.story@example.com');
    expect((await send(t.app, 'POST', `/api/public/payers/verify/${link.token}`)).statusCode).toBe(200);
    expect((await send(t.app, 'PATCH', `${base(a.businessId)}/${payer.payerId}`, a.token, { lastName: 'Storey', reference: 'H-1' })).statusCode).toBe(200);
    expect((await send(t.app, 'POST', `${base(a.businessId)}/${payer.payerId}/deactivate`, a.token)).statusCode).toBe(200);
    expect((await send(t.app, 'POST', `${base(a.businessId)}/${payer.payerId}/activate`, a.token)).statusCode).toBe(200);
    expect((await send(t.app, 'POST', `${base(a.businessId)}/${payer.payerId}/reverify`, a.token)).statusCode).toBe(200);
    // Another payer's changes are not this one's.
    await addPayer(a, { firstName: 'Other', lastName: 'Person', email: 'other.person@example.com' });

    const { items, more } = await history(a, payer.payerId);
    expect(more).toBe(false);
    expect(items.map((e) => [e.action, e.actor, e.text])).toEqual([
      ['reverification_requested', 'payers-a@example.com', 'Asked to confirm their e-mail address again; shown as unverified until they do'],
      ['activated', 'payers-a@example.com', 'Activated: new requests to pay can be sent'],
      ['deactivated', 'payers-a@example.com', 'Deactivated: no new requests to pay can be sent'],
      ['updated', 'payers-a@example.com', 'Changed the last name and reference'],
      ['verified', 'payer', 'Confirmed their e-mail address'],
      ['created', 'payers-a@example.com', 'Added, and e-mailed a link to confirm their e-mail address'],
    ]);
    const times = items.map((e) => Date.parse(e.createdAt));
    expect([...times].sort((x, y) => y - x)).toEqual(times);
  });

  it('two changes written together keep their order: the new e-mail, then the link sent to it', async () => {
    const payer = await addPayer(a, { firstName: 'Eve', lastName: 'Order', email: 'eve.order.0@example.com' });
    // Each change of e-mail writes both events in one transaction, so they share one time. Their
    // ids are minted in one millisecond here (as on a fast database), so only the ids' own order
    // can keep them; six changes in a random order would come out right once in 64.
    vi.spyOn(Date, 'now').mockReturnValue(Date.now());
    try {
      for (let i = 1; i <= 6; i++) {
        const res = await send(t.app, 'PATCH', `${base(a.businessId)}/${payer.payerId}`, a.token, { email: `eve.order.${i}@example.com` });
        expect(res.statusCode, res.body).toBe(200);
      }
    } finally {
      vi.restoreAllMocks();
    }
    const { items } = await history(a, payer.payerId);
    expect(items.map((e) => e.text)).toEqual([
      ...Array.from({ length: 6 }, () => ['E-mailed a link to confirm the new e-mail address', 'Changed the e-mail address']).flat(),
      'Added, and e-mailed a link to confirm their e-mail address',
    ]);
  });

  it('an imported payer’s history starts with the import that added it, by whoever ran it', async () => {
    const csv = 'Email,First name,Last name\nimported.history@example.com,Ima,Port\n';
    expect((await send(t.app, 'POST', `${base(a.businessId)}/import`, a.token, { csv })).statusCode).toBe(200);
    const payer = (await list(a, '?search=imported.history')).items[0]!;
    expect((await history(a, payer.payerId)).items.map((e) => [e.action, e.actor, e.text])).toEqual([
      ['imported', 'payers-a@example.com', 'Added from a CSV file (not e-mailed)'],
    ]);
  });

  it('a deleted payer has none: 404', async () => {
    const gone = await addPayer(a, { firstName: 'Del', lastName: 'Eted', email: 'del.eted@example.com' });
    expect((await send(t.app, 'DELETE', `${base(a.businessId)}/${gone.payerId}`, a.token)).statusCode).toBe(200);
    const res = await send(t.app, 'GET', `${base(a.businessId)}/${gone.payerId}/history`, a.token);
    expect(res.statusCode).toBe(404);
    expect(errorOf(res)).toEqual({ code: 'NOT_FOUND', message: 'Payer not found.' });
  });
});

describe('tenant isolation: another business’s ids answer 404 on every endpoint', () => {
  let payerOfA: string;
  let payerOfB: string;
  beforeAll(async () => {
    payerOfA = (await addPayer(a, { firstName: 'Iso', lastName: 'Lated', email: 'isolated@example.com' })).payerId;
    payerOfB = (await list(b)).items[0]!.payerId;
  });
  const csv = 'Email,First name,Last name\nnew-person@example.com,New,Person\n';
  const endpoints = (payerId: string) =>
    [
      ['GET', '', undefined],
      ['GET', '/export.csv', undefined],
      ['POST', '', { firstName: 'X', lastName: 'Y', email: 'xy@example.com' }],
      ['POST', '/import/preview', { csv }],
      ['POST', '/import', { csv }],
      ['GET', `/${payerId}`, undefined],
      ['GET', `/${payerId}/history`, undefined],
      ['PATCH', `/${payerId}`, { lastName: 'Changed' }],
      ['DELETE', `/${payerId}`, undefined],
      ['POST', `/${payerId}/activate`, undefined],
      ['POST', `/${payerId}/deactivate`, undefined],
      ['POST', `/${payerId}/resend-verification`, undefined],
      ['POST', `/${payerId}/reverify`, undefined],
    ] as const;

  it.each(endpoints('PAYER'))("%s …/payers%s with another business's id: 'Business not found.'", async (method, path, body) => {
    const res = await send(t.app, method, `${base(a.businessId)}${path.replace('PAYER', payerOfA)}`, b.token, body);
    expect(res.statusCode, res.body).toBe(404);
    expect(errorOf(res)).toEqual({ code: 'NOT_FOUND', message: 'Business not found.' });
    expect((await send(t.app, method, `${base(a.businessId)}${path.replace('PAYER', payerOfA)}`, undefined, body)).statusCode).toBe(401);
  });

  it.each(endpoints('PAYER').filter(([, path]) => path.startsWith('/PAYER')))(
    "%s …/payers%s with their own business but a payer of another: 'Payer not found.'",
    async (method, path, body) => {
      const res = await send(t.app, method, `${base(b.businessId)}${path.replace('PAYER', payerOfA)}`, b.token, body);
      expect(res.statusCode, res.body).toBe(404);
      expect(errorOf(res)).toEqual({ code: 'NOT_FOUND', message: 'Payer not found.' });
    },
  );

  it("nothing the other business tried changed A's payers, and neither list shows the other's", async () => {
    const payer = (await send(t.app, 'GET', `${base(a.businessId)}/${payerOfA}`, a.token)).json().data;
    expect(payer).toMatchObject({ lastName: 'Lated', status: 'active', verification: 'unverified' });
    expect((await list(b)).items.map((p) => p.payerId)).not.toContain(payerOfA);
    expect((await list(a)).items.map((p) => p.payerId)).not.toContain(payerOfB);
    const search = await send(t.app, 'GET', `/api/directory/payers/beginsWith?businessId=${b.businessId}&q=iso`, b.token);
    expect(search.json().data).toEqual([]);
    const exported = await send(t.app, 'GET', `${base(b.businessId)}/export.csv`, b.token);
    expect(exported.body).not.toContain('isolated@example.com');
    expect(await db().selectFrom('payers').select('id').where('email', '=', 'new-person@example.com').execute()).toEqual([]);
  });
});

describe('only an Approved business changes its payers (the API refuses, not only the menu)', () => {
  let pending: { token: string; businessId: string };
  beforeAll(async () => {
    const token = await registeredUser(t.app, 'payers-pending@example.com');
    const { businessId } = await createBusiness(t.app, token, { businessName: 'Pending Co', entityType: 'standard' });
    await completeSetup(t.app, token, businessId);
    expect((await request(t.app, 'PATCH', `/api/businesses/${businessId}/update/submit`, token)).statusCode).toBe(200);
    pending = { token, businessId };
  });
  const writes = [
    ['POST', '', { firstName: 'X', lastName: 'Y', email: 'xy@example.com' }],
    ['POST', '/import/preview', { csv: 'Email\nq@example.com\n' }],
    ['POST', '/import', { csv: 'Email\nq@example.com\n' }],
    ['PATCH', '/pyr_any', { lastName: 'Changed' }],
    ['DELETE', '/pyr_any', undefined],
    ['POST', '/pyr_any/activate', undefined],
    ['POST', '/pyr_any/deactivate', undefined],
    ['POST', '/pyr_any/resend-verification', undefined],
    ['POST', '/pyr_any/reverify', undefined],
  ] as const;

  it.each(writes)('%s …/payers%s on a Pending business: 403 with a sentence', async (method, path, body) => {
    const res = await send(t.app, method, `${base(pending.businessId)}${path}`, pending.token, body);
    expect(res.statusCode, res.body).toBe(403);
    expect(errorOf(res)).toEqual({
      code: 'BUSINESS_NOT_APPROVED',
      message: 'Payers can be added or changed once your business is approved. Finish and submit your business setup first.',
    });
  });

  it('reading is fine: the list is empty', async () => {
    const res = await send(t.app, 'GET', base(pending.businessId), pending.token);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.total).toBe(0);
  });

  it('a disabled business is told to contact support; a viewer may only read', async () => {
    const owner = await approvedBusiness(t.app, t.runtime, 'payers-disabled@example.com', 'Disabled Co');
    const { payerId } = await addPayer(owner, { firstName: 'Kim', lastName: 'Lee', email: 'kim@example.com' });
    const viewer = await registeredUser(t.app, 'payers-viewer@example.com');
    const { id: userId } = await db().selectFrom('users').select('id').where('email', '=', 'payers-viewer@example.com').executeTakeFirstOrThrow();
    await db().insertInto('business_members').values({ business_id: owner.businessId, user_id: userId, role: 'viewer' }).execute();
    expect((await send(t.app, 'GET', `${base(owner.businessId)}/${payerId}`, viewer)).statusCode).toBe(200);
    const viewerWrite = await send(t.app, 'POST', `${base(owner.businessId)}/${payerId}/deactivate`, viewer);
    expect(viewerWrite.statusCode).toBe(403);
    expect(errorOf(viewerWrite).message).toBe('Your role in this business is view only: you can read and export, not change.');

    await db().updateTable('businesses').set({ state: 'Disabled' }).where('id', '=', owner.businessId).execute();
    const res = await send(t.app, 'POST', `${base(owner.businessId)}/${payerId}/deactivate`, owner.token);
    expect(res.statusCode).toBe(403);
    expect(errorOf(res).message).toBe('Your business is disabled, so its payers cannot be added or changed. Contact Tay support to enable it again.');
  });
});

describe('OpenAPI', () => {
  it('documents every payer endpoint with its schemas', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/businesses/{id}/payers',
        '/api/businesses/{id}/payers/export.csv',
        '/api/businesses/{id}/payers/import/preview',
        '/api/businesses/{id}/payers/import',
        '/api/businesses/{id}/payers/{payerId}',
        '/api/businesses/{id}/payers/{payerId}/activate',
        '/api/businesses/{id}/payers/{payerId}/deactivate',
        '/api/businesses/{id}/payers/{payerId}/resend-verification',
        '/api/businesses/{id}/payers/{payerId}/reverify',
        '/api/directory/payers/beginsWith',
        '/api/public/payers/verify/{token}',
      ]),
    );
    expect(Object.keys(doc.paths['/api/businesses/{id}/payers/{payerId}']!).sort()).toEqual(['delete', 'get', 'patch']);
  });
});
