// PostgreSQL pass: the history's search, which is the database's text matching.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvedBusiness, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { get } from '../support/identity';
import { createTestApp, type TestApp } from '../support/test-app';

// A search is read as three index-only branches (name, else e-mail, else TRX number; ADR 010).
// Whatever the branches, each match must be counted and listed once, exactly as a plain OR gives.

let t: TestApp;
const db = () => t.runtime.database.db;
let biz: ApprovedBusiness;
const ROWS = 3_000;

beforeAll(async () => {
  t = await createTestApp();
  biz = await approvedBusiness(t.app, db(), 'owner@search.example');
  const other = await approvedBusiness(t.app, db(), 'owner@search-other.example');
  // Payers whose names and e-mails overlap on purpose: "Casey …" by name, "casey…@" by e-mail
  // with another name, both at once, and a company named like a TRX number.
  const payers: { name: string; email: string }[] = [
    { name: 'Casey Jones', email: 'cj@payers.example' },
    { name: 'Morgan Lee', email: 'casey.lee@payers.example' },
    { name: 'Casey Quinn', email: 'casey.quinn@payers.example' },
    { name: '70042 Holdings', email: 'ap@holdings.example' },
    { name: 'Avery Stone', email: 'avery@payers.example' },
    { name: 'Émile Zoë', email: 'emile@payers.example' },
  ];
  for (const b of [biz, other]) {
    const ids: string[] = [];
    for (const payer of payers) ids.push(await insertPayer(db(), b.businessId, { email: payer.email, displayName: payer.name }));
    await sql`
      INSERT INTO payment_requests (business_id, id, number, payer_id, payer_display_name, payer_email, amount_cents, due_date, expires_on, state, created_at)
      SELECT ${b.businessId}, 'req_search_' || ${b.businessId} || '_' || lpad(g::text, 5, '0'), 70000 + g,
             (${ids}::text[])[1 + g % 6], (${payers.map((p) => p.name)}::text[])[1 + g % 6], (${payers.map((p) => p.email)}::text[])[1 + g % 6],
             1000 + (g * 7919) % 90000, current_date + (g % 40), current_date + 60,
             CASE WHEN g % 9 = 1 THEN 'Draft' WHEN g % 4 = 0 THEN 'Paid' WHEN g % 11 = 0 THEN 'Expired' ELSE 'Sent' END,
             timestamptz '2026-03-01' + make_interval(mins => (g * 37) % 2000)
      FROM generate_series(1, ${ROWS}) g`.execute(db());
  }
});
afterAll(async () => t?.close());

const COLUMN = { createdAt: 'created_at', amount: 'amount_cents', dueDate: 'due_date', payer: 'payer_display_name', reference: 'number' } as const;

/** What a plain OR over every row gives: the ground truth. */
async function truth(
  search: string,
  number: number | null,
  sortBy: keyof typeof COLUMN,
  direction: 'asc' | 'desc',
  status: string[],
  page: number,
  pageSize: number,
  view: 'history' | 'draft' = 'history',
) {
  const col = sql.ref(COLUMN[sortBy]);
  const dir = sql.raw(direction);
  const where = sql`business_id = ${biz.businessId} AND (state = 'Draft') = ${view === 'draft'} AND (${status.length === 0} OR state = ANY(${status}::text[]))
    AND (starts_with(lower(payer_display_name), lower(${search})) OR starts_with(payer_email, lower(${search})) OR number = ${number ?? -1})`;
  const { rows } = await sql<{
    id: string;
  }>`SELECT id FROM payment_requests WHERE ${where} ORDER BY ${col} ${dir}, id ${dir} OFFSET ${(page - 1) * pageSize} LIMIT ${pageSize}`.execute(db());
  const total = await sql<{ n: string }>`SELECT count(*) AS n FROM payment_requests WHERE ${where}`.execute(db());
  return { ids: rows.map((r) => r.id), total: Number(total.rows[0]!.n) };
}

