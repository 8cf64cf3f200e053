import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, registeredUser } from '../support/identity';
import { BANK, createBusiness, PNG_BASE64, PROFILE, request } from '../support/businesses';
import { createTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
let owner: string;
let stranger: string;
let businessId: string;
beforeAll(async () => {
  t = await createTestApp({ SANDBOX_AUTO_APPROVE: 'false' });
  owner = await registeredUser(t.app, 'tenant-a@example.com');
  stranger = await registeredUser(t.app, 'tenant-b@example.com');
  businessId = (await createBusiness(t.app, owner, { businessName: 'Tenant A', entityType: 'standard' })).businessId;
  await createBusiness(t.app, stranger, { businessName: 'Tenant B', entityType: 'standard' });
});
afterAll(async () => t?.close());

/** Every business endpoint that needs a member, with a valid body, so only access decides. */
const ENDPOINTS = [
  ['GET', '', undefined],
  ['PATCH', '/update', { businessProfile: PROFILE }],
  ['PATCH', '/update/prepareSubmit', undefined],
  ['PATCH', '/update/submit', undefined],
  ['POST', '/bank-accounts', BANK],
  ['POST', '/logo', { dataUrl: `data:image/png;base64,${PNG_BASE64}` }],
] as const;

describe('tenant isolation', () => {
  it.each(ENDPOINTS)("%s …%s: another user's business answers 404, exactly like an unknown one", async (method, path, body) => {
    const notMine = await request(t.app, method, `/api/businesses/${businessId}${path}`, stranger, body);
    const unknown = await request(t.app, method, `/api/businesses/biz_00000000000000000000000000${path}`, owner, body);
    for (const res of [notMine, unknown]) {
      expect(res.statusCode).toBe(404);
      expect(errorOf(res)).toEqual({ code: 'NOT_FOUND', message: 'Business not found.' });
    }
    const anonymous = await request(t.app, method, `/api/businesses/${businessId}${path}`, undefined, body);
    expect(anonymous.statusCode).toBe(401);
  });

  it('nothing the stranger tried changed the business or its trail, and they do not see it in their list', async () => {
    const business = (await request(t.app, 'GET', `/api/businesses/${businessId}`, owner)).json().data;
    expect(business).toMatchObject({ businessName: 'Tenant A', businessState: 'Incomplete', bankAccount: null, address: null });
    expect(business.businessProfile).toMatchObject({ logoUrl: null, ein: null });
    const actions = await t.runtime.database.db.selectFrom('business_events').select(['action', 'actor']).where('business_id', '=', businessId).execute();
    expect(actions).toEqual([{ action: 'business.created', actor: 'tenant-a@example.com' }]);
    const theirs = (await request(t.app, 'GET', '/api/user', stranger)).json().data.businesses;
    expect(theirs.map((b: { businessName: string }) => b.businessName)).toEqual(['Tenant B']);
  });

  it('a member or viewer may read the business but not change it', async () => {
    const viewer = await registeredUser(t.app, 'tenant-viewer@example.com');
    const { id: userId } = await t.runtime.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'tenant-viewer@example.com')
      .executeTakeFirstOrThrow();
    await t.runtime.database.db.insertInto('business_members').values({ business_id: businessId, user_id: userId, role: 'member' }).execute();
    // A member runs the day's work (payers, requests); the business itself is the owners' and admins'.
    // The web app greys out changes from what GET /api/user says of the person's role.
    expect((await request(t.app, 'GET', '/api/user', viewer)).json().data.businesses).toMatchObject([{ businessId, role: 'member' }]);
    expect((await request(t.app, 'GET', `/api/businesses/${businessId}`, viewer)).statusCode).toBe(200);
    expect((await request(t.app, 'PATCH', `/api/businesses/${businessId}/update/prepareSubmit`, viewer)).statusCode).toBe(200);
    for (const [method, path, body] of ENDPOINTS.filter(([m, p]) => m !== 'GET' && p !== '/update/prepareSubmit')) {
      const res = await request(t.app, method, `/api/businesses/${businessId}${path}`, viewer, body);
      expect(res.statusCode, path).toBe(403);
      expect(errorOf(res).code).toBe('FORBIDDEN');
      expect(errorOf(res).message, path).toMatch(/^Only an owner (or admin )?of this business can do this\.$/);
    }
  });
});
