import type { IntegrationProvider } from '@tay/contract';

/**
 * The accounting provider port (issue 24, ADR 041): what the integrations domain needs from
 * QuickBooks Online or FreshBooks. `quickbooks/client.ts` and `freshbooks/client.ts` speak each
 * provider's public API; their stand-ins (`quickbooks/standin.ts`, `freshbooks/standin.ts`,
 * mounted under `/sandbox/…` when no client id is configured) answer the same paths and shapes.
 *
 * Every call takes the caller's `AbortSignal`; none holds a database transaction (the embedded
 * database serves one connection at a time, and a stand-in on this server needs it to answer).
 */

/** Where a provider lives and who we are to it (`QUICKBOOKS_*`, `FRESHBOOKS_*`; `config.ts`). */
export interface ProviderSettings {
  clientId: string;
  clientSecret: string;
  /** The consent page the browser is sent to. */
  authUrl: string;
  /** Code-for-token and refresh. */
  tokenUrl: string;
  revokeUrl: string;
  /** The API's origin and prefix: `${apiUrl}/v3/company/{realmId}/customer`, `${apiUrl}/accounting/account/{accountId}/users/clients`. */
  apiUrl: string;
  /** True when the settings point at this server's built-in stand-in (no client id configured). */
  standIn: boolean;
}

export interface TokenSet {
  accessToken: string;
  refreshToken: string;
  accessExpiresAt: Date;
  /** When the refresh token itself expires, if the provider says. */
  refreshExpiresAt: Date | null;
}

/** What a completed authorization gives: the tokens, and the provider's company they open. */
export interface Connection extends TokenSet {
  /** QuickBooks realm id (from the callback's `realmId`), FreshBooks account id (from `/auth/api/v1/users/me`). */
  accountId: string;
  companyName: string;
}

/** The provider's id for one of our records, and its version where the provider needs one to update (QuickBooks `SyncToken`). */
export interface RemoteRef {
  remoteId: string;
  remoteVersion: string | null;
}

/** A customer as pushed: its ref, and the name it was given when not the one sent (QuickBooks: that one was taken). */
export interface PushedCustomer extends RemoteRef {
  displayName?: string;
}

/** A customer already at the provider, read by its id (to link a payer to it by hand). */
export interface ExistingCustomer {
  ref: RemoteRef;
  name: string;
}

export interface ProviderSession {
  accessToken: string;
  accountId: string;
  signal: AbortSignal;
}

export interface CustomerRecord {
  localId: string;
  displayName: string;
  firstName: string;
  lastName: string;
  companyName: string;
  email: string;
  phone: string | null;
}

export interface InvoiceLineRecord {
  description: string;
  /** Thousandths: 1500 is 1.5. */
  quantityMilli: number;
  unitPriceCents: number;
  /** quantity × unit price, rounded (before discount and tax). */
  amountCents: number;
}

/** An invoice as pushed. The provider's invoice must come to `totalCents` exactly (discount and tax included). */
export interface InvoiceRecord {
  localId: string;
  /** As the business and its payers know it: `INV-0001`. */
  number: string;
  customer: RemoteRef;
  /** 'YYYY-MM-DD' */
  issueDate: string;
  dueDate: string;
  memo: string;
  lines: InvoiceLineRecord[];
  discountCents: number;
  taxCents: number;
  totalCents: number;
}

/** A payment we collected, applied to its invoice at the provider. */
export interface PaymentRecord {
  localId: string;
  invoice: RemoteRef;
  customer: RemoteRef;
  amountCents: number;
  /** 'YYYY-MM-DD' in the business's time zone: the day it was processed. */
  date: string;
  method: 'card' | 'bank_account';
  /** What the business sees ("Payment of $40.00 on Invoice INV-0012"); the provider's memo/note. */
  reference: string;
}

/**
 * A refund that succeeded, of a payment pushed earlier: money that went back to the payer. It goes
 * once, as the provider records money given back to a customer (QuickBooks: a refund receipt;
 * FreshBooks: a credit note), and does not change afterwards.
 */
