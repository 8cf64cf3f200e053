// PostgreSQL pass: days and months cut in the business's time zone by SQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendScheduledRequests } from '../../src/domain/payment-requests/background';
import { approvedBusiness, insertPayer } from '../support/approved-business';
import { ADDRESS, createBusiness, request } from '../support/businesses';
import { registeredUser } from '../support/identity';
import { dayIn, requestContext, requestsApi } from '../support/requests';
import { createTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SANDBOX_AUTO_APPROVE: 'false' });
});
afterAll(async () => t?.close());

const CONFIG = { timeZone: 'America/New_York', defaultExpiryDays: 30, reminderSchedule: [-3, 0, 3], invoiceTerms: null };

describe('whether the business chose its time zone', () => {
  it('is not chosen at first nor by the address, and is once the configuration is saved, even unchanged', async () => {
    const token = await registeredUser(t.app, 'zone@example.com');
    const { businessId } = await createBusiness(t.app, token, { businessName: 'Zone Cafe', entityType: 'standard' });
    const read = async () => (await request(t.app, 'GET', `/api/businesses/${businessId}`, token)).json().data.config;
    expect(await read()).toMatchObject({ timeZone: 'America/New_York', timeZoneChosen: false });

    const address = await request(t.app, 'PATCH', `/api/businesses/${businessId}/update`, token, { address: { ...ADDRESS, state: 'CA' } });
    expect(address.statusCode, address.body).toBe(200);
    // The address suggests a zone on the setup page; the stored one waits for the business's choice.
    expect(address.json().data.config).toMatchObject({ timeZone: 'America/New_York', timeZoneChosen: false });

    const saved = await request(t.app, 'PATCH', `/api/businesses/${businessId}/update`, token, { config: CONFIG });
    expect(saved.statusCode, saved.body).toBe(200);
    // The amount limits, not sent, keep their defaults.
    const limits = { confirmAboveCents: 1_000_000, amountCeilingCents: 1_000_000_000, allowNegativeBalance: false };
    expect(saved.json().data.config).toEqual({ ...CONFIG, ...limits, timeZoneChosen: true });
    expect(await read()).toEqual({ ...CONFIG, ...limits, timeZoneChosen: true });

    // Nothing the business sees changed, so the audit trail records no update for it.
    const updates = await t.runtime.database.db
      .selectFrom('business_events')
      .select('details')
      .where('business_id', '=', businessId)
      .where('action', '=', 'business.updated')
      .execute();
    expect(updates.map((e) => e.details)).toEqual([
      {
        changes: ['address.line1', 'address.line2', 'address.city', 'address.state', 'address.postalCode', 'address.country'],
        diff: expect.arrayContaining([{ field: 'address.line1', before: null, after: '1 Main St' }]),
      },
    ]);
  });
});

describe('Send later, in the business’s time zone', () => {
  it('says when in the business’s zone, and sends at that instant', async () => {
    const biz = await approvedBusiness(t.app, t.runtime.database.db, 'owner@la-zone.example');
    const zone = await request(t.app, 'PATCH', `/api/businesses/${biz.businessId}/update`, biz.token, {
      config: { ...CONFIG, timeZone: 'America/Los_Angeles' },
    });
    expect(zone.statusCode, zone.body).toBe(200);
    const payerId = await insertPayer(t.runtime.database.db, biz.businessId);
    const api = requestsApi(t.app, biz);
    // 9:45 in Los Angeles on a July day (UTC-7) is 16:45 UTC, whatever zone the server runs in.
    const day = `${Number(dayIn(0).slice(0, 4)) + 1}-07-04`;
    const sendAt = `${day}T16:45:00.000Z`;
    const scheduled = await api.create(payerId, { mode: 'schedule', sendAt, dueDate: `${day.slice(0, 4)}-07-20` });
    const detail = await api.detail(scheduled.transactionId);
    expect(detail.timeline.at(-1)!.detail).toBe(`To be sent Jul 04, ${day.slice(0, 4)} 9:45 (America/Los_Angeles)`);

    expect(await sendScheduledRequests(requestContext(t.runtime), new Date(`${day}T16:44:00.000Z`))).toBe(0);
    expect(await sendScheduledRequests(requestContext(t.runtime), new Date(`${day}T16:45:00.000Z`))).toBe(1);
  });
});