/** The kept per-name counts (migration 0017), recounted from the rows themselves. */
async function expectSearchCountsTrue() {
  const { rows } = await sql<{ kept: string; counted: string }>`
    SELECT
      (SELECT string_agg(business_id || ':' || name_key || ':' || payer_email || ':' || state || ':' || n, ',') FROM payment_request_search_counts WHERE n <> 0) AS kept,
      (SELECT string_agg(k, ',') FROM (
         SELECT business_id || ':' || lower(payer_display_name) || ':' || payer_email || ':' || state || ':' || count(*) AS k
         FROM payment_requests GROUP BY business_id, lower(payer_display_name), payer_email, state) c) AS counted`.execute(db());
  const sorted = (s: string) => s.split(',').sort();
  expect(rows[0]!.kept.length).toBeGreaterThan(0);
  expect(sorted(rows[0]!.kept)).toEqual(sorted(rows[0]!.counted));
  const negative = await sql<{ n: string }>`SELECT count(*) AS n FROM payment_request_search_counts WHERE n < 0`.execute(db());
  expect(Number(negative.rows[0]!.n)).toBe(0);
}

async function listed(query: string) {
  const res = await get(t.app, `/api/businesses/${biz.businessId}/payment-requests?${query}`, biz.token);
  expect(res.statusCode, res.body).toBe(200);
  const data = res.json().data as { items: { transactionId: string }[]; total: number };
  return { ids: data.items.map((i) => i.transactionId), total: data.total };
}