export interface RefundRecord {
  localId: string;
  /** The payment it gives back (part of); QuickBooks refunds from the account that payment went into. */
  payment: RemoteRef;
  customer: RemoteRef;
  amountCents: number;
  /** 'YYYY-MM-DD' in the business's time zone: the day it succeeded. */
  date: string;
  /** The request's number the payer and the processor know it by (`TRX-10234`): QuickBooks' PaymentRefNum. */
  transactionNumber: string;
  /** What the business sees ("Refund of $10.00 on Invoice INV-0012"); the provider's memo/note. */
  reference: string;
}

export interface AccountingProvider {
  readonly provider: IntegrationProvider;
  /** Whether the authorization request carries a PKCE challenge (S256). */
  readonly usesPkce: boolean;
  /**
   * Whether a customer's name must be unique at the provider (QuickBooks: DisplayName, across
   * customers, vendors and employees). The sync then names a payer who shares another's name
   * "Name (e-mail)" (`display-names.ts`), and the client does the same when the provider says the name is taken.
   */
  readonly uniqueCustomerNames: boolean;
  authorizationUrl(input: { state: string; codeChallenge: string; redirectUri: string }): string;
  /** Swaps the code from the callback; `realmId` is the callback's (QuickBooks). */
  exchangeCode(input: { code: string; codeVerifier: string; redirectUri: string; realmId: string | undefined; signal: AbortSignal }): Promise<Connection>;
  refresh(input: { refreshToken: string; signal: AbortSignal }): Promise<TokenSet>;
  /** Revokes a token at the provider; a provider that already forgot it is not an error. */
  revoke(input: { token: string; signal: AbortSignal }): Promise<void>;
  /** Creates the record when `existing` is null, else updates that one (and answers its new version). */
  pushCustomer(session: ProviderSession, record: CustomerRecord, existing: RemoteRef | null): Promise<PushedCustomer>;
  /** The customer of that id at the provider, or null when it has none (or it was deleted there). */
  findCustomer(session: ProviderSession, remoteId: string): Promise<ExistingCustomer | null>;
  pushInvoice(session: ProviderSession, record: InvoiceRecord, existing: RemoteRef | null): Promise<RemoteRef>;
  pushPayment(session: ProviderSession, record: PaymentRecord, existing: RemoteRef | null): Promise<RemoteRef>;
  /** A succeeded refund: a QuickBooks refund receipt, a FreshBooks credit note. */
  pushRefund(session: ProviderSession, record: RefundRecord, existing: RemoteRef | null): Promise<RemoteRef>;
  /**
   * Takes back a payment pushed earlier that was then returned (an ACH return, a chargeback): the
   * invoice is open again at the provider. QuickBooks deletes the payment; FreshBooks marks it deleted.
   * A payment the provider no longer has is not an error.
   */
  voidPayment(session: ProviderSession, existing: RemoteRef): Promise<void>;
  /**
   * Takes back an invoice pushed earlier that was then withdrawn, cancelled or rejected in Tay: it is
   * no longer owed. QuickBooks voids it (kept, at zero); FreshBooks marks it deleted.
   */
  voidInvoice(session: ProviderSession, existing: RemoteRef): Promise<void>;
}

/** The provider refused the token or the grant (401, `invalid_grant`): the integration needs reconnecting. */
export class ProviderAuthError extends Error {
  override readonly name = 'ProviderAuthError';
}

/** 429: wait `retryAfterSeconds` (the provider's Retry-After, else a default) before the next call. */
export class ProviderRateLimited extends Error {
  override readonly name = 'ProviderRateLimited';
  constructor(
    readonly retryAfterSeconds: number,
    message = `The provider asked us to wait ${retryAfterSeconds} s (429).`,
  ) {
    super(message);
  }
}

/** The provider refused this one record (validation, duplicate name…): `message` is the provider's own words. */
export class ProviderRecordError extends Error {
  override readonly name = 'ProviderRecordError';
}

/** The provider could not be reached, timed out or failed (5xx): try again later. */
export class ProviderUnavailable extends Error {
  override readonly name = 'ProviderUnavailable';
}
