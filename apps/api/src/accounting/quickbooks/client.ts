import { createHash } from 'node:crypto';
import {
  ProviderAuthError,
  ProviderRateLimited,
  ProviderRecordError,
  ProviderUnavailable,
  type AccountingProvider,
  type Connection,
  type CustomerRecord,
  type ExistingCustomer,
  type InvoiceRecord,
  type PaymentRecord,
  type ProviderSession,
  type ProviderSettings,
  type PushedCustomer,
  type RefundRecord,
  type RemoteRef,
  type TokenSet,
} from '../port';
import { displayNameWithEmail } from '../display-names';
import { callProvider, centsToDecimal, field, lineAmountCents, milliToDecimal, retryAfterSeconds, text, type ProviderAnswer } from '../provider-http';

/**
 * QuickBooks Online (Accounting API v3, Intuit's OAuth 2.0), as its public documentation
 * describes it. The stand-in (`./standin.ts`) answers the same paths and shapes.
 */

const NAME = 'QuickBooks Online';
const SCOPE = 'com.intuit.quickbooks.accounting';
/** The API's minor version the request and answer shapes follow. */
const MINOR_VERSION = '75';
/** QBO's "Stale Object Error": the SyncToken sent is not the record's current one. */
const STALE_OBJECT = '5010';
/** QBO's "Duplicate Name Exists Error": another customer, vendor or employee has this DisplayName. */
const DUPLICATE_NAME = '6240';
/** QBO's "Object Not Found". */
const NOT_FOUND = '610';
/** Intuit's documented default: a refresh token lasts 100 days. */
const DEFAULT_REFRESH_SECONDS = 100 * 24 * 3600;

type Entity = 'Customer' | 'Invoice' | 'Payment' | 'RefundReceipt';

/** Money as QBO's JSON takes it: a number, parsed from the exact decimal text so it prints back as that text. */
const amount = (cents: number) => Number(centsToDecimal(cents));

export function customerBody(record: CustomerRecord): Record<string, unknown> {
  return {
    DisplayName: record.displayName,
    GivenName: record.firstName,
    FamilyName: record.lastName,
    ...(record.companyName ? { CompanyName: record.companyName } : {}),
    PrimaryEmailAddr: { Address: record.email },
    ...(record.phone ? { PrimaryPhone: { FreeFormNumber: record.phone } } : {}),
  };
}

/**
 * The invoice as QBO takes it. QBO's total is the sum of the sales lines, less the discount line,
 * plus `TxnTaxDetail.TotalTax` (tax applied after the discount). So that it equals `totalCents` to
 * the cent whatever rounding our per-line figures went through, the tax is sent as the remainder
 * `total − (lines − discount)`; with consistent figures that is exactly `taxCents`. Should the
 * remainder come out negative, the tax is 0 and the discount takes it.
 */
export function invoiceBody(record: InvoiceRecord): Record<string, unknown> {
  const subtotal = record.lines.reduce((sum, line) => sum + line.amountCents, 0);
  let discount = record.discountCents;
  let tax = record.totalCents - (subtotal - discount);
  if (tax < 0) {
    discount -= tax;
    tax = 0;
  }
  const lines: Record<string, unknown>[] = record.lines.map((line) => {
    // QBO checks Amount = Qty × UnitPrice: a line whose rounded product is not its amount goes as 1 × amount.
    const exact = lineAmountCents(line.quantityMilli, line.unitPriceCents) === line.amountCents;
    return {
      DetailType: 'SalesItemLineDetail',
      Amount: amount(line.amountCents),
      Description: line.description,
      SalesItemLineDetail: {
        ItemRef: { value: '1', name: 'Services' },
        Qty: exact ? Number(milliToDecimal(line.quantityMilli)) : 1,
        UnitPrice: exact ? amount(line.unitPriceCents) : amount(line.amountCents),
      },
    };
  });
  if (discount > 0) lines.push({ DetailType: 'DiscountLineDetail', Amount: amount(discount), DiscountLineDetail: { PercentBased: false } });
  return {
    CustomerRef: { value: record.customer.remoteId },
    DocNumber: record.number,
    TxnDate: record.issueDate,
    DueDate: record.dueDate,
    PrivateNote: record.memo,
    ...(record.memo ? { CustomerMemo: { value: record.memo } } : {}),
    ApplyTaxAfterDiscount: true,
    Line: lines,
    TxnTaxDetail: { TotalTax: amount(tax) },
  };
}

