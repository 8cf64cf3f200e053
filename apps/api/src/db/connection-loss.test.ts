import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { isConnectionLoss, mayRetry, SteadyPool, transactionAfter } from './connection-loss';

const withCode = (code: string, extra: object = {}) => Object.assign(new Error(code), { code, ...extra });

describe('isConnectionLoss', () => {
  it('knows a connection that went away or could not be made', () => {
    expect(isConnectionLoss(withCode('ECONNRESET', { syscall: 'read' }))).toBe(true);
    expect(isConnectionLoss(withCode('ECONNREFUSED', { syscall: 'connect' }))).toBe(true);
    expect(isConnectionLoss(withCode('ENOENT', { syscall: 'connect' }))).toBe(true);
    expect(isConnectionLoss(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isConnectionLoss(new Error('Client has encountered a connection error and is not queryable'))).toBe(true);
    expect(isConnectionLoss(withCode('57P01'))).toBe(true);
    expect(isConnectionLoss(withCode('08006'))).toBe(true);
    expect(isConnectionLoss(new Error('wrapped', { cause: withCode('EPIPE') }))).toBe(true);
  });

  it('leaves every other failure alone: a statement’s error, a missing file', () => {
    expect(isConnectionLoss(withCode('23505'))).toBe(false);
    expect(isConnectionLoss(withCode('40001'))).toBe(false);
    expect(isConnectionLoss(withCode('ENOENT', { syscall: 'open' }))).toBe(false);
    expect(isConnectionLoss(new Error('relation "x" does not exist'))).toBe(false);
    expect(isConnectionLoss(null)).toBe(false);
  });
});

describe('which statements go again on a new connection', () => {
  it('reads outside a transaction only', () => {
    expect(mayRetry('select * from payers', false)).toBe(true);
    expect(mayRetry('  SELECT 1', false)).toBe(true);
    expect(mayRetry('select * from payers', true)).toBe(false);
    expect(mayRetry('insert into payers values ($1)', false)).toBe(false);
    expect(mayRetry('with x as (delete from payers returning *) select * from x', false)).toBe(false);
    expect(mayRetry('with page as (select id from payers) select * from page', false)).toBe(true);
    expect(mayRetry('select * from payers for update', false)).toBe(false);
    expect(mayRetry('select updated_at, deleted_at from payers', false)).toBe(true);
    expect(mayRetry('select case state when \'Draft\' then \'["Edit","Delete"]\' end from payment_requests', false)).toBe(true);
  });

  it('follows begin and commit, and a rollback to a savepoint stays inside', () => {
    let inside = transactionAfter('begin', false);
    expect(inside).toBe(true);
    inside = transactionAfter('savepoint a', inside);
    inside = transactionAfter('rollback to savepoint a', inside);
    expect(inside).toBe(true);
    expect(transactionAfter('commit', inside)).toBe(false);
    expect(transactionAfter('rollback', inside)).toBe(false);
    expect(transactionAfter('start transaction isolation level serializable', false)).toBe(true);
  });
});

/** A server that speaks no PostgreSQL: it resets every connection it takes, or takes none. */
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});
async function resetting(): Promise<number> {
  const server = createServer((socket: Socket) => socket.resetAndDestroy());
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as { port: number }).port;
}

describe('SteadyPool', () => {
  it('tries a refused connection again for a while, then fails with the loss', async () => {
    const port = await resetting();
    const pool = new SteadyPool({ host: '127.0.0.1', port, user: 'x', database: 'x' });
    const started = Date.now();
    const error = await pool.connect().catch((e: unknown) => e);
    expect(isConnectionLoss(error)).toBe(true);
    expect(Date.now() - started).toBeGreaterThan(3000);
    await pool.end();
  });

  it('answers pool.query with the loss, never an unhandled error event', async () => {
    const port = await resetting();
    const pool = new SteadyPool({ host: '127.0.0.1', port, user: 'x', database: 'x' });
    await expect(pool.query('SELECT 1')).rejects.toSatisfy(isConnectionLoss);
    await pool.end();
  });
});
