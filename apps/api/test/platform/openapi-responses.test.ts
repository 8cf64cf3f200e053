import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvedBusiness, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { requestsApi } from '../support/requests';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * The OpenAPI document lists every answer a route gives, so a client generated from it knows
 * them: the files' media types, and the error statuses of the routes that lacked them.
 */
interface Operation {
  parameters?: unknown[];
  requestBody?: unknown;
  responses: Record<string, { content?: Record<string, { schema: { type?: string; format?: string; properties?: Record<string, unknown> } }> }>;
}
type Doc = { paths: Record<string, Record<string, Operation>> };

let t: TestApp;
let doc: Doc;
let biz: ApprovedBusiness;
beforeAll(async () => {
  t = await createTestApp({ SANDBOX_AUTO_APPROVE: 'false' });
  doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as Doc;
  biz = await approvedBusiness(t.app, t.runtime.database.db, 'openapi-owner@example.com');
});
afterAll(async () => t?.close());

const operation = (method: string, path: string): Operation => {
  const op = doc.paths[path]?.[method];
  if (!op) throw new Error(`${method.toUpperCase()} ${path} is not in the document`);
  return op;
};
const codes = (method: string, path: string) => Object.keys(operation(method, path).responses);

describe('the OpenAPI document', () => {
  it.each([
    ['get', '/api/businesses/{id}/logo', ['200', '400', '404']],
    ['get', '/api/businesses/{id}/payment-requests/{requestId}/receipt.pdf', ['200', '400', '401', '403', '404']],
    ['get', '/api/businesses/{id}/payment-requests/export.csv', ['200', '400', '401', '403', '404']],
    ['get', '/api/businesses/{id}/payers/export.csv', ['200', '400', '401', '403', '404']],
    ['post', '/api/auth/complete-new-password', ['200', '400', '401', '409', '429']],
    ['get', '/sandbox-processor/v1/charges/{id}', ['200', '400', '401', '404']],
  ])('lists the answers of %s %s', (method, path, expected) => {
    expect(codes(method, path)).toEqual(expect.arrayContaining(expected));
  });

  it('names the media type of the routes that answer with a file', () => {
    const media = (method: string, path: string) => operation(method, path).responses['200']?.content ?? {};
    expect(media('get', '/api/businesses/{id}/payment-requests/{requestId}/receipt.pdf')).toEqual({
      'application/pdf': { schema: { type: 'string', format: 'binary' } },
    });
    expect(Object.keys(media('get', '/api/businesses/{id}/payment-requests/export.csv'))).toEqual(['text/csv']);
    expect(Object.keys(media('get', '/api/businesses/{id}/payers/export.csv'))).toEqual(['text/csv']);
    expect(Object.keys(media('get', '/api/businesses/{id}/logo'))).toEqual(['image/png', 'image/jpeg', 'image/webp', 'image/svg+xml']);
  });

  it('lists 400 for every route that takes parameters or a body, each error in the one error shape', () => {
    const missing: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        if ((op.parameters?.length || op.requestBody) && !op.responses['400']) missing.push(`${method.toUpperCase()} ${path}`);
        for (const [code, response] of Object.entries(op.responses)) {
          if (Number(code) < 400) continue;
          const properties = response.content?.['application/json']?.schema.properties ?? {};
          expect(Object.keys(properties), `${method.toUpperCase()} ${path} ${code}`).toEqual(['status', 'errorDetails']);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});

describe('what the routes answer is what the document lists', () => {
  const listed = async (method: string, path: string, url: string, headers: Record<string, string> = {}, payload?: unknown) => {
    const res = await t.app.inject({
      method: method.toUpperCase() as 'GET' | 'POST',
      url,
      headers: { ...headers, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    });
    expect(codes(method, path), `${url} answered ${res.statusCode}: ${res.body}`).toContain(String(res.statusCode));
    return res.statusCode;
  };
  const auth = () => ({ authorization: `Bearer ${biz.token}` });

  it('for the logo, the receipt, the exports, the new password and the sandbox charges', async () => {
    const base = `/api/businesses/${biz.businessId}`;
    expect(await listed('get', '/api/businesses/{id}/logo', `${base}/logo`)).toBe(404);
    expect(await listed('get', '/api/businesses/{id}/logo', `/api/businesses/${'x'.repeat(65)}/logo`)).toBe(400);

    const payerId = await insertPayer(t.runtime.database.db, biz.businessId);
    const draft = await requestsApi(t.app, biz).create(payerId);
    const pdf = '/api/businesses/{id}/payment-requests/{requestId}/receipt.pdf';
    expect(await listed('get', pdf, `${base}/payment-requests/${draft.transactionId}/receipt.pdf`, auth())).toBe(404);
    expect(await listed('get', pdf, `${base}/payment-requests/${'x'.repeat(65)}/receipt.pdf`, auth())).toBe(400);
    expect(await listed('get', pdf, `${base}/payment-requests/${draft.transactionId}/receipt.pdf`)).toBe(401);

    expect(
      await listed('get', '/api/businesses/{id}/payment-requests/export.csv', `${base}/payment-requests/export.csv?from=2026-02-01&to=2026-01-01`, auth()),
    ).toBe(400);
    expect(await listed('get', '/api/businesses/{id}/payers/export.csv', `${base}/payers/export.csv?pageSize=0`, auth())).toBe(400);
    expect(await listed('get', '/api/businesses/{id}/payers/export.csv', `/api/businesses/biz_someone_else/payers/export.csv`, auth())).toBe(404);
    // A path parameter longer than the server reads at all: 414, listed for every route with parameters.
    expect(await listed('get', '/api/businesses/{id}/payers/export.csv', `/api/businesses/${'x'.repeat(150)}/payers/export.csv`, auth())).toBe(414);
    expect(await listed('get', pdf, `${base}/payment-requests/${'x'.repeat(150)}/receipt.pdf`, auth())).toBe(414);

    const newPassword = '/api/auth/complete-new-password';
    expect(await listed('post', newPassword, newPassword, auth(), { newPassword: '' })).toBe(400);
    expect(await listed('post', newPassword, newPassword, {}, { newPassword: 'My-Own-Secret-3' })).toBe(401);
    expect(await listed('post', newPassword, newPassword, auth(), { newPassword: 'My-Own-Secret-3' })).toBe(409);

    const secret = { authorization: `Bearer ${t.runtime.config.processor.secretKey}` };
    expect(await listed('get', '/sandbox-processor/v1/charges/{id}', `/sandbox-processor/v1/charges/${'x'.repeat(65)}`, secret)).toBe(400);
    expect(await listed('get', '/sandbox-processor/v1/charges/{id}', '/sandbox-processor/v1/charges/ch_none', secret)).toBe(404);
  });
});
