/**
 * Customer names where the provider wants each one unique (QuickBooks Online: a Customer's
 * DisplayName may be no other customer's, vendor's or employee's, or it answers 6240 "Duplicate Name
 * Exists"). QuickBooks users tell two people of one name apart by adding something of theirs; we
 * add the e-mail address, which is unique among a business's payers: "Ana Rivera (ana@x.example)".
 */

/** The longest DisplayName we send QuickBooks. */
export const DISPLAY_NAME_MAX = 100;

/** How QuickBooks compares names: outer and doubled spaces aside, case aside. */
export const nameKey = (name: string) => name.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * "Ana Rivera (ana@x.example)", within `max` characters: a long name is shortened (with "…")
 * before the address is; an address too long to fit whole is cut at the end.
 */
export function displayNameWithEmail(name: string, email: string, max = DISPLAY_NAME_MAX): string {
  const base = name.trim().replace(/\s+/g, ' ');
  const address = email.trim();
  if (!address) return base.slice(0, max);
  const suffix = ` (${address})`;
  if (base.length + suffix.length <= max) return `${base}${suffix}`;
  const room = max - suffix.length;
  // Keep at least a few letters of the name: it is what a bookkeeper reads first.
  if (room >= 6) return `${base.slice(0, room - 1).trimEnd()}…${suffix}`;
  return `${base.slice(0, 5).trimEnd()}… (${address}`.slice(0, max - 1) + ')';
}
