import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';

/** A complete, valid setup: every section prepareSubmit asks for. */
export const PROFILE = {
  legalName: 'Acme Learning LLC',
  dbaName: 'Acme Learning',
  ein: '12-3456789',
  mcc: '8211',
  corporateStructure: 'llc',
  phone: '(555) 123-4567',
  email: 'hello@acme.example',
  website: 'https://acme.example',
};
export const ADDRESS = { line1: '1 Main St', line2: 'Suite 5', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' };
export const OWNER = {
  firstName: 'Ana',
  lastName: 'Lopez',
  title: 'CEO',
  ownershipPercent: 60,
  dateOfBirth: '1980-04-12',
  ssnLast4: '1234',
  email: 'ana@acme.example',
  phone: null,
};
/** Passes the ABA checksum and is not in the sandbox directory. */
export const ROUTING_NUMBER = '123456780';
export const ACCOUNT_NUMBER = '000123456789';
export const BANK = {
  routingNumber: ROUTING_NUMBER,
  accountNumber: ACCOUNT_NUMBER,
  confirmAccountNumber: ACCOUNT_NUMBER,
  accountType: 'checking',
  accountHolderName: 'Acme Learning LLC',
};
/** A 1×1 PNG. */
export const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

export function request(app: FastifyInstance, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, token?: string, payload?: unknown) {
  return app.inject({
    method,
    url,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });
}

export async function createBusiness(app: FastifyInstance, token: string, body = { businessName: 'Acme Learning', entityType: 'student' }) {
  const res = await request(app, 'POST', '/api/businesses', token, body);
  expect(res.statusCode).toBe(201);
  return res.json().data as { businessId: string; businessState: string };
}

/** Fills every section and links the settlement account: ready to submit. */
export async function completeSetup(app: FastifyInstance, token: string, businessId: string) {
  const updated = await request(app, 'PATCH', `/api/businesses/${businessId}/update`, token, {
    businessProfile: PROFILE,
    address: ADDRESS,
    owners: [OWNER],
  });
  expect(updated.statusCode, updated.body).toBe(200);
  const bank = await request(app, 'POST', `/api/businesses/${businessId}/bank-accounts`, token, BANK);
  expect(bank.statusCode, bank.body).toBe(200);
}
