import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ProviderSettings } from '../port';
import { centsToDecimal, decimalToCents, decimalToMilli, field, lineAmountCents, text } from '../provider-http';
import { registerConsent } from '../standin-consent';
import {
  authorizeApiCall,
  failRecordMessage,
  findByName,
  deleteRecord,
  findByRequestId,
  findRecord,
  nameKey,
  nextRecordId,
  revokeToken,
  sameSecret,
  saveRecord,
  type Company,
  type Lifetimes,
  type RecordType,
  type StandInDb,
  grantTokens,
} from '../standin-store';

/**
 * QuickBooks Online's built-in stand-in, under `/sandbox/quickbooks`: Intuit's OAuth 2.0 paths and
 * the Accounting API v3's customer, invoice, payment and refund receipt, with their JSON shapes,
 * `Id`/`SyncToken` versioning and `Fault` errors (a stale SyncToken is 5010, a customer's duplicate
 * DisplayName 6240).
 */

export interface QuickBooksStandInOptions {
  db: StandInDb;
  settings: ProviderSettings;
  publicUrl: string;
}

/** Intuit's lifetimes: an access token lasts an hour, a refresh token 100 days. */
const LIFETIMES: Lifetimes = { accessSeconds: 3600, refreshSeconds: 100 * 24 * 3600 };

/** The API's entity paths (QBO's names, lower-cased): what each is kept as, and its JSON name. */
const ENTITIES = {
  customer: { type: 'customer', name: 'Customer' },
  invoice: { type: 'invoice', name: 'Invoice' },
  payment: { type: 'payment', name: 'Payment' },
  refundreceipt: { type: 'refund', name: 'RefundReceipt' },
} as const satisfies Record<string, { type: RecordType; name: string }>;
type Entity = (typeof ENTITIES)[keyof typeof ENTITIES]['name'];
const entityAt = (path: string) => (Object.hasOwn(ENTITIES, path) ? ENTITIES[path as keyof typeof ENTITIES] : undefined);

/**
 * The account a payment goes into when it names none, as in every QBO company: Undeposited Funds
 * (an Other Current Asset), until the payments are grouped into a bank deposit.
 */
const UNDEPOSITED_FUNDS = { value: '4', name: 'Undeposited Funds' };
/** A payment as QBO answers it: with the account it went into. */
const withDepositAccount = (body: Fields): Fields => (body.DepositToAccountRef ? body : { ...body, DepositToAccountRef: UNDEPOSITED_FUNDS });

interface QboError {
  Message: string;
  Detail: string;
  code: string;
  element?: string;
}

function sendFault(reply: FastifyReply, status: number, type: string, error: QboError) {
  return reply.status(status).send({ Fault: { Error: [error], type }, time: new Date().toISOString() });
}

const validation = (reply: FastifyReply, error: QboError) => sendFault(reply, 400, 'ValidationFault', error);

function basicClient(request: FastifyRequest, settings: ProviderSettings): boolean {
  const match = /^Basic\s+(\S+)$/i.exec(request.headers.authorization ?? '');
  if (!match) return false;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon > 0 && decoded.slice(0, colon) === settings.clientId && sameSecret(decoded.slice(colon + 1), settings.clientSecret);
}

type Fields = Record<string, unknown>;

