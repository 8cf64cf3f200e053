import { describe, expect, it } from 'vitest';
import {
  batchEndpoints,
  businessEndpoints,
  invoiceEndpoints,
  payerEndpoints,
  paymentRequestEndpoints,
  payoutEndpoints,
  qrCodeEndpoints,
  receiverEndpoints,
  studentEndpoints,
  teamEndpoints,
} from '@tay/contract';
import { endpointAccess } from './endpoint-access';

const requests = paymentRequestEndpoints.create;
const payers = payerEndpoints.create;

describe('who may change requests and payers, as the endpoint table decides it', () => {
  it('an owner, admin or member of an Approved business may', () => {
    expect(endpointAccess(requests, { businessState: 'Approved', role: 'owner' })).toEqual({ allowed: true });
    expect(endpointAccess(payers, { businessState: 'Approved', role: 'admin' })).toEqual({ allowed: true });
    expect(endpointAccess(requests, { businessState: 'Approved', role: 'member' })).toEqual({ allowed: true });
  });

  it('a viewer may not, whatever the state, and is told why', () => {
    expect(endpointAccess(requests, { businessState: 'Approved', role: 'viewer' })).toMatchObject({
      allowed: false,
      title: 'View only',
      code: 'FORBIDDEN',
      reason: 'Your role in this business is view only: you can read and export requests, not create or change them.',
    });
    expect(endpointAccess(payers, { businessState: 'Pending', role: 'viewer' })).toMatchObject({ allowed: false, title: 'View only' });
  });

  it('a Disabled business may not, in the endpoint’s words', () => {
    expect(endpointAccess(requests, { businessState: 'Disabled', role: 'owner' })).toMatchObject({
      allowed: false,
      title: 'Your business is disabled',
      code: 'BUSINESS_NOT_APPROVED',
      reason: 'This business is disabled, so it cannot request payments. Contact Tay support.',
    });
    expect(endpointAccess(payers, { businessState: 'Disabled', role: 'owner' })).toMatchObject({
      allowed: false,
      reason: 'Your business is disabled, so its payers cannot be added or changed. Contact Tay support to enable it again.',
    });
  });

  it.each(['Incomplete', 'Pending'])('a %s business may not until it is approved', (state) => {
    expect(endpointAccess(requests, { businessState: state, role: 'owner' })).toMatchObject({
      allowed: false,
      title: 'Requests open once your business is approved',
      reason: 'Requests to pay can be created and sent once your business is approved.',
    });
    expect(endpointAccess(payers, { businessState: state, role: 'owner' })).toMatchObject({
      allowed: false,
      title: 'Payers open once your business is approved',
    });
  });

  it('no business, no changes', () => {
    expect(endpointAccess(requests, undefined)).toMatchObject({ allowed: false, reason: 'Create your business first.' });
  });

  it('invoices follow the same rule, in the invoices’ own words', () => {
    const invoices = invoiceEndpoints.create;
    expect(endpointAccess(invoices, { businessState: 'Approved', role: 'member' })).toEqual({ allowed: true });
    expect(endpointAccess(invoices, { businessState: 'Approved', role: 'viewer' })).toMatchObject({
      allowed: false,
      reason: 'Your role in this business is view only: you can read, download and export invoices, not create or change them.',
    });
    expect(endpointAccess(invoices, { businessState: 'Disabled', role: 'owner' })).toMatchObject({
      allowed: false,
      reason: 'This business is disabled, so it cannot send invoices. Contact Tay support.',
    });
    expect(endpointAccess(invoices, { businessState: 'Pending', role: 'owner' })).toMatchObject({
      allowed: false,
      reason: 'Invoices can be created and sent once your business is approved.',
    });
  });

  it('QR codes follow the same rule, in the QR codes’ own words', () => {
    const codes = qrCodeEndpoints.create;
    expect(endpointAccess(codes, { businessState: 'Approved', role: 'member' })).toEqual({ allowed: true });
    expect(endpointAccess(codes, { businessState: 'Approved', role: 'viewer' })).toMatchObject({
      allowed: false,
      reason: 'Your role in this business is view only: you can read, download and export QR codes, not create or change them.',
    });
    expect(endpointAccess(codes, { businessState: 'Disabled', role: 'owner' })).toMatchObject({
      allowed: false,
      reason: 'This business is disabled, so it cannot take payments through QR codes. Contact Tay support.',
    });
    expect(endpointAccess(codes, { businessState: 'Pending', role: 'owner' })).toMatchObject({
      allowed: false,
      reason: 'QR codes can be created once your business is approved.',
    });
  });
});

describe('every endpoint answers from its own entry', () => {
  it('its reasons are the ones the API gives (`notApproved`), for every area of the table', () => {
    for (const endpoint of [receiverEndpoints.create, studentEndpoints.create, payoutEndpoints.create, batchEndpoints.payCheckIns]) {
      expect(endpointAccess(endpoint, { businessState: 'Pending', role: 'owner' })).toMatchObject({ allowed: false, reason: endpoint.notApproved.pending });
      expect(endpointAccess(endpoint, { businessState: 'Disabled', role: 'owner' })).toMatchObject({ allowed: false, reason: endpoint.notApproved.disabled });
    }
  });

  it('an owner or admin’s endpoint refuses a member in the API’s words', () => {
    const invite = teamEndpoints.invite;
    expect(endpointAccess(invite, { businessState: 'Approved', role: 'admin' }).allowed).toBe(true);
    expect(endpointAccess(invite, { businessState: 'Approved', role: 'member' })).toMatchObject({
      allowed: false,
      title: 'View only',
      code: 'FORBIDDEN',
      reason: 'Only an owner or admin of this business can do this.',
    });
  });

  it('the business’s details can change while it is Incomplete or Approved, not under review', () => {
    const update = businessEndpoints.update;
    expect(endpointAccess(update, { businessState: 'Incomplete', role: 'owner' })).toEqual({ allowed: true });
    expect(endpointAccess(update, { businessState: 'Pending', role: 'owner' })).toMatchObject({
      allowed: false,
      code: 'CONFLICT',
      title: 'These details are locked',
    });
  });
});
