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
  type RefundRecord,
  type RemoteRef,
  type TokenSet,
} from '../port';
import { callProvider, centsToDecimal, field, lineAmountCents, milliToDecimal, retryAfterSeconds, text, type ProviderAnswer } from '../provider-http';

/**
 * FreshBooks (its public API: OAuth 2.0, `/auth/api/v1/users/me`, the accounting API under
 * `/accounting/account/{accountId}`). The stand-in (`./standin.ts`) answers the same paths and shapes.
 */

const NAME = 'FreshBooks';
const CURRENCY = 'USD';
const DAY_MS = 24 * 3600 * 1000;

type Entity = 'client' | 'invoice' | 'payment' | 'credit_note';
const PATHS: Record<Entity, string> = {
  client: 'users/clients',
  invoice: 'invoices/invoices',
  payment: 'payments/payments',
  credit_note: 'credit_notes/credit_notes',
};
/** How an action names the record ("create of a credit note"). */
const entityName = (entity: Entity) => entity.replace('_', ' ');

const money = (cents: number) => ({ amount: centsToDecimal(cents), code: CURRENCY });
/** FreshBooks' ids are numbers; one we hold as text goes back as the number it was. */
const idValue = (remoteId: string) => (/^\d{1,15}$/.test(remoteId) ? Number(remoteId) : remoteId);

export function clientBody(record: CustomerRecord): Record<string, unknown> {
  return {
    client: {
      fname: record.firstName,
      lname: record.lastName,
      email: record.email,
      organization: record.companyName,
      mob_phone: record.phone ?? '',
    },
  };
}

/**
 * The invoice as FreshBooks takes it. FreshBooks' discount is a percentage of the invoice and its
 * taxes are percentages per line, neither of which can land on an amount to the cent; so the
 * discount goes as a "Discount" line of negative amount and the tax as a "Sales tax" line, and the
 * invoice's total (the sum of the lines, each qty × unit cost rounded to the cent) equals
 * `totalCents` exactly. The tax line is the remainder `total − (lines − discount)`, which is
 * `taxCents` when our figures agree; should it come out negative, the discount takes it.
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
    // A line whose rounded qty × unit cost is not its amount goes as 1 × amount, so the total holds.
    const exact = lineAmountCents(line.quantityMilli, line.unitPriceCents) === line.amountCents;
    return {
      type: 0,
      name: line.description,
      qty: exact ? milliToDecimal(line.quantityMilli) : '1',
      unit_cost: money(exact ? line.unitPriceCents : line.amountCents),
    };
  });
  if (discount > 0) lines.push({ type: 0, name: 'Discount', qty: '1', unit_cost: money(-discount) });
  if (tax > 0) lines.push({ type: 0, name: 'Sales tax', qty: '1', unit_cost: money(tax) });
  const dueOffsetDays = Math.max(0, Math.round((Date.parse(`${record.dueDate}T00:00:00Z`) - Date.parse(`${record.issueDate}T00:00:00Z`)) / DAY_MS));
  return {
    invoice: {
      customerid: idValue(record.customer.remoteId),
      create_date: record.issueDate,
      due_offset_days: dueOffsetDays,
      invoice_number: record.number,
      currency_code: CURRENCY,
      notes: record.memo,
      lines,
    },
  };
}

export function paymentBody(record: PaymentRecord): Record<string, unknown> {
  return {
    payment: {
      invoiceid: idValue(record.invoice.remoteId),
      amount: money(record.amountCents),
      date: record.date,
      type: record.method === 'card' ? 'Credit Card' : 'ACH',
      note: record.reference,
    },
  };
}

/**
 * A refund as a FreshBooks credit note to the client: one line of the amount given back, dated the
 * day it succeeded. FreshBooks names a credit note's client `clientid` (an invoice's is `customerid`).
 */
export function creditNoteBody(record: RefundRecord): Record<string, unknown> {
  return {
    credit_note: {
      clientid: idValue(record.customer.remoteId),
      create_date: record.date,
      currency_code: CURRENCY,
      notes: record.reference,
      lines: [{ type: 0, name: 'Refund', description: record.reference, qty: '1', unit_cost: money(record.amountCents) }],
    },
  };
}