export const quickBooksStandIn: FastifyPluginAsync<QuickBooksStandInOptions> = async (app, { db, settings, publicUrl }) => {
  registerConsent(app, {
    db,
    provider: 'quickbooks',
    settings,
    publicUrl,
    path: '/connect/oauth2',
    providerName: 'QuickBooks Online',
    realmIdInRedirect: true,
  });

  app.post('/oauth2/v1/tokens/bearer', { schema: { hide: true } }, async (request, reply) => {
    if (!basicClient(request, settings)) return reply.status(401).send({ error: 'invalid_client' });
    const body = (request.body ?? {}) as Fields;
    const issued = await grantTokens(db, 'quickbooks', settings.clientId, body, LIFETIMES);
    if ('error' in issued) return reply.status(400).send({ error: issued.error, error_description: issued.description });
    return {
      token_type: 'bearer',
      access_token: issued.accessToken,
      refresh_token: issued.refreshToken,
      expires_in: issued.expiresIn,
      x_refresh_token_expires_in: issued.refreshExpiresIn,
    };
  });

  app.post('/v2/oauth2/tokens/revoke', { schema: { hide: true } }, async (request, reply) => {
    if (!basicClient(request, settings)) return reply.status(401).send({ error: 'invalid_client' });
    const token = text(field(request.body, 'token'));
    if (!token) return reply.status(400).send({ error: 'invalid_request', error_description: 'token is required' });
    await revokeToken(db, token);
    return reply.status(200).send();
  });

  /** The call's token for the path's realm, or the answer already sent (401 or 429). */
  async function access(request: FastifyRequest<{ Params: { realmId: string } }>, reply: FastifyReply): Promise<Company | null> {
    const result = await authorizeApiCall(db, 'quickbooks', request.headers.authorization, request.params.realmId);
    if (result.ok) return result.company;
    if (result.status === 429) {
      await sendFault(reply.header('retry-after', String(result.retryAfterSeconds)), 429, 'ThrottleExceeded', {
        Message: 'message=ThrottleExceeded; errorCode=003001; statusCode=429',
        Detail: 'The request limit was reached.',
        code: '003001',
      });
      return null;
    }
    await sendFault(reply, 401, 'AuthenticationFault', {
      Message: 'message=AuthenticationFailed; errorCode=003200; statusCode=401',
      Detail: result.reason,
      code: '3200',
    });
    return null;
  }

  app.get<{ Params: { realmId: string; id: string } }>('/v3/company/:realmId/companyinfo/:id', { schema: { hide: true } }, async (request, reply) => {
    const company = await access(request, reply);
    if (!company) return reply;
    if (request.params.id !== company.id) return validation(reply, { Message: 'Object Not Found', Detail: 'Object Not Found : CompanyInfo', code: '610' });
    return {
      CompanyInfo: { Id: company.id, CompanyName: company.name, LegalName: company.name, Country: 'US', SyncToken: '0' },
      time: new Date().toISOString(),
    };
  });

  app.get<{ Params: { realmId: string; entity: string; id: string } }>(
    '/v3/company/:realmId/:entity/:id',
    { schema: { hide: true } },
    async (request, reply) => {
      const found = entityAt(request.params.entity);
      if (!found) return reply.status(404).send();
      const company = await access(request, reply);
      if (!company) return reply;
      const record = await findRecord(db, company.id, found.type, request.params.id);
      if (!record) return validation(reply, { Message: 'Object Not Found', Detail: `Object Not Found : ${found.name} ${request.params.id}`, code: '610' });
      return { [found.name]: found.type === 'payment' ? withDepositAccount(record.body) : record.body, time: new Date().toISOString() };
    },
  );

  app.post<{ Params: { realmId: string; entity: string } }>('/v3/company/:realmId/:entity', { schema: { hide: true } }, async (request, reply) => {
    const found = entityAt(request.params.entity);
    if (!found) return reply.status(404).send();
    const company = await access(request, reply);
    if (!company) return reply;
    const { type, name: entity } = found;
    const input = request.body;
    if (input === null || typeof input !== 'object' || Array.isArray(input)) {
      return validation(reply, { Message: 'Request has invalid or unsupported property', Detail: `Send the ${entity} as a JSON object.`, code: '2010' });
    }
    const failure = failRecordMessage(company, input);
    if (failure !== null) {
      return validation(reply, {
        Message: 'A business validation error has occurred while processing your request',
        Detail: `Business Validation Error: ${failure}`,
        code: '6000',
      });
    }
    const fields = input as Fields;
    const id = text(fields.Id);
    const operation = (request.query as { operation?: unknown }).operation;
    if ((operation === 'void' && type === 'invoice') || operation === 'delete') {
      // Both name the record by Id and its current SyncToken.
      const current = id === undefined ? undefined : await findRecord(db, company.id, type, id);
      if (!current) return validation(reply, { Message: 'Object Not Found', Detail: `Object Not Found : ${entity} ${id ?? '(no Id)'}`, code: '610' });
      if (text(fields.SyncToken) !== String(current.version)) {
        return validation(reply, {
          Message: 'Stale Object Error',
          Detail: `Stale Object Error : the ${entity} changed since SyncToken ${text(fields.SyncToken) ?? '(none)'}.`,
          code: '5010',
        });
      }
      if (operation === 'delete') {
        await deleteRecord(db, company.id, type, current.id);
        return { [entity]: { Id: current.id, status: 'Deleted', domain: 'QBO' }, time: new Date().toISOString() } as Record<Entity | 'time', unknown>;
      }
      // QBO keeps a voided invoice, at zero, with "Voided" in its note.
      const version = current.version + 1;
      const body = { ...current.body, TotalAmt: 0, Balance: 0, PrivateNote: 'Voided', SyncToken: String(version) };
      await saveRecord(db, { companyId: company.id, type, id: current.id, version, body, nameKey: null });
      return { [entity]: body, time: new Date().toISOString() } as Record<Entity | 'time', unknown>;
    }
    // A create repeated with the same `requestid` (a retry after a lost answer) gets the first one's record.
    const requestId = id === undefined ? text((request.query as { requestid?: unknown }).requestid) : undefined;
    if (requestId !== undefined) {
      const earlier = await findByRequestId(db, company.id, type, requestId);
      if (earlier) return { [entity]: earlier.body, time: new Date().toISOString() } as Record<Entity | 'time', unknown>;
    }
    let version = 0;
    let merged: Fields = fields;
    let createTime = new Date().toISOString();
    if (id !== undefined) {
      const current = await findRecord(db, company.id, type, id);
      if (!current) return validation(reply, { Message: 'Object Not Found', Detail: `Object Not Found : ${entity} ${id}`, code: '610' });
      if (text(fields.SyncToken) !== String(current.version)) {
        return validation(reply, {
          Message: 'Stale Object Error',
          Detail: `Stale Object Error : You and ${company.name} were working on this at the same time. ${company.name} finished before you did, so your work was not saved.`,
          code: '5010',
        });
      }
      version = current.version + 1;
      merged = fields.sparse === true ? { ...current.body, ...fields } : fields;
      createTime = text(field(current.body, 'MetaData', 'CreateTime')) ?? createTime;
    }
    const { sparse: _sparse, ...rest } = merged;
    const checked = await check(type, company, rest, id ?? null);
    if ('error' in checked) return validation(reply, checked.error);
    const recordId = id ?? (await nextRecordId(db, company.id));
    const body = {
      ...checked.body,
      Id: recordId,
      SyncToken: String(version),
      domain: 'QBO',
      MetaData: { CreateTime: createTime, LastUpdatedTime: new Date().toISOString() },
    };
    try {
      await saveRecord(db, { companyId: company.id, type, id: recordId, version, body, nameKey: checked.nameKey, requestId: requestId ?? null });
    } catch (error) {
      // Two creates of one name at once: the unique index speaks where the check above could not.
      if (checked.nameKey !== null && /unique|duplicate/i.test(String(error))) return validation(reply, duplicateName());
      throw error;
    }
    return { [entity]: body, time: new Date().toISOString() } as Record<Entity | 'time', unknown>;
  });

  /** The record's own checks, as QBO makes them, and the figures it works out (an invoice's TotalAmt). */
  async function check(
    type: RecordType,
    company: Company,
    body: Fields,
    id: string | null,
  ): Promise<{ body: Fields; nameKey: string | null } | { error: QboError }> {
    if (type === 'customer') {
      const displayName = (text(body.DisplayName) ?? [text(body.GivenName), text(body.FamilyName)].filter(Boolean).join(' ')).trim();
      if (!displayName)
        return {
          error: {
            Message: 'Required param missing, need to supply the required value for the API',
            Detail: 'Required parameter DisplayName is missing in the request',
            code: '2020',
            element: 'DisplayName',
          },
        };
      const key = nameKey(displayName);
      if (await findByName(db, company.id, 'customer', key, id)) return { error: duplicateName() };
      return { body: { ...body, DisplayName: displayName, Active: true }, nameKey: key };
    }
    const customerId = text(field(body, 'CustomerRef', 'value'));
    if (!customerId || !(await findRecord(db, company.id, 'customer', customerId))) {
      return {
        error: {
          Message: 'Invalid Reference Id',
          Detail: `Invalid Reference Id : Customer ${customerId ?? '(none)'} does not exist`,
          code: '2500',
          element: 'CustomerRef',
        },
      };
    }
    if (type === 'invoice') return invoiceFigures(body);
    if (type === 'refund') return refundFigures(body);
    const lines = Array.isArray(body.Line) ? (body.Line as unknown[]) : [];
    for (const line of lines) {
      for (const linked of Array.isArray(field(line, 'LinkedTxn')) ? (field(line, 'LinkedTxn') as unknown[]) : []) {
        const txnId = text(field(linked, 'TxnId'));
        if (text(field(linked, 'TxnType')) === 'Invoice' && (!txnId || !(await findRecord(db, company.id, 'invoice', txnId)))) {
          return {
            error: {
              Message: 'Invalid Reference Id',
              Detail: `Invalid Reference Id : Invoice ${txnId ?? '(none)'} does not exist`,
              code: '2500',
              element: 'LinkedTxn',
            },
          };
        }
      }
    }
    if (decimalToCents(body.TotalAmt) === null)
      return {
        error: {
          Message: 'Required param missing, need to supply the required value for the API',
          Detail: 'Required parameter TotalAmt is missing in the request',
          code: '2020',
          element: 'TotalAmt',
        },
      };
    return { body: withDepositAccount(body), nameKey: null };
  }

  const duplicateName = (): QboError => ({
    Message: 'Duplicate Name Exists Error',
    Detail: 'The name supplied already exists. : Another customer, vendor or employee is already using this name. Please use a different name.',
    code: '6240',
  });
};