export function paymentBody(record: PaymentRecord): Record<string, unknown> {
  return {
    TotalAmt: amount(record.amountCents),
    CustomerRef: { value: record.customer.remoteId },
    TxnDate: record.date,
    PrivateNote: record.reference,
    Line: [{ Amount: amount(record.amountCents), LinkedTxn: [{ TxnId: record.invoice.remoteId, TxnType: 'Invoice' }] }],
  };
}

/**
 * A refund as a QBO refund receipt: money given back to the customer, one line of the amount (Qty 1
 * of the "Services" item the invoices use) and no tax of its own, so its total is the refund's to the
 * cent. `depositAccountId` is the account the money leaves: the one its payment went into
 * (Undeposited Funds unless the company chose another), so the two net out before the deposit.
 */
export function refundReceiptBody(record: RefundRecord, depositAccountId: string): Record<string, unknown> {
  return {
    CustomerRef: { value: record.customer.remoteId },
    TxnDate: record.date,
    PaymentRefNum: record.transactionNumber,
    PrivateNote: record.reference,
    DepositToAccountRef: { value: depositAccountId },
    Line: [
      {
        DetailType: 'SalesItemLineDetail',
        Amount: amount(record.amountCents),
        Description: record.reference,
        SalesItemLineDetail: { ItemRef: { value: '1', name: 'Services' }, Qty: 1, UnitPrice: amount(record.amountCents) },
      },
    ],
    TxnTaxDetail: { TotalTax: 0 },
  };
}

/** QBO's error body: `{ Fault: { Error: [{ Message, Detail, code }], type } }` (also seen lower-cased). */
function fault(json: unknown): { message: string; detail: string; code: string } | null {
  const first = field(json, 'Fault', 'Error', 0) ?? field(json, 'fault', 'error', 0);
  if (!first) return null;
  return {
    message: text(field(first, 'Message') ?? field(first, 'message')) ?? '',
    detail: text(field(first, 'Detail') ?? field(first, 'detail')) ?? '',
    code: text(field(first, 'code')) ?? '',
  };
}

/** QBO's own words: the message, then the detail when it adds something. */
function faultText(json: unknown, fallback: string): string {
  const f = fault(json);
  if (!f || (!f.message && !f.detail)) return fallback;
  if (!f.detail || f.detail === f.message) return f.message || f.detail;
  if (!f.message || f.detail.startsWith(f.message)) return f.detail;
  return `${f.message}: ${f.detail}`;
}

/** The port's error for an answer that is not a success. */
function failure(answer: ProviderAnswer, action: string): Error {
  const { status, json } = answer;
  const oauthError = text(field(json, 'error'));
  if (status === 401 || oauthError === 'invalid_grant' || oauthError === 'invalid_client') {
    return new ProviderAuthError(`${NAME} refused our authorization (${action}): ${oauthError ?? faultText(json, `HTTP ${status}`)}.`);
  }
  if (status === 429) return new ProviderRateLimited(retryAfterSeconds(answer.headers.get('retry-after')));
  if (status === 400 || status === 422) return new ProviderRecordError(faultText(json, `${NAME} refused the ${action} (HTTP ${status}).`));
  if (status === 403) return new ProviderAuthError(`${NAME} refused access (${action}): ${faultText(json, 'HTTP 403')}.`);
  return new ProviderUnavailable(`${NAME} failed (${action}): HTTP ${status}.`);
}