/** FreshBooks' own words: `response.errors[0].message` (API), or `error_description` / `error` (OAuth). */
function errorText(json: unknown): string | undefined {
  return (
    text(field(json, 'response', 'errors', 0, 'message')) ??
    text(field(json, 'errors', 0, 'message')) ??
    text(field(json, 'error_description')) ??
    text(field(json, 'message')) ??
    text(field(json, 'error'))
  );
}

function failure(answer: ProviderAnswer, action: string): Error {
  const { status, json } = answer;
  const oauthError = text(field(json, 'error'));
  if (status === 401 || oauthError === 'invalid_grant' || oauthError === 'invalid_client') {
    return new ProviderAuthError(`${NAME} refused our authorization (${action}): ${errorText(json) ?? `HTTP ${status}`}.`);
  }
  if (status === 429) return new ProviderRateLimited(retryAfterSeconds(answer.headers.get('retry-after')));
  if (status === 400 || status === 422) return new ProviderRecordError(errorText(json) ?? `${NAME} refused the ${action} (HTTP ${status}).`);
  if (status === 403) return new ProviderAuthError(`${NAME} refused access (${action}): ${errorText(json) ?? 'HTTP 403'}.`);
  return new ProviderUnavailable(`${NAME} failed (${action}): HTTP ${status}.`);
}

function tokenSet(json: unknown, now: Date): TokenSet {
  const accessToken = text(field(json, 'access_token'));
  const refreshToken = text(field(json, 'refresh_token'));
  const expiresIn = Number(field(json, 'expires_in'));
  if (!accessToken || !refreshToken || !Number.isFinite(expiresIn)) throw new ProviderUnavailable(`${NAME} answered the token request without tokens.`);
  // FreshBooks' refresh token has no lifetime of its own: it lasts until it is used (each refresh gives a new one).
  return { accessToken, refreshToken, accessExpiresAt: new Date(now.getTime() + expiresIn * 1000), refreshExpiresAt: null };
}

