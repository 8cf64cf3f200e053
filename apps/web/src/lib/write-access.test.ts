import { describe, expect, it } from 'vitest';
import { writeAccess } from './write-access';

describe('who may change requests and payers, as the API decides it', () => {
  it('an owner, admin or member of an Approved business may', () => {
    expect(writeAccess({ businessState: 'Approved', role: 'owner' }, 'requests')).toEqual({ allowed: true });
    expect(writeAccess({ businessState: 'Approved', role: 'admin' }, 'payers')).toEqual({ allowed: true });
    expect(writeAccess({ businessState: 'Approved', role: 'member' }, 'requests')).toEqual({ allowed: true });
  });

  it('a viewer may not, whatever the state, and is told why', () => {
    expect(writeAccess({ businessState: 'Approved', role: 'viewer' }, 'requests')).toMatchObject({
      allowed: false,
      reason: 'Your role in this business is view only: you can read and export requests, not create or change them.',
    });
    expect(writeAccess({ businessState: 'Approved', role: 'viewer' }, 'payers')).toMatchObject({ allowed: false });
  });

  it('a Disabled business may not, in the API’s words', () => {
    expect(writeAccess({ businessState: 'Disabled', role: 'owner' }, 'requests')).toMatchObject({
      allowed: false,
      reason: 'This business is disabled, so it cannot request payments. Contact Tay support.',
    });
    expect(writeAccess({ businessState: 'Disabled', role: 'owner' }, 'payers')).toMatchObject({
      allowed: false,
      reason: 'Your business is disabled, so its payers cannot be added or changed. Contact Tay support to enable it again.',
    });
  });

  it.each(['Incomplete', 'Pending'])('a %s business may not until it is approved', (state) => {
    expect(writeAccess({ businessState: state, role: 'owner' }, 'requests')).toMatchObject({
      allowed: false,
      reason: 'Requests to pay can be created and sent once your business is approved.',
    });
    expect(writeAccess({ businessState: state, role: 'owner' }, 'payers')).toMatchObject({ allowed: false });
  });

  it('no business, no changes', () => {
    expect(writeAccess(undefined, 'requests').allowed).toBe(false);
  });

  it('invoices follow the same rule, in the invoices’ own words', () => {
    expect(writeAccess({ businessState: 'Approved', role: 'member' }, 'invoices')).toEqual({ allowed: true });
    expect(writeAccess({ businessState: 'Approved', role: 'viewer' }, 'invoices')).toMatchObject({
      allowed: false,
      reason: 'Your role in this business is view only: you can read, download and export invoices, not create or change them.',
    });
    expect(writeAccess({ businessState: 'Disabled', role: 'owner' }, 'invoices')).toMatchObject({
      allowed: false,
      reason: 'This business is disabled, so it cannot send invoices. Contact Tay support.',
    });
    expect(writeAccess({ businessState: 'Pending', role: 'owner' }, 'invoices')).toMatchObject({
      allowed: false,
      reason: 'Invoices can be created and sent once your business is approved.',
    });
  });

  it('QR codes follow the same rule, in the QR codes’ own words', () => {
    expect(writeAccess({ businessState: 'Approved', role: 'member' }, 'qrCodes')).toEqual({ allowed: true });
    expect(writeAccess({ businessState: 'Approved', role: 'viewer' }, 'qrCodes')).toMatchObject({
      allowed: false,
      reason: 'Your role in this business is view only: you can read, download and export QR codes, not create or change them.',
    });
    expect(writeAccess({ businessState: 'Disabled', role: 'owner' }, 'qrCodes')).toMatchObject({
      allowed: false,
      reason: 'This business is disabled, so it cannot take payments through QR codes. Contact Tay support.',
    });
    expect(writeAccess({ businessState: 'Pending', role: 'owner' }, 'qrCodes')).toMatchObject({
      allowed: false,
      reason: 'QR codes can be created once your business is approved.',
    });
  });
});
