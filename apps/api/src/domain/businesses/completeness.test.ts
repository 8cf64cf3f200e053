import { describe, expect, it } from 'vitest';
import type { Business } from '@tay/contract';
import { isKnownTimeZone, missingFields, missingItems } from './completeness';

const COMPLETE: Business = {
  businessId: 'biz_1',
  businessName: 'Acme',
  businessState: 'Incomplete',
  payoutEnabled: 0,
  entities: [{ entityType: 'standard', entityTemplateName: 'Standard' }],
  businessProfile: {
    legalName: 'Acme LLC',
    ein: '12-3456789',
    mcc: '5411',
    corporateStructure: 'llc',
    nonProfitCode: null,
    phone: '(555) 123-4567',
    email: 'a@example.com',
    logoUrl: null,
  },
  address: { line1: '1 Main St', line2: null, city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' },
  owners: [
    { id: 'own_1', firstName: 'A', lastName: 'B', title: 'CEO', ownershipPercent: 100, dateOfBirth: '1980-01-01', ssnLast4: '1234', email: 'a@example.com' },
  ],
  config: {
    timeZone: 'America/New_York',
    defaultExpiryDays: 30,
    reminderSchedule: [-3, 0, 3],
    invoiceTerms: null,
    confirmAboveCents: 1_000_000,
    amountCeilingCents: 1_000_000_000,
    allowNegativeBalance: false,
    timeZoneChosen: false,
  },
  automations: { autoReminders: true, autoExpire: true },
  bankAccount: {
    directoryId: 'manual',
    accountNumber: '••••6789',
    routingNumber: '••••6780',
    bankName: 'Other bank',
    institutionLogo: null,
    accountType: 'checking',
    accountHolderName: 'Acme LLC',
  },
  submittedAt: null,
  approvedAt: null,
  stateReason: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

describe('missingItems', () => {
  it('nothing is missing from a complete business', () => {
    expect(missingItems(COMPLETE)).toEqual([]);
  });

  it('names each missing item by section and field, in the order of the setup pages', () => {
    const missing = missingItems({
      ...COMPLETE,
      businessProfile: { logoUrl: null, corporateStructure: 'non_profit' },
      address: null,
      owners: [],
      bankAccount: null,
      config: { ...COMPLETE.config, timeZone: 'Nowhere/Special' },
    });
    expect(missing.map((m) => `${m.section}.${m.field}`)).toEqual([
      'profile.legalName',
      'profile.ein',
      'profile.mcc',
      'profile.nonProfitCode',
      'profile.phone',
      'profile.email',
      'address.line1',
      'owners.owner',
      'bankAccount.settlementAccount',
      'config.timeZone',
    ]);
    for (const item of missing) expect(item.message).toMatch(/^[A-Z].+\.$/);
    expect(Object.keys(missingFields(missing))).toHaveLength(missing.length);
  });

  it('asks for a non-profit code only from a non-profit', () => {
    const nonProfit = { ...COMPLETE, businessProfile: { ...COMPLETE.businessProfile, corporateStructure: 'non_profit' } };
    expect(missingItems(nonProfit).map((m) => m.field)).toEqual(['nonProfitCode']);
    expect(missingItems({ ...nonProfit, businessProfile: { ...nonProfit.businessProfile, nonProfitCode: '501(c)(3)' } })).toEqual([]);
  });
});

describe('isKnownTimeZone', () => {
  it('knows IANA zones and nothing else', () => {
    expect(isKnownTimeZone('America/Los_Angeles')).toBe(true);
    expect(isKnownTimeZone('Pacific/Honolulu')).toBe(true);
    expect(isKnownTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isKnownTimeZone('')).toBe(false);
  });
});
