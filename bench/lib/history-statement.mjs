// The statement the history page's list runs, taken from the API's own code (list-requests.ts, over the history engine):
// the list is built with a query builder that only ever sees the business, the session token and
// the time as parameters, so one compile gives the text and where each value goes.
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import { tsImport } from 'tsx/esm/api';

const BUSINESS = '\u0000business';
const TOKEN = '\u0000token';

/**
 * `{ text, params, page, pageSize }` for the list at `search` (a query string such as
 * `page=1&pageSize=25`): each of `params` is `{ business: true }`, `{ token: true }`, `{ now: true }`
 * (the time of the request) or `{ value }`. Throws unless the page is one statement.
 */
export async function historyStatement(search) {
  const { listRequests } = await tsImport('../../apps/api/src/domain/payment-requests/list-requests.ts', import.meta.url);
  const { RequestListQuery } = await tsImport('../../packages/contract/src/index.ts', import.meta.url);
  const query = RequestListQuery.parse(Object.fromEntries(new URLSearchParams(search)));
  const kysely = new Kysely({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
  const ran = [];
  // Builds as the server does; instead of running the statement, keeps it and answers as a member would.
  const db = new Proxy(kysely, {
    get(target, key) {
      if (key === 'executeQuery') {
        return async (compiled) => {
          ran.push(compiled);
          return { rows: [{ signed_in: true, must_change: false, member: true, total: '0', count: '0', items: '[]' }] };
        };
      }
      const value = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  await listRequests({ db, businessId: BUSINESS, sessionToken: TOKEN, query });
  if (ran.length !== 1) throw new Error(`The history page at ?${search} ran ${ran.length} statements, not one`);
  const [{ sql: text, parameters }] = ran;
  const params = parameters.map((value) => {
    if (value === BUSINESS) return { business: true };
    if (value === TOKEN) return { token: true };
    if (value instanceof Date) return { now: true };
    return { value };
  });
  return { text, params, page: query.page, pageSize: query.pageSize };
}
