import { isValidRoutingNumber, type FieldErrors } from '@tay/contract';
import { sandboxBankByRoutingNumber } from '../../domain/directory/sandbox-banks';
import type { SandboxProcessorTokensTable } from '../../db/schema/payments';

export type Behaviour = SandboxProcessorTokensTable['behaviour'];

/**
 * The sandbox's deterministic test instruments (README "Sandbox test cards and bank accounts").
 * Anything not listed behaves normally: a valid card succeeds, a bank account settles.
 */
export const TEST_CARDS: Readonly<Record<string, Behaviour>> = {
  '4242424242424242': 'succeed',
  '4000000000000002': 'decline',
  '4000000000009995': 'insufficient_funds',
  // Captured and settled; then the cardholder's bank disputes it as fraudulent (ADR 051).
  '4000000000000259': 'dispute',
};
export const TEST_BANK_ACCOUNTS: Readonly<Record<string, Behaviour>> = {
  '000123456789': 'settle_late',
  '000111111113': 'return_after_settlement',
  '000222222227': 'insufficient_funds',
  // Settles; a refund to it fails: the account was closed since (ADR 051).
  '000333333335': 'refund_fails',
  // Settles; then the bank returns it: the account holder says it was not authorised (R10).
  '000444444441': 'return_unauthorized',
};

export interface CardInput {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
}

export interface BankAccountInput {
  routingNumber: string;
  accountNumber: string;
  accountHolderName: string;
}

/** What the sandbox keeps of an instrument: never the full number. */
export interface Instrument {
  kind: 'card' | 'bank_account';
  brand: string;
  last4: string;
  behaviour: Behaviour;
}

export type Checked = { ok: true; instrument: Instrument } | { ok: false; fields: FieldErrors };

export function luhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export function cardBrand(digits: string): string {
  if (/^4/.test(digits)) return 'Visa';
  const first4 = Number(digits.slice(0, 4));
  if (/^5[1-5]/.test(digits) || (first4 >= 2221 && first4 <= 2720)) return 'Mastercard';
  if (/^3[47]/.test(digits)) return 'American Express';
  if (/^(6011|65|64[4-9])/.test(digits)) return 'Discover';
  return 'Card';
}

/** Checks a card as a processor would; `now` decides which expiry dates are past. */
export function checkCard(card: CardInput, now = new Date()): Checked {
  const fields: FieldErrors = {};
  const digits = card.number.replace(/[\s-]/g, '');
  if (!/^\d+$/.test(digits) || !luhnValid(digits)) fields['card.number'] = 'Your card number is invalid.';
  const year = card.expYear < 100 ? 2000 + card.expYear : card.expYear;
  if (!Number.isInteger(card.expMonth) || card.expMonth < 1 || card.expMonth > 12) {
    fields['card.expMonth'] = 'The expiry month is invalid.';
  } else if (!Number.isInteger(year) || year < now.getUTCFullYear() || (year === now.getUTCFullYear() && card.expMonth < now.getUTCMonth() + 1)) {
    fields['card.expYear'] = 'Your card has expired.';
  } else if (year > now.getUTCFullYear() + 20) {
    fields['card.expYear'] = 'The expiry year is invalid.';
  }
  const amex = cardBrand(digits) === 'American Express';
  if (!(amex ? /^\d{4}$/ : /^\d{3}$/).test(card.cvc)) fields['card.cvc'] = 'Your card’s security code is invalid.';
  if (Object.keys(fields).length > 0) return { ok: false, fields };
  return {
    ok: true,
    instrument: { kind: 'card', brand: cardBrand(digits), last4: digits.slice(-4), behaviour: TEST_CARDS[digits] ?? 'succeed' },
  };
}

export function checkBankAccount(account: BankAccountInput): Checked {
  const fields: FieldErrors = {};
  if (!isValidRoutingNumber(account.routingNumber)) fields['bankAccount.routingNumber'] = 'The routing number is invalid.';
  if (!/^\d{4,17}$/.test(account.accountNumber)) fields['bankAccount.accountNumber'] = 'The account number must be 4 to 17 digits.';
  if (account.accountHolderName.trim().length === 0) fields['bankAccount.accountHolderName'] = 'Enter the account holder’s name.';
  if (Object.keys(fields).length > 0) return { ok: false, fields };
  return {
    ok: true,
    instrument: {
      kind: 'bank_account',
      brand: sandboxBankByRoutingNumber(account.routingNumber)?.bankName ?? 'Bank account',
      last4: account.accountNumber.slice(-4),
      behaviour: TEST_BANK_ACCOUNTS[account.accountNumber] ?? 'settle_late',
    },
  };
}

/** "Visa •••• 4242", "Tay Sandbox Bank •••• 6789". */
export function instrumentLabel(instrument: Pick<Instrument, 'brand' | 'last4'>): string {
  return `${instrument.brand} •••• ${instrument.last4}`;
}
