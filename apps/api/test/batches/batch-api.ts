import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import type { DB } from '../../src/db/schema';
import { eventually } from '../support/test-app';

/**
 * The bulk batch API (packages/contract/src/batches/endpoints.ts) as the tests in this folder
 * call it: through the real server (`app.inject`), as one signed-in person of one business.
 */

export type Batch = {
  batchId: string;
  kind: string;
  fileName: string;
  fileBytes: number;
  uploadedBy: string;
  state: string;
  phase: string;
  columns: string[];
  mapping: { payer: string; columns: Record<string, string> };
  duplicateOf: string | null;
  counts: { rows: number; valid: number; invalid: number; sent: number; failed: number };
  totalCents: number;
  sentCents: number;
  progress: { done: number; total: number };
  sendAt: string | null;
  submittedAt: string | null;
  submittedBy: string | null;
  processedAt: string | null;
};

export type Row = {
  row: number;
  status: string;
  fields: Record<string, string>;
  errors: Record<string, string>;
  amountCents: number | null;
  payerName: string | null;
  requestId: string | null;
  referenceNumber: string | null;
};

export type Mapping = { payer?: 'existing' | 'create'; columns: Record<string, string> };

export interface Caller {
  token: string;
  businessId: string;
}

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** One call with a JSON body (or none: a DELETE carries no content type). */
export function call(app: FastifyInstance, method: Method, url: string, token: string, payload?: unknown, headers: Record<string, string> = {}) {
  return app.inject({
    method,
    url,
    headers: {
      authorization: `Bearer ${token}`,
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });
}

export function batchesApi(app: FastifyInstance, who: Caller) {
  const base = `/api/businesses/${who.businessId}/batches`;
  const api = {
    base,
    who,

    upload(
      body: string | Buffer,
      { fileName = 'requests.csv', contentType = 'text/csv', query }: { fileName?: string; contentType?: string; query?: string } = {},
    ) {
      return app.inject({
        method: 'POST',
        url: `${base}?${query ?? `kind=requests&fileName=${encodeURIComponent(fileName)}`}`,
        payload: body,
        headers: { authorization: `Bearer ${who.token}`, 'content-type': contentType },
      });
    },

    async uploaded(body: string | Buffer, fileName?: string): Promise<Batch> {
      const res = await api.upload(body, fileName ? { fileName } : {});
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data as Batch;
    },

    get: (batchId: string) => call(app, 'GET', `${base}/${batchId}`, who.token),

    async batch(batchId: string): Promise<Batch> {
      const res = await api.get(batchId);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data as Batch;
    },

    map: (batchId: string, mapping: Mapping) => call(app, 'PATCH', `${base}/${batchId}`, who.token, { mapping }),

    /** Maps the columns and waits until every row has its outcome. */
    async mapped(batchId: string, mapping: Mapping): Promise<Batch> {
      const res = await api.map(batchId, mapping);
      expect(res.statusCode, res.body).toBe(202);
      return api.until(batchId, (b) => b.phase === 'validated');
    },

    async until(batchId: string, done: (b: Batch) => boolean, timeoutMs = 60_000): Promise<Batch> {
      return eventually(async () => {
        const b = await api.batch(batchId);
        return done(b) ? b : undefined;
      }, timeoutMs);
    },

    rowsRes: (batchId: string, query = '') => call(app, 'GET', `${base}/${batchId}/rows${query}`, who.token),

    async rows(batchId: string, query = '?pageSize=100'): Promise<{ items: Row[]; total: number; page: number; pageSize: number }> {
      const res = await api.rowsRes(batchId, query);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data;
    },

    async row(batchId: string, line: number): Promise<Row> {
      const all = await api.rows(batchId);
      const found = all.items.find((r) => r.row === line);
      if (!found) throw new Error(`no row ${line} in ${batchId}`);
      return found;
    },

    fix: (batchId: string, line: number, fields: Record<string, string>) => call(app, 'PATCH', `${base}/${batchId}/rows/${line}`, who.token, { fields }),
    drop: (batchId: string, line: number) => call(app, 'DELETE', `${base}/${batchId}/rows/${line}`, who.token),
    unschedule: (batchId: string) => call(app, 'POST', `${base}/${batchId}/unschedule`, who.token, {}),
    discard: (batchId: string) => call(app, 'DELETE', `${base}/${batchId}`, who.token),
    errorsCsv: (batchId: string) => call(app, 'GET', `${base}/${batchId}/errors.csv`, who.token),
    list: (query = '') => call(app, 'GET', `${base}${query}`, who.token),

    submit: (batchId: string, body: Record<string, unknown> = { mode: 'send' }, key?: string) =>
      call(app, 'POST', `${base}/${batchId}/submit`, who.token, body, key ? { 'idempotency-key': key } : {}),

    /** Submits (202) and waits until the batch is done. */
    async sent(batchId: string, body: Record<string, unknown> = { mode: 'send' }): Promise<Batch> {
      const res = await api.submit(batchId, body, `send-${batchId}`);
      expect(res.statusCode, res.body).toBe(202);
      return api.until(batchId, (b) => b.phase === 'done');
    },
  };
  return api;
}

export type BatchesApi = ReturnType<typeof batchesApi>;

/** The batches of a business in the database (what an upload that is refused must leave alone). */
export async function batchCount(db: Kysely<DB>, businessId?: string): Promise<number> {
  let q = db.selectFrom('batches').select((eb) => eb.fn.countAll<string>().as('n'));
  if (businessId) q = q.where('business_id', '=', businessId);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

/** The requests a batch made, straight from `payment_requests`. */
export async function requestsOfBatch(db: Kysely<DB>, businessId: string, batchId: string) {
  return db
    .selectFrom('payment_requests')
    .select(['id', 'number', 'payer_id', 'payer_email', 'amount_cents', 'reference', 'state', 'send_at', 'sent_at', 'channel', 'allow_partial'])
    .where('business_id', '=', businessId)
    .where('batch_id', '=', batchId)
    .orderBy('number')
    .execute();
}

/** The lines of a CSV text (CRLF or LF), the last empty one left out. */
export function csvLines(text: string): string[] {
  return text.split(/\r\n|\n/).filter((line, i, all) => !(i === all.length - 1 && line === ''));
}

/** A date as the file's author may write it: `12/31/2026` or `Dec 31, 2026`. */
export function usDate(iso: string): string {
  const [y, m, d] = iso.split('-');
  return `${m}/${d}/${y}`;
}

export function longDate(iso: string): string {
  const date = new Date(`${iso}T12:00:00Z`);
  return date.toLocaleString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
}
