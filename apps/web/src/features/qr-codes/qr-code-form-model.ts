import { parseMoney, QrCodeInput, type QrAmountMode, type QrAsk, type QrCode } from '@tay/contract';

/** What the form holds: amounts as typed (dollars), the expiry as a date input's text, the status as a switch. */
export interface QrFormValues {
  label: string;
  amountMode: QrAmountMode;
  amount: string;
  minAmount: string;
  maxAmount: string;
  memo: string;
  askName: QrAsk;
  askEmail: QrAsk;
  askPhone: QrAsk;
  askNote: QrAsk;
  expiresOn: string;
  active: boolean;
}

/** The fields an error can belong to: the contract's names, so the API's 422 lands on the same fields. */
export const QR_FORM_FIELDS = [
  'label',
  'amountMode',
  'amountCents',
  'minAmountCents',
  'maxAmountCents',
  'memo',
  'askName',
  'askEmail',
  'askPhone',
  'askNote',
  'expiresOn',
  'status',
] as const;
export type QrFormField = (typeof QR_FORM_FIELDS)[number];
export type QrFormErrors = Partial<Record<QrFormField, string>>;

/** Which field of the form each value is checked as (for clearing its error as it is edited). */
export const FIELD_OF: Record<keyof QrFormValues, QrFormField> = {
  label: 'label',
  amountMode: 'amountMode',
  amount: 'amountCents',
  minAmount: 'minAmountCents',
  maxAmount: 'maxAmountCents',
  memo: 'memo',
  askName: 'askName',
  askEmail: 'askEmail',
  askPhone: 'askPhone',
  askNote: 'askNote',
  expiresOn: 'expiresOn',
  active: 'status',
};

/** A new code: a fixed amount, asking the payer's name and e-mail (optional), active, no expiry (the contract's defaults). */
export function emptyQrValues(): QrFormValues {
  return {
    label: '',
    amountMode: 'fixed',
    amount: '',
    minAmount: '',
    maxAmount: '',
    memo: '',
    askName: 'optional',
    askEmail: 'optional',
    askPhone: 'off',
    askNote: 'off',
    expiresOn: '',
    active: true,
  };
}

const dollars = (cents: number | null) => (cents === null ? '' : (cents / 100).toFixed(2));

/** The form's values for a code being edited. */
export function qrValuesFrom(code: QrCode): QrFormValues {
  return {
    label: code.label,
    amountMode: code.amountMode,
    amount: dollars(code.amountCents),
    minAmount: dollars(code.minAmountCents),
    maxAmount: dollars(code.maxAmountCents),
    memo: code.memo,
    askName: code.askName,
    askEmail: code.askEmail,
    askPhone: code.askPhone,
    askNote: code.askNote,
    expiresOn: code.expiresOn ?? '',
    active: code.status === 'active',
  };
}

/** Typed money: cents, null when left empty, or `false` when it does not read as an amount. */
function cents(text: string): number | null | false {
  if (text.trim() === '') return null;
  return parseMoney(text) ?? false;
}

/**
 * The body to send, or why not: amounts that do not read as money first, then the contract's own
 * check (`QrCodeInput`, the one the API runs), so the form refuses with the API's words. Only the
 * amounts of the chosen mode are sent: the other mode's typed values stay in the form, unsent.
 */
export function toQrInput(values: QrFormValues): { input: QrCodeInput; errors?: undefined } | { input?: undefined; errors: QrFormErrors } {
  const errors: QrFormErrors = {};
  const fixed = values.amountMode === 'fixed';
  const amount = fixed ? cents(values.amount) : null;
  const min = fixed ? null : cents(values.minAmount);
  const max = fixed ? null : cents(values.maxAmount);
  if (amount === false) errors.amountCents = 'Enter an amount like 12.00.';
  if (min === false) errors.minAmountCents = 'Enter an amount like 5.00, or leave it empty.';
  if (max === false) errors.maxAmountCents = 'Enter an amount like 100.00, or leave it empty.';
  // Unreadable amounts are refused above; 0.00 is sent, for the contract to say it must be above $0.00.
  const sent = (value: number | null | false) => (value === false ? null : value);
  const input: QrCodeInput = {
    label: values.label,
    amountMode: values.amountMode,
    amountCents: sent(amount),
    minAmountCents: sent(min),
    maxAmountCents: sent(max),
    memo: values.memo,
    askName: values.askName,
    askEmail: values.askEmail,
    askPhone: values.askPhone,
    askNote: values.askNote,
    expiresOn: values.expiresOn || null,
    status: values.active ? 'active' : 'Disabled',
  };
  const checked = QrCodeInput.safeParse(input);
  if (!checked.success) {
    for (const issue of checked.error.issues) {
      const field = issue.path[0];
      if (typeof field === 'string' && isFormField(field) && !errors[field]) errors[field] = issue.message;
    }
  }
  return Object.keys(errors).length > 0 ? { errors } : { input };
}

export function isFormField(name: string): name is QrFormField {
  return (QR_FORM_FIELDS as readonly string[]).includes(name);
}

/** The API's 422 field errors that belong to a field of the form; the rest are said above it. */
export function errorsFromApi(fields: Record<string, string>): QrFormErrors {
  return Object.fromEntries(Object.entries(fields).filter(([name]) => isFormField(name))) as QrFormErrors;
}
