import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvedBusiness, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { errorOf, get } from '../support/identity';
import { createTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
let biz: ApprovedBusiness;
const db = () => t.runtime.database.db;

beforeAll(async () => {
  t = await createTestApp();
  biz = await approvedBusiness(t.app, db(), 'owner@payer-filter.example');
  await insertPayer(db(), biz.businessId, { displayName: 'Dana Active', email: 'dana@payers.example' });
  await insertPayer(db(), biz.businessId, { displayName: 'Dario Gone', email: 'dario@payers.example', status: 'Disabled' });
});
afterAll(async () => t?.close());

const search = (extra = '') => get(t.app, `/api/directory/payers/beginsWith?businessId=${biz.businessId}&q=da${extra}`, biz.token);
const names = (res: Awaited<ReturnType<typeof search>>) =>
  (res.json().data as { displayName: string; status?: string }[]).map((p) => [p.displayName, p.status]);

describe('the payer typeahead for the transactions filter', () => {
  it('finds only active payers by default, as the request form needs', async () => {
    expect(names(await search())).toEqual([['Dana Active', undefined]]);
    expect(names(await search('&includeDisabled=false'))).toEqual([['Dana Active', undefined]]);
  });

  it('with includeDisabled=true also finds deactivated payers, each with its status', async () => {
    expect(names(await search('&includeDisabled=true'))).toEqual([
      ['Dana Active', 'active'],
      ['Dario Gone', 'Disabled'],
    ]);
  });

  it('refuses a value that is not true or false', async () => {
    const res = await search('&includeDisabled=sometimes');
    expect(res.statusCode).toBe(400);
    expect(Object.keys(errorOf(res).fields ?? {})).toContain('includeDisabled');
  });

  it('is documented in the OpenAPI description', async () => {
    const doc = (await get(t.app, '/api/docs/json')).json() as { paths: Record<string, { get: { parameters: { name: string }[] } }> };
    expect(doc.paths['/api/directory/payers/beginsWith']!.get.parameters.map((p) => p.name)).toContain('includeDisabled');
  });
});
