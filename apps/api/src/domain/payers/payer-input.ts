import { ErrorCode, payerDisplayName, PayerInput, type FieldErrors } from '@tay/contract';
import type { Executor } from '../../db/executor';
import { AppError } from '../../lib/app-error';

/** A payer's editable fields after validation: blanks are `null` for the optional ones. */
export interface PayerFields {
  firstName: string;
  lastName: string;
  companyName: string;
  displayName: string;
  email: string;
  mobileNumber: string | null;
  reference: string | null;
}

/** Validates with the contract's `PayerInput`; `fields` carries one message per invalid field. */
export function validatePayerFields(input: unknown): { ok: true; value: PayerFields } | { ok: false; fields: FieldErrors } {
  const parsed = PayerInput.safeParse(input);
  if (!parsed.success) {
    const fields: FieldErrors = {};
    for (const issue of parsed.error.issues) {
      const key = issue.path.join('.') || 'payer';
      fields[key] ??= issue.message;
    }
    return { ok: false, fields };
  }
  const p = parsed.data;
  return {
    ok: true,
    value: {
      firstName: p.firstName,
      lastName: p.lastName,
      companyName: p.companyName,
      displayName: payerDisplayName(p),
      email: p.email,
      mobileNumber: p.mobileNumber || null,
      reference: p.reference?.trim() || null,
    },
  };
}

export function invalidPayer(fields: FieldErrors): AppError {
  return AppError.validation(`Please correct the highlighted fields: ${Object.keys(fields).join(', ')}.`, fields);
}

export const DUPLICATE_EMAIL = 'Another payer of this business already has this e-mail address.';
export const DUPLICATE_REFERENCE = 'Another payer of this business already has this reference.';

/**
 * 409 when another payer of the business has the same e-mail or reference, with `fields` on
 * each clashing field. The unique indexes stay the last word under concurrency
 * (`duplicateFromUniqueViolation`).
 */
export async function assertNoDuplicate(
  executor: Executor,
  { businessId, email, reference, exceptPayerId }: { businessId: string; email: string; reference: string | null; exceptPayerId?: string },
): Promise<void> {
  let query = executor
    .selectFrom('payers')
    .select(['email', 'reference'])
    .where('business_id', '=', businessId)
    .where((eb) => (reference ? eb.or([eb('email', '=', email), eb('reference', '=', reference)]) : eb('email', '=', email)));
  if (exceptPayerId) query = query.where('id', '<>', exceptPayerId);
  const clashes = await query.execute();
  const fields: FieldErrors = {};
  if (clashes.some((c) => c.email === email)) fields.email = DUPLICATE_EMAIL;
  if (reference && clashes.some((c) => c.reference === reference)) fields.reference = DUPLICATE_REFERENCE;
  if (Object.keys(fields).length > 0) throw duplicateError(fields);
}

function duplicateError(fields: FieldErrors): AppError {
  const what = fields.email && fields.reference ? 'e-mail address and reference' : fields.email ? 'e-mail address' : 'reference';
  return new AppError(ErrorCode.Conflict, `This business already has a payer with this ${what}.`, fields);
}

/** A unique-index violation of `payers` (a concurrent twin got there first) as the same 409. */
export function duplicateFromUniqueViolation(error: unknown): AppError | null {
  const e = error as { code?: string; constraint?: string };
  if (e?.code !== '23505') return null;
  if (e.constraint === 'payers_email_key') return duplicateError({ email: DUPLICATE_EMAIL });
  if (e.constraint === 'payers_reference_key') return duplicateError({ reference: DUPLICATE_REFERENCE });
  return null;
}
