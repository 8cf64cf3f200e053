import {
  type Invoice,
  type InvoiceDiscountAmounts,
  type InvoiceFigures,
  type InvoiceInput,
  type InvoiceLineAmounts,
  type InvoiceTerms,
  type RequestChannel,
  INVOICE_TERMS_DAYS,
  invoiceFigures,
  MAX_AMOUNT_CENTS,
  MAX_INVOICE_LINES,
  MAX_INVOICE_QUANTITY,
  parseMoney,
  toMilli,
  fromMilli,
} from '@tay/contract';
import type { PickedPayer } from '../../components/payers/payer-picker';
import { isoToZonedInput } from '../../lib/send-at';

/**
 * The invoice form's values as typed (text, so nothing the person types is lost or reformatted
 * under them), what they mean for the API (`InvoiceInput`), and the figures they add up to, with
 * the same arithmetic as the API (`invoiceFigures`, packages/contract/src/invoices/totals.ts).
 */

export type LineField = 'description' | 'quantity' | 'unitPrice' | 'taxRate';

export interface LineDraft {
  /** Stable through reordering: React's key, focus and the line's errors follow it. */
  key: string;
  description: string;
  quantity: string;
  unitPrice: string;
  taxRate: string;
}

export type DiscountType = 'none' | 'amount' | 'percent';

export interface InvoiceFormValues {
  payer: PickedPayer | null;
  channel: RequestChannel;
  issueDate: string;
  terms: InvoiceTerms;
  /** Only with `custom` terms. */
  dueDate: string;
  lines: LineDraft[];
  discountType: DiscountType;
  /** Dollars for `amount`, a percentage for `percent`. */
  discountValue: string;
  memo: string;
  footer: string;
  allowPartial: boolean;
}

export type FormField = 'payerId' | 'channel' | 'issueDate' | 'terms' | 'dueDate' | 'items' | 'discount' | 'memo' | 'footer' | 'allowPartial' | 'sendAt';

export interface FormErrors {
  fields: Partial<Record<FormField, string>>;
  /** By line key. */
  lines: Record<string, Partial<Record<LineField, string>>>;
  /** Messages for fields the form has no place for. */
  other: string[];
}

export const NO_ERRORS: FormErrors = { fields: {}, lines: {}, other: [] };

export function hasErrors(errors: FormErrors): boolean {
  return Object.keys(errors.fields).length > 0 || Object.values(errors.lines).some((l) => Object.keys(l).length > 0) || errors.other.length > 0;
}

let lineSeq = 0;

export function newLine(over: Partial<Omit<LineDraft, 'key'>> = {}): LineDraft {
  lineSeq += 1;
  return { key: `line-${lineSeq}`, description: '', quantity: '1', unitPrice: '', taxRate: '', ...over };
}

/* ------------------------------------------------------------ numbers */

const DECIMAL = /^(?:\d+(?:\.\d*)?|\.\d+)$/;

