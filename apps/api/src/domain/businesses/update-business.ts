import type { Kysely, Transaction, Updateable } from 'kysely';
import { sql } from 'kysely';
import { ErrorCode, formatMoney, isNonProfitStructure, type Business, type FieldErrors, type Owner, type UpdateBusinessBody } from '@tay/contract';
import type { DB } from '../../db/schema';
import type { BusinessesTable } from '../../db/schema/business';
import { AppError } from '../../lib/app-error';
import { newId } from '../../lib/ids';
import { isKnownCorporateStructure } from '../reference/corporate-structures';
import { isKnownMcc } from '../reference/mcc-codes';
import { isKnownNonProfitCode } from '../reference/non-profit-codes';
import { assertEditable } from './access';
import { recordEvent, type Actor } from './audit';
import { loadBusiness, lockBusinessRow, selectOwners, type BusinessRow } from './business-record';
import { isKnownTimeZone, missingFields, missingItems } from './completeness';

export const MIN_OWNER_AGE = 18;

export interface UpdateBusinessOptions {
  db: Kysely<DB>;
  businessId: string;
  actor: Actor & { userId: string };
  body: UpdateBusinessBody;
  /** Today's date, for the owners' ages. */
  now?: Date;
}

/** Optional text: `undefined` keeps the stored value, `null` or blank clears it. */
function optionalText(value: string | null | undefined): string | null | undefined {
  if (value === undefined || value === null) return value;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

function isPhoneNumber(value: string): boolean {
  const digits = value.replace(/\D/g, '').length;
  return /^\+?[\d\s().-]+$/.test(value) && digits >= 10 && digits <= 15;
}

function ageOn(dateOfBirth: string, now: Date): number {
  const [year, month, day] = dateOfBirth.split('-').map(Number) as [number, number, number];
  let age = now.getUTCFullYear() - year;
  if (now.getUTCMonth() + 1 < month || (now.getUTCMonth() + 1 === month && now.getUTCDate() < day)) age -= 1;
  return age;
}

/**
 * PATCH /api/businesses/:id/update: any subset of the setup sections (profile, address, owners,
 * config, automations, name). Within a section, an absent optional field keeps its value and
 * `null` clears it; owners are replaced as a whole list (an owner sent with the id of an existing
 * owner keeps that id). Codes are checked against the reference lists. An approved business
 * must stay complete. Each call that changes something writes one audit event naming the fields.
 */
export async function updateBusiness({ db, businessId, actor, body, now = new Date() }: UpdateBusinessOptions): Promise<Business> {
  return db.transaction().execute(async (trx) => {
    const row = await lockBusinessRow(trx, businessId);
    assertEditable(row);
    const fields: FieldErrors = {};
    const set: Updateable<BusinessesTable> = {};
    const changes: string[] = [];
    const diff: { field: string; before: unknown; after: unknown }[] = [];
    const change = <C extends keyof BusinessRow & keyof BusinessesTable>(column: C, value: BusinessRow[C] | undefined, name: string) => {
      if (value === undefined || JSON.stringify(value) === JSON.stringify(row[column])) return;
      (set as Record<string, unknown>)[column] = value;
      changes.push(name);
      // The audit log's before → after; a tax id shows only its last four digits.
      const shown = (v: unknown) => (column === 'ein' && typeof v === 'string' ? `•••••${v.slice(-4)}` : v);
      diff.push({ field: name, before: shown(row[column]), after: shown(value) });
    };

    if (body.businessName !== undefined) change('business_name', body.businessName, 'businessName');

    const profile = body.businessProfile;
    if (profile) {
      const structure = profile.corporateStructure === undefined ? row.corporate_structure : optionalText(profile.corporateStructure);
      if (structure && !isKnownCorporateStructure(structure)) {
        fields['businessProfile.corporateStructure'] = `"${structure}" is not a corporate structure we know; choose one from the list.`;
      }
      if (profile.mcc && !isKnownMcc(profile.mcc)) {
        fields['businessProfile.mcc'] = `${profile.mcc} is not a merchant category code; choose one from the list.`;
      }
      let nonProfitCode = optionalText(profile.nonProfitCode);
      if (nonProfitCode) {
        if (!isKnownNonProfitCode(nonProfitCode)) {
          fields['businessProfile.nonProfitCode'] = `"${nonProfitCode}" is not an IRS non-profit code; choose one from the list, such as 501(c)(3).`;
        } else if (!isNonProfitStructure(structure)) {
          fields['businessProfile.nonProfitCode'] =
            'A non-profit code applies only when the corporate structure is a non-profit organization; choose that structure or leave the code empty.';
        }
      } else if (nonProfitCode === undefined && !isNonProfitStructure(structure) && row.non_profit_code) {
        // The structure no longer is a non-profit one, so its code no longer applies.
        nonProfitCode = null;
      }
      const website = optionalText(profile.website);
      if (website && !/^https?:\/\//i.test(website)) {
        fields['businessProfile.website'] = 'Enter a web address that starts with https:// or http://, like https://example.com.';
      }
      const phone = optionalText(profile.phone);
      if (phone && !isPhoneNumber(phone)) {
        fields['businessProfile.phone'] = 'Enter the phone number with its area code, like (555) 123-4567.';
      }
      change('legal_name', profile.legalName, 'businessProfile.legalName');
      change('dba_name', optionalText(profile.dbaName), 'businessProfile.dbaName');
      change('ein', profile.ein === undefined || profile.ein === null ? profile.ein : profile.ein.replace('-', ''), 'businessProfile.ein');
      change('mcc', profile.mcc, 'businessProfile.mcc');
      change('corporate_structure', optionalText(profile.corporateStructure), 'businessProfile.corporateStructure');
      change('non_profit_code', nonProfitCode, 'businessProfile.nonProfitCode');
      change('phone', phone, 'businessProfile.phone');
      change('email', optionalText(profile.email), 'businessProfile.email');
      change('website', website, 'businessProfile.website');
    }

    const address = body.address;
    if (address) {
      change('address_line1', address.line1, 'address.line1');
      change('address_line2', optionalText(address.line2) ?? null, 'address.line2');
      change('address_city', address.city, 'address.city');
      change('address_state', address.state, 'address.state');
      change('address_postal_code', address.postalCode, 'address.postalCode');
      change('address_country', address.country, 'address.country');
    }

    const config = body.config;
    if (config) {
      if (!isKnownTimeZone(config.timeZone)) {
        fields['config.timeZone'] = `"${config.timeZone}" is not a time zone; choose one from the list, like America/New_York.`;
      }
      if (new Set(config.reminderSchedule).size !== config.reminderSchedule.length) {
        fields['config.reminderSchedule'] = 'Each reminder day can appear only once.';
      }
      change('time_zone', config.timeZone, 'config.timeZone');
      change('default_expiry_days', config.defaultExpiryDays, 'config.defaultExpiryDays');
      change(
        'reminder_schedule',
        [...config.reminderSchedule].sort((a, b) => a - b),
        'config.reminderSchedule',
      );
      if (config.invoiceTerms !== undefined) change('invoice_terms', optionalText(config.invoiceTerms), 'config.invoiceTerms');
      if (config.confirmAboveCents !== undefined) change('confirm_above_cents', config.confirmAboveCents, 'config.confirmAboveCents');
      if (config.amountCeilingCents !== undefined) change('amount_ceiling_cents', config.amountCeilingCents, 'config.amountCeilingCents');
      if (config.allowNegativeBalance !== undefined) change('allow_negative_balance', config.allowNegativeBalance, 'config.allowNegativeBalance');
      const ceiling = config.amountCeilingCents ?? Number(row.amount_ceiling_cents);
      const confirmAbove = config.confirmAboveCents ?? Number(row.confirm_above_cents);
      if (confirmAbove > ceiling) {
        fields['config.confirmAboveCents'] = `Set the confirmation limit at or below the highest amount, ${formatMoney(ceiling)}.`;
      }
      // Saving the configuration is the choice, even of the zone it already had.
      if (!row.time_zone_chosen) set.time_zone_chosen = true;
    }

    if (body.automations) {
      change('auto_reminders', body.automations.autoReminders, 'automations.autoReminders');
      change('auto_expire', body.automations.autoExpire, 'automations.autoExpire');
    }

    if (body.owners) {
      body.owners.forEach((owner, index) => {
        const age = ageOn(owner.dateOfBirth, now);
        if (age < 0 || owner.dateOfBirth > now.toISOString().slice(0, 10)) {
          fields[`owners.${index}.dateOfBirth`] = 'The date of birth cannot be in the future.';
        } else if (age < MIN_OWNER_AGE) {
          fields[`owners.${index}.dateOfBirth`] = `Owners must be at least ${MIN_OWNER_AGE} years old.`;
        }
      });
    }

    if (Object.keys(fields).length > 0) {
      throw AppError.validation(`Please correct the highlighted fields: ${Object.keys(fields).join(', ')}.`, fields);
    }

    if (body.owners && (await replaceOwners(trx, businessId, body.owners))) changes.push('owners');

    if (changes.length > 0) {
      await trx
        .updateTable('businesses')
        .set({ ...set, updated_at: sql<Date>`now()` })
        .where('id', '=', businessId)
        .execute();
      await recordEvent(trx, { businessId, actor, action: 'business.updated', details: { changes, diff } });
    } else if (set.time_zone_chosen) {
      await trx.updateTable('businesses').set({ time_zone_chosen: true }).where('id', '=', businessId).execute();
    }

    const business = await loadBusiness(trx, businessId);
    if (row.state === 'Approved') {
      const missing = missingItems(business);
      if (missing.length > 0) {
        throw new AppError(
          ErrorCode.UnprocessableEntity,
          'An approved business must keep all its required details; this change would remove some.',
          missingFields(missing),
        );
      }
    }
    return business;
  });
}

/** Replaces the owner list; returns whether it differs from the stored one. */
async function replaceOwners(trx: Transaction<DB>, businessId: string, owners: Owner[]): Promise<boolean> {
  const existing = await selectOwners(trx, businessId);
  const existingIds = new Set(existing.map((o) => o.id));
  const rows = owners.map((owner, position) => ({
    business_id: businessId,
    id: owner.id && existingIds.has(owner.id) ? owner.id : newId('own'),
    position,
    first_name: owner.firstName,
    last_name: owner.lastName,
    title: owner.title,
    ownership_percent: owner.ownershipPercent,
    date_of_birth: owner.dateOfBirth,
    ssn_last4: owner.ssnLast4,
    email: owner.email,
    phone: optionalText(owner.phone) ?? null,
  }));
  const comparable = (o: Omit<(typeof rows)[number], 'business_id' | 'position'>) =>
    JSON.stringify([o.id, o.first_name, o.last_name, o.title, o.ownership_percent, o.date_of_birth, o.ssn_last4, o.email, o.phone]);
  if (rows.length === existing.length && rows.every((r, i) => comparable(r) === comparable(existing[i]!))) return false;
  await trx.deleteFrom('business_owners').where('business_id', '=', businessId).execute();
  if (rows.length > 0) await trx.insertInto('business_owners').values(rows).execute();
  return true;
}