/**
 * A refund receipt: the account the money is refunded from is required; its lines and tax add up as
 * an invoice's do, and nothing is left to pay on it.
 */
function refundFigures(body: Fields): { body: Fields; nameKey: null } | { error: QboError } {
  if (!text(field(body, 'DepositToAccountRef', 'value'))) {
    return {
      error: {
        Message: 'Required param missing, need to supply the required value for the API',
        Detail: 'Required parameter DepositToAccountRef is missing in the request',
        code: '2020',
        element: 'DepositToAccountRef',
      },
    };
  }
  const figures = invoiceFigures(body);
  return 'error' in figures ? figures : { body: { ...figures.body, Balance: 0 }, nameKey: null };
}

/** QBO's invoice arithmetic: each sales line's Amount is Qty × UnitPrice; TotalAmt = lines − discount + TotalTax. */
function invoiceFigures(body: Fields): { body: Fields; nameKey: null } | { error: QboError } {
  const lines = Array.isArray(body.Line) ? (body.Line as Fields[]) : [];
  if (lines.length === 0)
    return {
      error: {
        Message: 'Required param missing, need to supply the required value for the API',
        Detail: 'Required parameter Line is missing in the request',
        code: '2020',
        element: 'Line',
      },
    };
  let subtotal = 0;
  let discount = 0;
  for (const [index, line] of lines.entries()) {
    const amount = decimalToCents(line.Amount);
    if (amount === null) return { error: { Message: 'Invalid Number', Detail: `Invalid Number : Line ${index + 1} Amount`, code: '2050', element: 'Amount' } };
    if (line.DetailType === 'DiscountLineDetail') {
      discount += amount;
      continue;
    }
    const qty = decimalToMilli(field(line, 'SalesItemLineDetail', 'Qty') ?? 1);
    const unitPrice = decimalToCents(field(line, 'SalesItemLineDetail', 'UnitPrice') ?? line.Amount);
    if (qty === null || unitPrice === null || lineAmountCents(qty, unitPrice) !== amount) {
      return {
        error: {
          Message: 'Amount is not equal to UnitPrice * Qty',
          Detail: `Amount is not equal to UnitPrice * Qty. Supplied value:${String(line.Amount)}`,
          code: '6070',
          element: 'Amount',
        },
      };
    }
    subtotal += amount;
  }
  const tax = decimalToCents(field(body, 'TxnTaxDetail', 'TotalTax') ?? 0) ?? 0;
  const total = subtotal - discount + tax;
  const numbered = lines.map((line, index) => ({ ...line, Id: String(index + 1), LineNum: index + 1 }));
  return { body: { ...body, Line: numbered, TotalAmt: Number(centsToDecimal(total)), Balance: Number(centsToDecimal(total)) }, nameKey: null };
}
