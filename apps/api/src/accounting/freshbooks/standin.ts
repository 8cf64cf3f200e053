import { createHash } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ProviderSettings } from '../port';
import { centsToDecimal, decimalToCents, decimalToMilli, field, lineAmountCents, text } from '../provider-http';
import { registerConsent } from '../standin-consent';
import {
  authorizeApiCall,
  failRecordMessage,
  findRecord,
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
 * FreshBooks' built-in stand-in, under `/sandbox/freshbooks`: its OAuth 2.0 paths (with PKCE),
 * `/auth/api/v1/users/me`, and the accounting API's clients, invoices, payments and credit notes,
 * answering `{ response: { result: … } }` or `{ response: { errors: [{ message, errno, field }] } }`.
 */

export interface FreshBooksStandInOptions {
  db: StandInDb;
  settings: ProviderSettings;
  publicUrl: string;
}

/** FreshBooks' lifetimes: an access token lasts 12 hours; a refresh token until it is used. */
const LIFETIMES: Lifetimes = { accessSeconds: 12 * 3600, refreshSeconds: null };

const ENTITIES = {
  'users/clients': { type: 'customer', name: 'client', idField: 'userid' },
  'invoices/invoices': { type: 'invoice', name: 'invoice', idField: 'invoiceid' },
  'payments/payments': { type: 'payment', name: 'payment', idField: 'paymentid' },
  'credit_notes/credit_notes': { type: 'refund', name: 'credit_note', idField: 'creditid' },
} as const satisfies Record<string, { type: RecordType; name: string; idField: string }>;
type EntityPath = keyof typeof ENTITIES;

const PAYMENT_TYPES = ['Credit Card', 'ACH', 'Check', 'Cash', 'Bank Transfer', 'Debit', 'Other'];

interface FbError {
  message: string;
  errno: number;
  field?: string;
  object?: string;
}

const sendErrors = (reply: FastifyReply, status: number, error: FbError) => reply.status(status).send({ response: { errors: [error] } });

/** A stable number from a text id (FreshBooks' user and business ids are numbers). */
const numberFrom = (value: string) => Number.parseInt(createHash('sha256').update(value).digest('hex').slice(0, 8), 16);

type Fields = Record<string, unknown>;

export const freshBooksStandIn: FastifyPluginAsync<FreshBooksStandInOptions> = async (app, { db, settings, publicUrl }) => {
  registerConsent(app, { db, provider: 'freshbooks', settings, publicUrl, path: '/oauth/authorize', providerName: 'FreshBooks', realmIdInRedirect: false });

  const knownClient = (body: Fields) => text(body.client_id) === settings.clientId && sameSecret(text(body.client_secret) ?? '', settings.clientSecret);

  app.post('/auth/oauth/token', { schema: { hide: true } }, async (request, reply) => {
    const body = (request.body ?? {}) as Fields;
    if (!knownClient(body))
      return reply.status(401).send({ error: 'invalid_client', error_description: 'Client authentication failed: unknown client_id or wrong client_secret.' });
    const issued = await grantTokens(db, 'freshbooks', settings.clientId, body, LIFETIMES);
    if ('error' in issued) return reply.status(400).send({ error: issued.error, error_description: issued.description });
    return {
      access_token: issued.accessToken,
      token_type: 'Bearer',
      expires_in: issued.expiresIn,
      refresh_token: issued.refreshToken,
      scope: 'user:profile:read user:clients:write user:invoices:write user:payments:write',
      created_at: Math.floor(Date.now() / 1000),
    };
  });

  app.post('/auth/oauth/revoke', { schema: { hide: true } }, async (request, reply) => {
    const body = (request.body ?? {}) as Fields;
    if (!knownClient(body))
      return reply.status(401).send({ error: 'invalid_client', error_description: 'Client authentication failed: unknown client_id or wrong client_secret.' });
    await revokeToken(db, text(body.token) ?? '');
    return {};
  });

  async function access(request: FastifyRequest, reply: FastifyReply, accountId: string | null): Promise<Company | null> {
    const result = await authorizeApiCall(db, 'freshbooks', request.headers.authorization, accountId);
    if (result.ok) return result.company;
    if (result.status === 429) {
      await sendErrors(reply.header('retry-after', String(result.retryAfterSeconds)), 429, {
        message: 'Too many requests: slow down and retry later.',
        errno: 1011,
      });
      return null;
    }
    await reply.status(401).send({ error: 'unauthenticated', error_description: `This action requires authentication to continue. ${result.reason}` });
    return null;
  }

  app.get('/auth/api/v1/users/me', { schema: { hide: true } }, async (request, reply) => {
    const company = await access(request, reply, null);
    if (!company) return reply;
    const businessId = numberFrom(company.id);
    return {
      response: {
        id: numberFrom(`owner:${company.id}`),
        first_name: 'Sandbox',
        last_name: 'Owner',
        email: 'owner@sandbox.invalid',
        business_memberships: [
          { id: numberFrom(`membership:${company.id}`), role: 'owner', business: { id: businessId, name: company.name, account_id: company.id } },
        ],
      },
    };
  });

  app.get<{ Params: { accountId: string; area: string; kind: string; id: string } }>(
    '/accounting/account/:accountId/:area/:kind/:id',
    { schema: { hide: true } },
    async (request, reply) => {
      const entity = ENTITIES[`${request.params.area}/${request.params.kind}` as EntityPath];
      if (!entity) return reply.status(404).send();
      const company = await access(request, reply, request.params.accountId);
      if (!company) return reply;
      const record = await findRecord(db, company.id, entity.type, request.params.id);
      if (!record) return sendErrors(reply, 404, { message: `The requested ${entity.name} could not be found.`, errno: 1012, object: entity.name });
      return { response: { result: { [entity.name]: record.body } } };
    },
  );

  async function save(request: FastifyRequest<{ Params: { accountId: string; area: string; kind: string; id?: string } }>, reply: FastifyReply) {
    const entity = ENTITIES[`${request.params.area}/${request.params.kind}` as EntityPath];
    if (!entity) return reply.status(404).send();
    const company = await access(request, reply, request.params.accountId);
    if (!company) return reply;
    const input = field(request.body, entity.name);
    if (input === null || typeof input !== 'object' || Array.isArray(input)) {
      return sendErrors(reply, 400, {
        message: `Send the ${entity.name} as { "${entity.name}": { … } }.`,
        errno: 2001,
        field: entity.name,
        object: entity.name,
      });
    }
    const failure = failRecordMessage(company, request.body);
    if (failure !== null) return sendErrors(reply, 422, { message: failure, errno: 2001, object: entity.name });
    let version = 0;
    let merged = input as Fields;
    const id = request.params.id;
    if (id !== undefined) {
      const current = await findRecord(db, company.id, entity.type, id);
      if (!current) return sendErrors(reply, 404, { message: `The requested ${entity.name} could not be found.`, errno: 1012, object: entity.name });
      version = current.version + 1;
      merged = { ...current.body, ...merged };
    }
    const checked = await check(entity.type, company, merged);
    if ('error' in checked) return sendErrors(reply, 422, { ...checked.error, object: entity.name });
    const recordId = id ?? (await nextRecordId(db, company.id));
    const body = {
      ...checked.body,
      id: Number(recordId),
      [entity.idField]: Number(recordId),
      accounting_systemid: company.id,
      updated: new Date().toISOString(),
    };
    await saveRecord(db, { companyId: company.id, type: entity.type, id: recordId, version, body, nameKey: null });
    return { response: { result: { [entity.name]: body } } };
  }

  app.post('/accounting/account/:accountId/:area/:kind', { schema: { hide: true } }, save);
  app.put('/accounting/account/:accountId/:area/:kind/:id', { schema: { hide: true } }, save);

  /** The record's own checks, and the figures FreshBooks works out (an invoice's amount and due date). */
  async function check(type: RecordType, company: Company, body: Fields): Promise<{ body: Fields } | { error: FbError }> {
    if (type === 'customer') {
      if (![body.fname, body.lname, body.organization, body.email].some((value) => typeof value === 'string' && value.trim() !== '')) {
        return { error: { message: 'A client needs a first name, last name, organization or email.', errno: 2001, field: 'organization' } };
      }
      return { body };
    }
    if (type === 'invoice') {
      const customerId = text(body.customerid);
      if (!customerId || !(await findRecord(db, company.id, 'customer', customerId)))
        return { error: { message: `Client ${customerId ?? '(none)'} does not exist.`, errno: 1012, field: 'customerid' } };
      return invoiceFigures(body);
    }
    if (type === 'refund') {
      // A credit note names its client `clientid` (an invoice, `customerid`).
      const clientId = text(body.clientid);
      if (!clientId || !(await findRecord(db, company.id, 'customer', clientId)))
        return { error: { message: `Client ${clientId ?? '(none)'} does not exist.`, errno: 1012, field: 'clientid' } };
      return creditNoteFigures(body);
    }
    const invoiceId = text(body.invoiceid);
    if (!invoiceId || !(await findRecord(db, company.id, 'invoice', invoiceId)))
      return { error: { message: `Invoice ${invoiceId ?? '(none)'} does not exist.`, errno: 1012, field: 'invoiceid' } };
    if (decimalToCents(field(body, 'amount', 'amount')) === null)
      return { error: { message: 'amount must be an amount with at most two decimals.', errno: 2002, field: 'amount' } };
    if (!PAYMENT_TYPES.includes(text(body.type) ?? ''))
      return { error: { message: `type must be one of: ${PAYMENT_TYPES.join(', ')}.`, errno: 2002, field: 'type' } };
    return { body };
  }
};

/** Each line's amount as FreshBooks works it out (qty × unit cost, rounded), and their sum. */
function pricedLines(lines: Fields[]): { lines: Fields[]; total: number } | { error: FbError } {
  let total = 0;
  const priced: Fields[] = [];
  for (const [index, line] of lines.entries()) {
    const qty = decimalToMilli(line.qty ?? 1);
    const unitCost = decimalToCents(field(line, 'unit_cost', 'amount'));
    if (qty === null) return { error: { message: `Line ${index + 1}: qty must be a number with at most three decimals.`, errno: 2002, field: 'qty' } };
    if (unitCost === null)
      return { error: { message: `Line ${index + 1}: unit_cost must be an amount with at most two decimals.`, errno: 2002, field: 'unit_cost' } };
    const amount = lineAmountCents(qty, unitCost);
    total += amount;
    priced.push({ ...line, lineid: index + 1, amount: { amount: centsToDecimal(amount), code: text(field(line, 'unit_cost', 'code')) ?? 'USD' } });
  }
  return { lines: priced, total };
}

/** A credit note's figures: its lines priced, its amount their sum. */
function creditNoteFigures(body: Fields): { body: Fields } | { error: FbError } {
  const lines = Array.isArray(body.lines) ? (body.lines as Fields[]) : [];
  if (lines.length === 0) return { error: { message: 'A credit note needs at least one line.', errno: 2001, field: 'lines' } };
  const priced = pricedLines(lines);
  if ('error' in priced) return priced;
  const code = text(body.currency_code) ?? 'USD';
  return {
    body: {
      ...body,
      lines: priced.lines,
      create_date: text(body.create_date) ?? new Date().toISOString().slice(0, 10),
      amount: { amount: centsToDecimal(priced.total), code },
    },
  };
}

/** An invoice's figures as FreshBooks works them out: each line qty × unit cost rounded; the amount their sum. */
function invoiceFigures(body: Fields): { body: Fields } | { error: FbError } {
  const lines = Array.isArray(body.lines) ? (body.lines as Fields[]) : [];
  const figures = pricedLines(lines);
  if ('error' in figures) return figures;
  const { lines: priced, total } = figures;
  const createDate = text(body.create_date) ?? new Date().toISOString().slice(0, 10);
  const offset = Number(body.due_offset_days);
  const dueDate = Number.isFinite(offset)
    ? new Date(Date.parse(`${createDate}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10)
    : (text(body.due_date) ?? createDate);
  const code = text(body.currency_code) ?? 'USD';
  return {
    body: {
      ...body,
      lines: priced,
      create_date: createDate,
      due_date: dueDate,
      amount: { amount: centsToDecimal(total), code },
      outstanding: { amount: centsToDecimal(total), code },
    },
  };
}
