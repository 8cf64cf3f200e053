// The baseline of `npm run bench -- requests`: Fastify and a pg pool running the very statement
// Tay's history list runs (BARE_STATEMENT, from bench/lib/history-statement.mjs), as a named
// prepared statement like Tay's, for the business in the path and the bearer token, and sending
// the page as Tay writes it. No validation, signature check, logging, rate limit or security headers.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import pg from 'pg';

const statement = JSON.parse(readFileSync(process.env.BARE_STATEMENT, 'utf8'));
const name = `k_${createHash('sha1').update(statement.text).digest('hex').slice(0, 20)}`;
const pool = new pg.Pool({ ...JSON.parse(process.env.BARE_DATABASE), max: Number(process.env.DATABASE_POOL_MAX ?? 10) });
pool.on('error', () => {});

const app = Fastify({ logger: false });
app.get('/api/businesses/:id/payment-requests', async (request, reply) => {
  // The session token of better-auth's signed bearer `<token>.<signature>`, its signature unchecked.
  const token = decodeURIComponent((request.headers.authorization ?? '').replace(/^Bearer /i, '')).split('.')[0];
  const values = statement.params.map((p) => (p.business ? request.params.id : p.token ? token : p.now ? new Date() : p.value));
  const {
    rows: [row],
  } = await pool.query({ name, text: statement.text, values });
  if (!row?.member) return reply.code(404).send({ status: 'Error', errorDetails: { code: 'NOT_FOUND', message: 'Business not found.' } });
  return reply
    .type('application/json; charset=utf-8')
    .send(`{"status":"Success","data":{"items":${row.items},"page":${statement.page},"pageSize":${statement.pageSize},"total":${Number(row.total ?? 0)}}}`);
});
app.get('/bare/ready', async () => {
  await pool.query('SELECT 1');
  return { status: 'ok' };
});
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on(
  'SIGTERM',
  () =>
    void app
      .close()
      .then(() => pool.end())
      .then(() => process.exit(0)),
);