describe('search over a long history', () => {
  it('counts and lists each match once, by name, e-mail or TRX number, in every order', async () => {
    await expectEveryCase([
      ['createdAt', 'desc'],
      ['createdAt', 'asc'],
      ['amount', 'asc'],
      ['payer', 'desc'],
      ['reference', 'asc'],
    ]);
  });

  it('keeps its counts exact as requests change state, payer, name and e-mail, are deleted and arrive', async () => {
    await expectSearchCountsTrue();
    const b = biz.businessId;
    await sql`UPDATE payment_requests SET state = 'Withdrawn' WHERE business_id = ${b} AND state = 'Sent' AND amount_cents % 5 = 0`.execute(db());
    await sql`UPDATE payment_requests SET payer_display_name = 'Casey Jonas' WHERE business_id = ${b} AND payer_display_name = 'Casey Jones' AND amount_cents % 3 = 0`.execute(
      db(),
    );
    await sql`UPDATE payment_requests SET payer_email = 'casey.stone@payers.example' WHERE business_id = ${b} AND payer_display_name = 'Avery Stone' AND amount_cents % 2 = 0`.execute(
      db(),
    );
    await sql`DELETE FROM payment_requests WHERE business_id = ${b} AND state = 'Draft' AND amount_cents % 7 = 0`.execute(db());
    await sql`UPDATE payment_requests SET state = 'Sent' WHERE business_id = ${b} AND state = 'Draft' AND amount_cents % 2 = 0`.execute(db());
    await sql`
      INSERT INTO payment_requests (business_id, id, number, payer_id, payer_display_name, payer_email, amount_cents, due_date, expires_on, state, created_at)
      SELECT business_id, id || '_again', number + 100000, payer_id, payer_display_name, payer_email, amount_cents, due_date, expires_on, 'Sent', created_at + interval '1 second'
      FROM payment_requests WHERE business_id = ${b} AND number % 10 = 3`.execute(db());
    // An update that moves nothing between counts changes no count.
    await sql`UPDATE payment_requests SET memo = 'touched' WHERE business_id = ${b} AND amount_cents < 5000`.execute(db());
    await expectSearchCountsTrue();
    await expectEveryCase([
      ['createdAt', 'desc'],
      ['createdAt', 'asc'],
    ]);
    for (const search of ['casey', 'casey j', 'casey.s', 'avery']) {
      const query = `search=${encodeURIComponent(search)}&view=draft&pageSize=20`;
      const first = await truth(search, null, 'createdAt', 'desc', [], 1, 20, 'draft');
      expect(await listed(`${query}&page=1`), `${search} drafts`).toEqual(first);
      const last = Math.max(1, Math.ceil(first.total / 20));
      expect((await listed(`${query}&page=${last}`)).ids, `${search} drafts page ${last}`).toEqual(
        (await truth(search, null, 'createdAt', 'desc', [], last, 20, 'draft')).ids,
      );
    }
  });

  it('reads a page "after" a row deleted meanwhile by its number instead', async () => {
    const query = 'search=casey&pageSize=30';
    const second = await listed(`${query}&page=2`);
    const anchor = second.ids.at(-1)!;
    await sql`DELETE FROM payment_requests WHERE business_id = ${biz.businessId} AND id = ${anchor}`.execute(db());
    const third = await listed(`${query}&page=3&after=${anchor}`);
    expect(third).toEqual(await truth('casey', null, 'createdAt', 'desc', [], 3, 30));
  });

  async function expectEveryCase(orders: (readonly [keyof typeof COLUMN, 'asc' | 'desc'])[]) {
    const cases: [string, number | null][] = [
      ['casey', null], // by name (Casey Jones, Casey Quinn) and by e-mail only (Morgan Lee), Casey Quinn both ways
      ['CASEY.Q', null], // e-mail and name disagree in case: e-mail only
      ['70042', 70042], // a company named like a number, and request TRX-70042 itself
      ['TRX-70010', 70010], // a number alone
      ['zz', null], // nothing
      ['ÉMILE z', null], // beyond ASCII, in another case than stored
      ['émile', null],
    ];
    for (const [search, number] of cases) {
      for (const [sortBy, direction] of orders) {
        for (const status of [[], ['Paid', 'Expired']]) {
          const pageSize = 50;
          const first = await truth(search, number, sortBy, direction, status, 1, pageSize);
          const query = `search=${encodeURIComponent(search)}&sortBy=${sortBy}&sortDirection=${direction}&pageSize=${pageSize}${status.length ? `&status=${status.join(',')}` : ''}`;
          const label = `${search} by ${sortBy} ${direction} ${status.join(',')}`;
          const got = await listed(`${query}&page=1`);
          expect(got, label).toEqual(first);
          // A page deep in the matches by number, and the next page by keyset from it.
          const deep = Math.max(1, Math.ceil(first.total / pageSize) - 1);
          const byNumber = await listed(`${query}&page=${deep}`);
          expect(byNumber.ids, `${label} page ${deep}`).toEqual((await truth(search, number, sortBy, direction, status, deep, pageSize)).ids);
          if (byNumber.ids.length === pageSize) {
            const next = await listed(`${query}&page=${deep + 1}&after=${byNumber.ids.at(-1)}`);
            expect(next.ids, `${label} page ${deep + 1} by keyset`).toEqual((await truth(search, number, sortBy, direction, status, deep + 1, pageSize)).ids);
          }
        }
      }
    }
  }

  it('refuses control characters in the search text, naming the field', async () => {
    const res = await get(t.app, `/api/businesses/${biz.businessId}/payment-requests?search=${encodeURIComponent('casey\u0007')}`, biz.token);
    expect(res.statusCode).toBe(400);
    expect(res.json().errorDetails.fields.search).toBe('Search text cannot contain control characters.');
  });

  it('bounds exactly the texts that begin with a prefix, byte by byte as the prefix indexes compare', async () => {
    const { rows } = await sql<{ wrong: number; pairs: number }>`
      WITH a(c) AS (VALUES ('a'), ('z'), ('{'), ('0'), (' '), ('é'), ('ÿ'), ('Ā'), (chr(55295)), (chr(57344)), (chr(65535)), (chr(65536)), (chr(128512)), (chr(1114111))),
           texts AS (SELECT x.c || y.c || coalesce(z.c, '') AS t FROM a x, a y, (SELECT c FROM a UNION ALL SELECT NULL) z),
           prefixes AS (SELECT x.c || y.c AS p FROM a x, a y)
      SELECT count(*) FILTER (WHERE (t ~>=~ p AND t ~<~ text_prefix_successor(p)) IS DISTINCT FROM starts_with(t, p))::int AS wrong, count(*)::int AS pairs
      FROM texts, prefixes`.execute(db());
    expect(rows[0]!.pairs).toBeGreaterThan(40_000);
    expect(rows[0]!.wrong).toBe(0);
    const edge = await sql<{
      a: string;
      b: string;
      c: string;
    }>`SELECT text_prefix_successor('casey') AS a, text_prefix_successor('a' || chr(55295)) AS b, text_prefix_successor('az' || chr(1114111)) AS c`.execute(
      db(),
    );
    expect(edge.rows[0]).toEqual({ a: 'casez', b: 'a\uE000', c: 'a{' });
  });

  it("never counts another business's matches", async () => {
    const { total } = await listed('search=casey');
    const own = await truth('casey', null, 'createdAt', 'desc', [], 1, 1);
    expect(total).toBe(own.total);
    expect(total).toBeGreaterThan(0);
  });
});