function tokenSet(json: unknown, now: Date): TokenSet {
  const accessToken = text(field(json, 'access_token'));
  const refreshToken = text(field(json, 'refresh_token'));
  const expiresIn = Number(field(json, 'expires_in'));
  const refreshIn = Number(field(json, 'x_refresh_token_expires_in'));
  if (!accessToken || !refreshToken || !Number.isFinite(expiresIn)) throw new ProviderUnavailable(`${NAME} answered the token request without tokens.`);
  return {
    accessToken,
    refreshToken,
    accessExpiresAt: new Date(now.getTime() + expiresIn * 1000),
    refreshExpiresAt: new Date(now.getTime() + (Number.isFinite(refreshIn) ? refreshIn : DEFAULT_REFRESH_SECONDS) * 1000),
  };
}

export function createQuickBooksProvider(settings: ProviderSettings): AccountingProvider {
  const basic = `Basic ${Buffer.from(`${settings.clientId}:${settings.clientSecret}`).toString('base64')}`;

  async function tokenRequest(form: Record<string, string>, action: string, signal: AbortSignal): Promise<TokenSet> {
    const now = new Date();
    const answer = await callProvider(NAME, action, settings.tokenUrl, {
      method: 'POST',
      headers: { authorization: basic, accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
      signal,
    });
    if (answer.status !== 200) throw failure(answer, action);
    return tokenSet(answer.json, now);
  }

  const companyUrl = (accountId: string, path: string) =>
    `${settings.apiUrl}/v3/company/${encodeURIComponent(accountId)}/${path}${path.includes('?') ? '&' : '?'}minorversion=${MINOR_VERSION}`;

  async function api(session: ProviderSession, method: 'GET' | 'POST', path: string, action: string, body?: unknown): Promise<unknown> {
    const answer = await callProvider(NAME, action, companyUrl(session.accountId, path), {
      method,
      headers: {
        authorization: `Bearer ${session.accessToken}`,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: session.signal,
    });
    if (answer.status !== 200) {
      const code = answer.status === 400 ? fault(answer.json)?.code : undefined;
      if (code === STALE_OBJECT) throw new StaleObject(faultText(answer.json, 'Stale Object Error'));
      if (code === DUPLICATE_NAME) throw new DuplicateName(faultText(answer.json, 'Duplicate Name Exists Error'));
      if (code === NOT_FOUND) throw new NotFound(faultText(answer.json, 'Object Not Found'));
      throw failure(answer, action);
    }
    return answer.json;
  }

  /** Creates, or sparse-updates with the SyncToken we hold; a stale one is read afresh and the update tried once more. */
  async function push(
    session: ProviderSession,
    entity: Entity,
    localId: string,
    body: Record<string, unknown>,
    existing: RemoteRef | null,
    check?: (answer: unknown) => void,
  ): Promise<RemoteRef> {
    const path = entity.toLowerCase();
    const action = `${existing ? 'update' : 'create'} of a ${path}`;
    // QBO's `requestid` makes a create idempotent: a retry after an answer we never stored gets the
    // same record. It names the content too, so a create QBO refused can succeed once the record is fixed.
    const version = createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 8);
    const create = `${path}?requestid=${encodeURIComponent(`t${path[0]}-${localId}-${version}`.slice(0, 50))}`;
    const send = async (syncToken: string | null) => {
      const payload = existing ? { ...body, Id: existing.remoteId, SyncToken: syncToken ?? '0', sparse: true } : body;
      const answer = await api(session, 'POST', existing ? path : create, action, payload);
      check?.(answer);
      return refOf(answer, entity);
    };
    try {
      return await send(existing?.remoteVersion ?? null);
    } catch (error) {
      if (!(error instanceof StaleObject) || !existing) throw error instanceof StaleObject ? new ProviderRecordError(error.message) : error;
      const current = refOf(await api(session, 'GET', `${path}/${encodeURIComponent(existing.remoteId)}`, `read of a ${path}`), entity);
      try {
        return await send(current.remoteVersion);
      } catch (again) {
        throw again instanceof StaleObject ? new ProviderRecordError(again.message) : again;
      }
    }
  }

  /**
   * QBO's `operation=delete` (a payment: gone, the invoice's balance comes back) or `operation=void`
   * (an invoice: kept at zero), with the Id and current SyncToken; a record already gone is no error.
   */
  async function takeBack(session: ProviderSession, entity: Entity, operation: 'delete' | 'void', existing: RemoteRef): Promise<void> {
    const path = entity.toLowerCase();
    const send = (syncToken: string | null) =>
      api(session, 'POST', `${path}?operation=${operation}`, `${operation} of a ${path}`, { Id: existing.remoteId, SyncToken: syncToken ?? '0' });
    try {
      await send(existing.remoteVersion);
    } catch (error) {
      if (error instanceof ProviderRecordError && /Object Not Found/i.test(error.message)) return;
      if (!(error instanceof StaleObject)) throw error;
      const current = refOf(await api(session, 'GET', `${path}/${encodeURIComponent(existing.remoteId)}`, `read of a ${path}`), entity);
      try {
        await send(current.remoteVersion);
      } catch (again) {
        throw again instanceof StaleObject ? new ProviderRecordError(again.message) : again;
      }
    }
  }

  /**
   * A customer, under the payer's own name; when QBO says another customer, vendor or employee has
   * it (6240), once more as "Name (e-mail)", the way QuickBooks users tell two people apart.
   */
  async function pushCustomer(session: ProviderSession, record: CustomerRecord, existing: RemoteRef | null): Promise<PushedCustomer> {
    try {
      return await push(session, 'Customer', record.localId, customerBody(record), existing);
    } catch (error) {
      if (!(error instanceof DuplicateName)) throw error;
      const unique = displayNameWithEmail(record.displayName, record.email);
      if (unique === record.displayName) throw error;
      try {
        return { ...(await push(session, 'Customer', record.localId, customerBody({ ...record, displayName: unique }), existing)), displayName: unique };
      } catch (again) {
        if (!(again instanceof DuplicateName)) throw again;
        throw new ProviderRecordError(
          `${again.message} (Tay sent “${record.displayName}”, then “${unique}”: both are taken. Link this payer to the existing customer from the sync log, or rename one of them.)`,
        );
      }
    }
  }

  /**
   * A refund receipt, from the account its payment went into (read from the payment, as QBO
   * answers it: `DepositToAccountRef`). A company with Automated Sales Tax may add tax of its own:
   * the answered total must still be the refund's.
   */
  async function pushRefund(session: ProviderSession, record: RefundRecord, existing: RemoteRef | null): Promise<RemoteRef> {
    const paymentId = record.payment.remoteId;
    let payment: unknown;
    try {
      payment = await api(session, 'GET', `payment/${encodeURIComponent(paymentId)}`, 'read of a payment');
    } catch (error) {
      if (!(error instanceof NotFound)) throw error;
      throw new ProviderRecordError(`${error.message} (the payment this refund gives back was deleted in ${NAME}, so there is no account to refund it from).`);
    }
    const account = text(field(payment, 'Payment', 'DepositToAccountRef', 'value'));
    if (!account) throw new ProviderRecordError(`${NAME}'s payment ${paymentId} names no deposit account, so there is no account to refund it from.`);
    return push(session, 'RefundReceipt', record.localId, refundReceiptBody(record, account), existing, (answer) => {
      const total = field(answer, 'RefundReceipt', 'TotalAmt');
      if (typeof total === 'number' && Math.round(total * 100) !== record.amountCents) {
        throw new ProviderRecordError(
          `${NAME} worked out a total of ${centsToDecimal(Math.round(total * 100))} for the refund receipt, not ${centsToDecimal(record.amountCents)} as refunded in Tay: check the company's sales tax settings (Automated Sales Tax adds tax of its own).`,
        );
      }
    });
  }

  return {
    provider: 'quickbooks',
    // Intuit documents no PKCE: its authorization and token parameters (developer.intuit.com, "Set up
    // OAuth 2.0"), its discovery document (no code_challenge_methods_supported) and its own OAuth
    // clients (intuit/oauth-jsclient) have none. A callback's code is bound to its company instead:
    // one company is connected to one Tay business (ADR 041, issue 35; `connect.ts`).
    usesPkce: false,
    uniqueCustomerNames: true,
    authorizationUrl({ state, redirectUri }) {
      const url = new URL(settings.authUrl);
      url.searchParams.set('client_id', settings.clientId);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('scope', SCOPE);
      url.searchParams.set('redirect_uri', redirectUri);
      url.searchParams.set('state', state);
      return url.toString();
    },
    async exchangeCode({ code, redirectUri, realmId, signal }): Promise<Connection> {
      if (!realmId) throw new ProviderAuthError(`${NAME} sent no company (realmId) back with the authorization.`);
      const tokens = await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: redirectUri }, 'authorization', signal);
      const info = await api(
        { accessToken: tokens.accessToken, accountId: realmId, signal },
        'GET',
        `companyinfo/${encodeURIComponent(realmId)}`,
        'company lookup',
      );
      const companyName = text(field(info, 'CompanyInfo', 'CompanyName')) ?? text(field(info, 'CompanyInfo', 'LegalName')) ?? '';
      return { ...tokens, accountId: realmId, companyName };
    },
    refresh({ refreshToken, signal }) {
      return tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshToken }, 'token refresh', signal);
    },
    async revoke({ token, signal }) {
      const answer = await callProvider(NAME, 'revoke', settings.revokeUrl, {
        method: 'POST',
        headers: { authorization: basic, accept: 'application/json', 'content-type': 'application/json' },
        body: JSON.stringify({ token }),
        signal,
      });
      // A token Intuit no longer knows (already revoked, expired) answers 400 invalid_grant: nothing left to revoke.
      if (answer.status === 200 || (answer.status === 400 && text(field(answer.json, 'error')) === 'invalid_grant')) return;
      throw failure(answer, 'revoke');
    },
    pushCustomer,
    async findCustomer(session, remoteId): Promise<ExistingCustomer | null> {
      try {
        const answer = await api(session, 'GET', `customer/${encodeURIComponent(remoteId)}`, 'read of a customer');
        return { ref: refOf(answer, 'Customer'), name: text(field(answer, 'Customer', 'DisplayName')) ?? '' };
      } catch (error) {
        if (error instanceof NotFound) return null;
        throw error;
      }
    },
    pushInvoice: (session, record, existing) =>
      push(session, 'Invoice', record.localId, invoiceBody(record), existing, (answer) => {
        // A company with Automated Sales Tax works the tax out itself: its total must still be ours,
        // or a payment in full would not settle the invoice there.
        const total = field(answer, 'Invoice', 'TotalAmt');
        if (typeof total === 'number' && Math.round(total * 100) !== record.totalCents) {
          throw new ProviderRecordError(
            `${NAME} worked out a total of ${centsToDecimal(Math.round(total * 100))} for ${record.number}, not ${centsToDecimal(record.totalCents)} as in Tay: check the company's sales tax settings (Automated Sales Tax replaces the tax we send).`,
          );
        }
      }),
    pushPayment: (session, record, existing) => push(session, 'Payment', record.localId, paymentBody(record), existing),
    pushRefund,
    voidPayment: (session, existing) => takeBack(session, 'Payment', 'delete', existing),
    voidInvoice: (session, existing) => takeBack(session, 'Invoice', 'void', existing),
  };
}

/** Internal: a 5010 answer, retried once by `push` before it becomes a `ProviderRecordError`. */
class StaleObject extends Error {}

/** A 6240 answer: the DisplayName is taken. A record error like any other, which `pushCustomer` tries once more under another name. */
class DuplicateName extends ProviderRecordError {}

/** A 610 answer: no record of that Id (a read, a delete or a void of one gone already). */
class NotFound extends ProviderRecordError {}

function refOf(json: unknown, entity: Entity): RemoteRef {
  const id = text(field(json, entity, 'Id'));
  if (!id) throw new ProviderUnavailable(`${NAME} answered without the ${entity.toLowerCase()}'s Id.`);
  return { remoteId: id, remoteVersion: text(field(json, entity, 'SyncToken')) ?? null };
}
