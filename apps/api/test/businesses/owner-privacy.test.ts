import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvedBusiness, type ApprovedBusiness } from '../support/approved-business';
import { addMember } from '../support/payouts';
import { call } from '../support/requests';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * The owners' dates of birth and SSN digits (collected for the business's verification) are read
 * by those who manage the business, not by every member: a member or a viewer gets null.
 */

let t: TestApp;
let biz: ApprovedBusiness;
const db = () => t.runtime.database.db;

beforeAll(async () => {
  t = await createTestApp({ SANDBOX_AUTO_APPROVE: 'false' });
  biz = await approvedBusiness(t.app, db(), 'privacy-owner@example.com');
});
afterAll(async () => t?.close());

type Owner = { firstName: string; dateOfBirth: string | null; ssnLast4: string | null };
const ownersAs = async (token: string): Promise<Owner[]> => {
  const res = await call(t.app, 'GET', `/api/businesses/${biz.businessId}`, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.owners as Owner[];
};

describe("the owners' private details", () => {
  it('an owner and an admin see them', async () => {
    const [owner] = await ownersAs(biz.token);
    expect(owner).toMatchObject({ dateOfBirth: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), ssnLast4: expect.stringMatching(/^\d{4}$/) });
    const admin = await addMember(t.app, db(), biz.businessId, 'privacy-admin@example.com', 'admin');
    expect((await ownersAs(admin))[0]).toMatchObject({ dateOfBirth: owner!.dateOfBirth, ssnLast4: owner!.ssnLast4 });
  });

  it.each(['member', 'viewer'] as const)('a %s gets the owners without them, in the response and nowhere in its body', async (role) => {
    const [owner] = await ownersAs(biz.token);
    const token = await addMember(t.app, db(), biz.businessId, `privacy-${role}@example.com`, role);
    const res = await call(t.app, 'GET', `/api/businesses/${biz.businessId}`, token);
    const [seen] = res.json().data.owners as Owner[];
    expect(seen).toMatchObject({ firstName: owner!.firstName, dateOfBirth: null, ssnLast4: null });
    expect(res.body).not.toContain(owner!.dateOfBirth!);
  });
});