export function createFreshBooksProvider(settings: ProviderSettings): AccountingProvider {
  async function tokenRequest(body: Record<string, string>, action: string, signal: AbortSignal): Promise<TokenSet> {
    const now = new Date();
    const answer = await callProvider(NAME, action, settings.tokenUrl, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify({ ...body, client_id: settings.clientId, client_secret: settings.clientSecret }),
      signal,
    });
    if (answer.status !== 200) throw failure(answer, action);
    return tokenSet(answer.json, now);
  }

  async function api(accessToken: string, signal: AbortSignal, method: 'GET' | 'POST' | 'PUT', url: string, action: string, body?: unknown): Promise<unknown> {
    const answer = await callProvider(NAME, action, url, {
      method,
      headers: {
        authorization: `Bearer ${accessToken}`,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal,
    });
    if (answer.status !== 200 && answer.status !== 201) throw failure(answer, action);
    return answer.json;
  }

  async function push(session: ProviderSession, entity: Entity, body: Record<string, unknown>, existing: RemoteRef | null): Promise<RemoteRef> {
    const base = `${settings.apiUrl}/accounting/account/${encodeURIComponent(session.accountId)}/${PATHS[entity]}`;
    const url = existing ? `${base}/${encodeURIComponent(existing.remoteId)}` : base;
    const action = `${existing ? 'update' : 'create'} of a ${entityName(entity)}`;
    const json = await api(session.accessToken, session.signal, existing ? 'PUT' : 'POST', url, action, body);
    const id = text(field(json, 'response', 'result', entity, 'id'));
    if (!id) throw new ProviderUnavailable(`${NAME} answered without the ${entityName(entity)}'s id.`);
    return { remoteId: id, remoteVersion: null };
  }

  /** FreshBooks deletes by visibility (`vis_state: 1`): the payment's invoice is outstanding again, the invoice no longer owed. */
  async function takeBack(session: ProviderSession, entity: 'payment' | 'invoice', existing: RemoteRef): Promise<void> {
    try {
      await push(session, entity, { [entity]: { vis_state: 1 } }, existing);
    } catch (error) {
      if (error instanceof ProviderRecordError && /could not be found|not found/i.test(error.message)) return;
      throw error;
    }
  }

  return {
    provider: 'freshbooks',
    // FreshBooks' public documentation does not describe PKCE. We send an S256 challenge and its
    // verifier anyway: an OAuth server that supports PKCE then checks it, one that does not ignores
    // the extra parameters (RFC 7636 §5), so it never costs a connection. The stand-in checks it.
    usesPkce: true,
    // FreshBooks lets two clients share a name.
    uniqueCustomerNames: false,
    authorizationUrl({ state, codeChallenge, redirectUri }) {
      const url = new URL(settings.authUrl);
      url.searchParams.set('client_id', settings.clientId);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('redirect_uri', redirectUri);
      url.searchParams.set('state', state);
      url.searchParams.set('code_challenge', codeChallenge);
      url.searchParams.set('code_challenge_method', 'S256');
      return url.toString();
    },
    async exchangeCode({ code, codeVerifier, redirectUri, signal }): Promise<Connection> {
      const tokens = await tokenRequest(
        { grant_type: 'authorization_code', code, redirect_uri: redirectUri, ...(codeVerifier ? { code_verifier: codeVerifier } : {}) },
        'authorization',
        signal,
      );
      const me = await api(tokens.accessToken, signal, 'GET', `${settings.apiUrl}/auth/api/v1/users/me`, 'account lookup');
      const memberships = field(me, 'response', 'business_memberships');
      const business = Array.isArray(memberships) ? memberships.map((m) => field(m, 'business')).find((b) => text(field(b, 'account_id'))) : undefined;
      const accountId = text(field(business, 'account_id'));
      if (!accountId) throw new ProviderRecordError(`${NAME}: this login has no business with an accounting account to connect.`);
      return { ...tokens, accountId, companyName: text(field(business, 'name')) ?? '' };
    },
    refresh({ refreshToken, signal }) {
      return tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshToken }, 'token refresh', signal);
    },
    async revoke({ token, signal }) {
      const answer = await callProvider(NAME, 'revoke', settings.revokeUrl, {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: settings.clientId, client_secret: settings.clientSecret, token }),
        signal,
      });
      // A token FreshBooks no longer knows answers invalid_grant / invalid_token: nothing left to revoke.
      const error = text(field(answer.json, 'error'));
      if (answer.status === 200 || (answer.status === 400 && (error === 'invalid_grant' || error === 'invalid_token'))) return;
      throw failure(answer, 'revoke');
    },
    pushCustomer: (session, record, existing) => push(session, 'client', clientBody(record), existing),
    async findCustomer(session, remoteId): Promise<ExistingCustomer | null> {
      const url = `${settings.apiUrl}/accounting/account/${encodeURIComponent(session.accountId)}/${PATHS.client}/${encodeURIComponent(remoteId)}`;
      const answer = await callProvider(NAME, 'read of a client', url, {
        method: 'GET',
        headers: { authorization: `Bearer ${session.accessToken}`, accept: 'application/json' },
        signal: session.signal,
      });
      if (answer.status === 404) return null;
      if (answer.status !== 200) throw failure(answer, 'read of a client');
      const client = field(answer.json, 'response', 'result', 'client');
      const id = text(field(client, 'id'));
      // A client deleted in FreshBooks (vis_state 1) is not one to link to.
      if (!id || Number(field(client, 'vis_state') ?? 0) === 1) return null;
      const person = [text(field(client, 'fname')), text(field(client, 'lname'))].filter(Boolean).join(' ');
      return { ref: { remoteId: id, remoteVersion: null }, name: text(field(client, 'organization')) || person || (text(field(client, 'email')) ?? '') };
    },
    pushInvoice: (session, record, existing) => push(session, 'invoice', invoiceBody(record), existing),
    pushPayment: (session, record, existing) => push(session, 'payment', paymentBody(record), existing),
    pushRefund: (session, record, existing) => push(session, 'credit_note', creditNoteBody(record), existing),
    voidPayment: (session, existing) => takeBack(session, 'payment', existing),
    voidInvoice: (session, existing) => takeBack(session, 'invoice', existing),
  };
}
