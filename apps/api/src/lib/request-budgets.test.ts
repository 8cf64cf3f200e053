import { describe, expect, it } from 'vitest';
import { RequestBudgets, type BudgetCount, type BudgetTotal } from './request-budgets';

const rule = { max: 3, windowSeconds: 60 };

/** A stand-in for `request_budgets`: fixed windows per key, on a clock the test moves. */
function fakeDatabase(clock: { now: number }) {
  const rows = new Map<string, { count: number; endsAt: number }>();
  const added: BudgetCount[][] = [];
  return {
    rows,
    added,
    failing: false,
    async add(counts: BudgetCount[]): Promise<BudgetTotal[]> {
      if (this.failing) throw new Error('database down');
      added.push(counts);
      return counts.map(({ key, count, windowSeconds }) => {
        const row = rows.get(key);
        const next = !row || row.endsAt <= clock.now ? { count, endsAt: clock.now + windowSeconds * 1000 } : { count: row.count + count, endsAt: row.endsAt };
        rows.set(key, next);
        return { key, count: next.count, msLeft: next.endsAt - clock.now };
      });
    },
  };
}

function setUp(options: { kept?: number } = {}) {
  const clock = { now: 1_000_000 };
  const database = fakeDatabase(clock);
  const budgets = new RequestBudgets((counts) => database.add(counts), { now: () => clock.now, flushEveryMs: 60_000, ...options });
  return { clock, database, budgets };
}

describe('RequestBudgets', () => {
  it('decides each call at once, exactly, and adds them to the database in one statement per flush', async () => {
    const { database, budgets } = setUp();
    expect([1, 2, 3, 4].map(() => budgets.take('session:a', rule).allowed)).toEqual([true, true, true, false]);
    expect(budgets.take('address:1.2.3.4', rule).allowed).toBe(true);
    expect(database.added).toEqual([]);
    await budgets.flush();
    expect(database.added).toEqual([
      [
        { key: 'session:a', count: 3, windowSeconds: 60 },
        { key: 'address:1.2.3.4', count: 1, windowSeconds: 60 },
      ],
    ]);
    await budgets.close();
  });

  it("refuses once the database says the other replicas' calls spent the budget, until the window ends", async () => {
    const { clock, database, budgets } = setUp();
    database.rows.set('session:a', { count: 2, endsAt: clock.now + 30_000 }); // another replica's
    expect(budgets.take('session:a', rule).allowed).toBe(true);
    await budgets.flush();
    expect(database.rows.get('session:a')!.count).toBe(3);
    expect(budgets.take('session:a', rule)).toEqual({ allowed: false, retryAfterSeconds: 30 });
    clock.now += 30_000;
    expect(budgets.take('session:a', rule).allowed).toBe(true);
    await budgets.flush();
    expect(database.rows.get('session:a')).toEqual({ count: 1, endsAt: clock.now + 60_000 });
    await budgets.close();
  });

  it('keeps counting what the database could not take, and adds it later', async () => {
    const { database, budgets } = setUp();
    database.failing = true;
    budgets.take('session:a', rule);
    budgets.take('session:a', rule);
    await budgets.flush();
    expect(budgets.take('session:a', rule).allowed).toBe(true);
    expect(budgets.take('session:a', rule).allowed).toBe(false);
    database.failing = false;
    await budgets.flush();
    expect(database.rows.get('session:a')!.count).toBe(3);
    await budgets.close();
  });

  it('keeps at most so many budgets in mind, forgetting idle ones first', async () => {
    const { budgets } = setUp({ kept: 2 });
    budgets.take('a', rule);
    budgets.take('b', rule);
    await budgets.flush();
    budgets.take('c', rule);
    expect(budgets.size).toBe(2);
    await budgets.close();
  });
});
