import { isNonProfitStructure, type Business, type MissingItem } from '@tay/contract';

export function isKnownTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/**
 * What a business still needs before it can be submitted, one entry per item, in the order of
 * the setup pages. The rule, kept simple on purpose:
 * - profile: legal name, EIN, merchant category, corporate structure (and the non-profit code
 *   when the structure is a non-profit), phone and e-mail;
 * - the business address;
 * - at least one owner (the setup form keeps their shares at 100 % or less);
 * - a settlement bank account;
 * - a configuration with a valid time zone (a new business starts with working defaults).
 */
export function missingItems(business: Business): MissingItem[] {
  const missing: MissingItem[] = [];
  const profile = business.businessProfile;
  const need = (section: MissingItem['section'], field: string, message: string) => missing.push({ section, field, message });

  if (!profile.legalName) need('profile', 'legalName', 'Enter the legal name of the business, as registered with the IRS.');
  if (!profile.ein) need('profile', 'ein', 'Enter the 9-digit Employer Identification Number (EIN), like 12-3456789.');
  if (!profile.mcc) need('profile', 'mcc', 'Choose the merchant category that best describes what the business sells.');
  if (!profile.corporateStructure) need('profile', 'corporateStructure', 'Choose the corporate structure, such as LLC or sole proprietorship.');
  if (isNonProfitStructure(profile.corporateStructure) && !profile.nonProfitCode) {
    need('profile', 'nonProfitCode', 'Choose the IRS code the organization is exempt under, such as 501(c)(3).');
  }
  if (!profile.phone) need('profile', 'phone', 'Enter the phone number of the business.');
  if (!profile.email) need('profile', 'email', 'Enter the e-mail address of the business.');
  if (!business.address) need('address', 'line1', 'Add the business address: street, city, state and ZIP code.');
  if (business.owners.length === 0) need('owners', 'owner', 'Add at least one owner: a person who owns or controls the business.');
  if (!business.bankAccount) need('bankAccount', 'settlementAccount', 'Link the bank account where Tay should send the money you collect.');
  if (!isKnownTimeZone(business.config.timeZone)) need('config', 'timeZone', 'Choose the time zone the business works in.');
  return missing;
}

/** `{ 'profile.ein': '…' }`: the missing items as the error shape's `fields`. */
export function missingFields(missing: MissingItem[]): Record<string, string> {
  return Object.fromEntries(missing.map((item) => [`${item.section}.${item.field}`, item.message]));
}
