import { sql } from 'kysely';
import type { Payer, PayerUpdateBody, RequestState } from '@tay/contract';
import { recordEvent } from '../businesses/audit';
import { assertNoDuplicate, duplicateFromUniqueViolation, invalidPayer, validatePayerFields, type PayerFields } from './payer-input';
import { loadPayer, lockPayerRow } from './payer-record';
import type { VerificationActionOptions } from './resend-verification';
import { sendVerificationLink } from './verification';

export interface UpdatePayerOptions extends VerificationActionOptions {
  body: PayerUpdateBody;
}

/** Requests that will never be e-mailed again (docs/product.md §4): they keep the payer they were made for. */
const CLOSED_REQUEST_STATES: RequestState[] = ['Paid', 'Withdrawn', 'Cancelled'];

const COLUMNS: Record<Exclude<keyof PayerFields, 'displayName'>, 'first_name' | 'last_name' | 'company_name' | 'email' | 'mobile_number' | 'reference'> = {
  firstName: 'first_name',
  lastName: 'last_name',
  companyName: 'company_name',
  email: 'email',
  mobileNumber: 'mobile_number',
  reference: 'reference',
};

/**
 * PATCH /api/businesses/:id/payers/:payerId: an absent field keeps its value, `null` clears it.
 * A new e-mail address is unconfirmed: the payer becomes unverified and the new address gets a
 * verification link. The audit event names the changed fields, not their values.
 */
export async function updatePayer({ db, mailer, publicUrl, businessId, businessName, payerId, actor, body }: UpdatePayerOptions): Promise<Payer> {
  try {
    return await db.transaction().execute(async (trx) => {
      const row = await lockPayerRow(trx, businessId, payerId);
      const current = {
        firstName: row.first_name,
        lastName: row.last_name,
        companyName: row.company_name,
        email: row.email,
        mobileNumber: row.mobile_number,
        reference: row.reference,
      };
      const merged = { ...current };
      for (const [key, value] of Object.entries(body) as [keyof typeof current, string | null | undefined][]) {
        if (value === undefined) continue;
        (merged as Record<string, string | null>)[key] = value ?? (key === 'mobileNumber' || key === 'reference' ? null : '');
      }
      const checked = validatePayerFields(merged);
      if (!checked.ok) throw invalidPayer(checked.fields);
      const next = checked.value;
      const changed = (Object.keys(COLUMNS) as (keyof typeof COLUMNS)[]).filter((key) => next[key] !== current[key]);
      if (changed.length === 0) return loadPayer(trx, businessId, payerId);

      await assertNoDuplicate(trx, { businessId, email: next.email, reference: next.reference, exceptPayerId: payerId });
      const emailChanged = changed.includes('email');
      await trx
        .updateTable('payers')
        .set({
          first_name: next.firstName,
          last_name: next.lastName,
          company_name: next.companyName,
          display_name: next.displayName,
          email: next.email,
          mobile_number: next.mobileNumber,
          reference: next.reference,
          updated_at: sql<Date>`now()`,
          ...(emailChanged ? { verification: 'unverified' as const, verified_at: null, verification_token_hash: null } : {}),
        })
        .where('business_id', '=', businessId)
        .where('id', '=', payerId)
        .execute();
      if (next.displayName !== row.display_name || emailChanged) {
        // Requests that may still be e-mailed show, find and reach the payer as they are now;
        // closed ones keep whom they went to (their timeline says where each e-mail went).
        await trx
          .updateTable('payment_requests')
          .set({ payer_display_name: next.displayName, payer_email: next.email })
          .where('business_id', '=', businessId)
          .where('payer_id', '=', payerId)
          .where('state', 'not in', CLOSED_REQUEST_STATES)
          .execute();
      }
      await recordEvent(trx, {
        businessId,
        actor,
        action: 'payer.updated',
        details: { payerId, fields: changed, changes: changed.map((field) => ({ field, before: current[field], after: next[field] })) },
      });
      if (emailChanged) {
        await sendVerificationLink(trx, {
          mailer,
          publicUrl,
          businessId,
          businessName,
          payer: { id: payerId, email: next.email, displayName: next.displayName },
        });
        await recordEvent(trx, { businessId, actor, action: 'payer.verification_sent', details: { payerId, reason: 'email changed' } });
      }
      return loadPayer(trx, businessId, payerId);
    });
  } catch (error) {
    throw duplicateFromUniqueViolation(error) ?? error;
  }
}
