import { parsePhoneNumberFromString } from 'libphonenumber-js';

/** A typed phone number as E.164 (`+14155550123`), US by default; null when it is not valid. */
export function toE164(input: string): string | null {
  const parsed = parsePhoneNumberFromString(input.trim(), 'US');
  return parsed && parsed.isValid() ? parsed.number : null;
}

/** `+14155550123` → `(415) 555-0123`; other countries in international format. */
export function formatPhone(e164: string | null | undefined): string {
  if (!e164) return '';
  const parsed = parsePhoneNumberFromString(e164);
  if (!parsed) return e164;
  return parsed.country === 'US' ? parsed.formatNational() : parsed.formatInternational();
}