/** A quantity or a rate as typed: a non-negative number, or null when it does not read as one. */
function readNumber(text: string): number | null {
  const t = text.trim();
  if (!DECIMAL.test(t)) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

/** A number with at most 3 decimals, in thousandths; null otherwise. */
function readMilli(text: string): number | null {
  const n = readNumber(text);
  return n === null ? null : toMilli(n);
}

/** The tax rate typed (empty is none) in thousandths of a percent; null when it is not one. */
function taxRateMilli(text: string): number | null {
  return text.trim() === '' ? 0 : readMilli(text);
}

/** What a line adds up to as typed; what does not read yet counts as 0. */
function amountsOf(line: LineDraft): InvoiceLineAmounts {
  const quantityMilli = readMilli(line.quantity);
  const unitPriceCents = parseMoney(line.unitPrice);
  const rate = taxRateMilli(line.taxRate);
  return {
    quantityMilli: quantityMilli !== null && quantityMilli <= MAX_INVOICE_QUANTITY * 1000 ? quantityMilli : 0,
    unitPriceCents: unitPriceCents !== null && unitPriceCents <= MAX_AMOUNT_CENTS ? unitPriceCents : 0,
    taxRateMilli: rate !== null && rate <= 100_000 ? rate : 0,
  };
}

/** Whether a line's quantity and price both read, so its amount means something. */
export function lineIsPriced(line: LineDraft): boolean {
  return readMilli(line.quantity) !== null && parseMoney(line.unitPrice) !== null;
}

function discountOf(values: Pick<InvoiceFormValues, 'discountType' | 'discountValue'>): InvoiceDiscountAmounts {
  if (values.discountType === 'amount') {
    const cents = parseMoney(values.discountValue);
    return cents === null ? { type: 'none' } : { type: 'amount', amountCents: cents };
  }
  if (values.discountType === 'percent') {
    const milli = readMilli(values.discountValue);
    return milli === null || milli > 100_000 ? { type: 'none' } : { type: 'percent', percentMilli: milli };
  }
  return { type: 'none' };
}

/** The figures of the form as typed: what the API will store, print and charge for the same values. */
export function figuresOf(values: Pick<InvoiceFormValues, 'lines' | 'discountType' | 'discountValue'>): InvoiceFigures {
  return invoiceFigures(values.lines.map(amountsOf), discountOf(values));
}

/* ------------------------------------------------------------ dates */

/** The calendar day `days` after `day` (YYYY-MM-DD), on no clock but the calendar's. */
export function addDays(day: string, days: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** Whole days from `from` to `to`. */
function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The due date the terms give (the date chosen, for `custom`); null until the dates are there. */
export function dueDateOf(values: Pick<InvoiceFormValues, 'issueDate' | 'terms' | 'dueDate'>): string | null {
  if (values.terms === 'custom') return DAY.test(values.dueDate) ? values.dueDate : null;
  return DAY.test(values.issueDate) ? addDays(values.issueDate, INVOICE_TERMS_DAYS[values.terms]) : null;
}

/** Today on the business's clock (its time zone), whatever the browser's says. */
export function todayIn(timeZone: string): string {
  return isoToZonedInput(new Date().toISOString(), timeZone).slice(0, 10);
}

/* ------------------------------------------------------------ values */

export function emptyValues(today: string, payer: PickedPayer | null = null): InvoiceFormValues {
  return {
    payer,
    channel: 'email',
    issueDate: today,
    terms: 'net30',
    dueDate: '',
    lines: [newLine()],
    discountType: 'none',
    discountValue: '',
    memo: '',
    footer: '',
    allowPartial: false,
  };
}

/**
 * The form's values from an invoice: to edit it as it is, or (`copy`) as a new invoice issued
 * today, with a chosen due date as far after today as the source's was after its issue date.
 */
export function valuesFrom(invoice: Invoice, payer: PickedPayer, { copy, today }: { copy: boolean; today: string }): InvoiceFormValues {
  const issueDate = copy ? today : invoice.issueDate;
  const dueDate = invoice.terms !== 'custom' ? '' : copy ? addDays(today, Math.max(0, daysBetween(invoice.issueDate, invoice.dueDate))) : invoice.dueDate;
  return {
    payer,
    channel: invoice.channel,
    issueDate,
    terms: invoice.terms,
    dueDate,
    lines: invoice.items.map((item) =>
      newLine({
        description: item.description,
        quantity: fromMilli(toMilli(item.quantity) ?? 0),
        unitPrice: (item.unitPriceCents / 100).toFixed(2),
        taxRate: item.taxRate > 0 ? fromMilli(toMilli(item.taxRate) ?? 0) : '',
      }),
    ),
    discountType: invoice.discount.type,
    discountValue:
      invoice.discount.type === 'amount'
        ? (invoice.discount.amountCents / 100).toFixed(2)
        : invoice.discount.type === 'percent'
          ? fromMilli(toMilli(invoice.discount.percent) ?? 0)
          : '',
    memo: invoice.memo,
    footer: invoice.footer,
    allowPartial: invoice.allowPartial,
  };
}

/* ------------------------------------------------------------ checking */

function lineErrors(line: LineDraft): Partial<Record<LineField, string>> {
  const errors: Partial<Record<LineField, string>> = {};
  const description = line.description.trim();
  if (!description) errors.description = 'Describe the item.';
  else if (description.length > 300) errors.description = 'Keep the description to 300 characters.';

  const quantity = readNumber(line.quantity);
  if (line.quantity.trim() === '') errors.quantity = 'Enter a quantity.';
  // "-2" reads as a number, only a negative one: say so, rather than that it is no quantity.
  else if (quantity === null) errors.quantity = /^-\s*\d/.test(line.quantity.trim()) ? 'The quantity cannot be negative.' : 'Enter a quantity like 1 or 2.5.';
  else if (toMilli(quantity) === null) errors.quantity = 'Quantities have at most 3 decimals.';
  else if (quantity <= 0) errors.quantity = 'The quantity must be above 0.';
  else if (quantity > MAX_INVOICE_QUANTITY) errors.quantity = 'The quantity is above 1,000,000.';

  const price = parseMoney(line.unitPrice);
  if (line.unitPrice.trim() === '') errors.unitPrice = 'Enter a unit price.';
  else if (price === null) errors.unitPrice = 'Enter a price like 25.00.';
  else if (price > MAX_AMOUNT_CENTS) errors.unitPrice = 'The unit price is above the $10,000,000.00 limit.';

  if (line.taxRate.trim() !== '') {
    const rate = readNumber(line.taxRate);
    if (rate === null) errors.taxRate = 'Enter a rate like 8.875, or leave it empty.';
    else if (toMilli(rate) === null) errors.taxRate = 'Tax rates have at most 3 decimals (8.875).';
    else if (rate > 100) errors.taxRate = 'The tax rate cannot be above 100%.';
  }
  return errors;
}

/** What the form can tell before asking the API (the contract's own rules and words). */
export function checkValues(values: InvoiceFormValues): FormErrors {
  const fields: FormErrors['fields'] = {};
  if (!values.payer) fields.payerId = 'Choose a payer.';
  if (!DAY.test(values.issueDate)) fields.issueDate = 'Enter the issue date.';
  if (values.terms === 'custom') {
    if (!DAY.test(values.dueDate)) fields.dueDate = 'Choose the due date.';
    else if (DAY.test(values.issueDate) && values.dueDate < values.issueDate) fields.dueDate = 'The due date cannot be before the issue date.';
  }
  if (values.lines.length === 0) fields.items = 'Add at least one item.';
  else if (values.lines.length > MAX_INVOICE_LINES) fields.items = `An invoice has at most ${MAX_INVOICE_LINES} items.`;
  if (values.discountType === 'amount') {
    const cents = parseMoney(values.discountValue);
    if (cents === null) fields.discount = 'Enter the discount, like 5.00.';
    else if (cents > MAX_AMOUNT_CENTS) fields.discount = 'The discount is above the $10,000,000.00 limit.';
  } else if (values.discountType === 'percent') {
    const percent = readNumber(values.discountValue);
    if (percent === null) fields.discount = 'Enter the discount, like 10 or 12.5.';
    else if (toMilli(percent) === null) fields.discount = 'Percentages have at most 3 decimals.';
    else if (percent > 100) fields.discount = 'The discount cannot be above 100%.';
  }
  const lines: FormErrors['lines'] = {};
  for (const line of values.lines) {
    const errors = lineErrors(line);
    if (Object.keys(errors).length > 0) lines[line.key] = errors;
  }
  return { fields, lines, other: [] };
}

/** The API's body for checked values. */
export function toInput(values: InvoiceFormValues): InvoiceInput {
  const discountCents = parseMoney(values.discountValue);
  const percent = readNumber(values.discountValue);
  return {
    payerId: values.payer!.payerId,
    channel: values.channel,
    issueDate: values.issueDate,
    terms: values.terms,
    dueDate: values.terms === 'custom' ? values.dueDate : null,
    items: values.lines.map((line) => ({
      description: line.description.trim(),
      quantity: readNumber(line.quantity)!,
      unitPriceCents: parseMoney(line.unitPrice)!,
      taxRate: line.taxRate.trim() === '' ? 0 : readNumber(line.taxRate)!,
    })),
    discount:
      values.discountType === 'amount'
        ? { type: 'amount', amountCents: discountCents! }
        : values.discountType === 'percent'
          ? { type: 'percent', percent: percent! }
          : { type: 'none' },
    memo: values.memo,
    footer: values.footer,
    allowPartial: values.allowPartial,
  };
}

const LINE_FIELDS: Record<string, LineField> = { description: 'description', quantity: 'quantity', unitPriceCents: 'unitPrice', taxRate: 'taxRate' };
const FORM_FIELDS = new Set<string>(['payerId', 'channel', 'issueDate', 'terms', 'dueDate', 'items', 'discount', 'memo', 'footer', 'allowPartial', 'sendAt']);

/**
 * The API's field errors (dotted paths of the body it was sent: `items.1.quantity`, `dueDate`,
 * `discount.percent`) on the form's fields. `lineKeys` are the keys of the lines in the order
 * they were sent, so an error lands on its line even if the lines were reordered since.
 */
export function errorsFromApi(fields: Record<string, string>, lineKeys: readonly string[]): FormErrors {
  const errors: FormErrors = { fields: {}, lines: {}, other: [] };
  for (const [path, message] of Object.entries(fields)) {
    const [head, index, field] = path.split('.');
    if (head === 'items' && index !== undefined && /^\d+$/.test(index)) {
      const key = lineKeys[Number(index)];
      if (key !== undefined) {
        const lineField = field === undefined ? 'description' : LINE_FIELDS[field];
        if (lineField) {
          errors.lines[key] = { ...errors.lines[key], [lineField]: message };
          continue;
        }
      }
    }
    if (head && FORM_FIELDS.has(head)) {
      errors.fields[head as FormField] ??= message;
      continue;
    }
    errors.other.push(message);
  }
  return errors;
}
