import { sql } from 'kysely';
import type { Executor } from '../db/executor';
import type { RateRule } from './rate-limiter';

/** What a flush adds to one budget, and what the database then holds for it. */
export interface BudgetCount {
  key: string;
  count: number;
  windowSeconds: number;
}
export interface BudgetTotal {
  key: string;
  /** Every replica's calls in the current window. */
  count: number;
  /** Milliseconds until that window ends. */
  msLeft: number;
}

/**
 * Adds each key's calls to its budget in `request_budgets`, in one statement, and answers the
 * totals of every replica: a fixed window per key that starts with its first counted call. The
 * table is UNLOGGED (migration 0050): a crash of the database only starts every budget again.
 */
export async function addToRequestBudgets(db: Executor, counts: readonly BudgetCount[]): Promise<BudgetTotal[]> {
  if (counts.length === 0) return [];
  const { rows } = await sql<{ key: string; count: number; ms_left: number }>`
    INSERT INTO request_budgets (key, count, window_ends_at)
    SELECT t.key, t.count, now() + make_interval(secs => t.window_seconds)
    FROM unnest(${counts.map((c) => c.key)}::text[], ${counts.map((c) => c.count)}::int[], ${counts.map((c) => c.windowSeconds)}::int[])
      AS t (key, count, window_seconds)
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN request_budgets.window_ends_at <= now() THEN EXCLUDED.count ELSE request_budgets.count + EXCLUDED.count END,
      window_ends_at = CASE WHEN request_budgets.window_ends_at <= now() THEN EXCLUDED.window_ends_at
                            ELSE request_budgets.window_ends_at END
    RETURNING key, count, greatest(0, ceil(extract(epoch FROM window_ends_at - now()) * 1000))::int AS ms_left`.execute(db);
  return rows.map((r) => ({ key: r.key, count: r.count, msLeft: r.ms_left }));
}

export interface BudgetDecision {
  allowed: boolean;
  /** When refused: seconds until the window ends. */
  retryAfterSeconds: number;
}

interface Budget {
  rule: RateRule;
  /** Every replica's calls, as the database last answered. */
  known: number;
  /** Calls taken here and being added by the flush under way. */
  flushing: number;
  /** Calls taken here since. */
  pending: number;
  /** When the window ends (this process's clock). */
  endsAt: number;
}

/** How often a process adds the calls it counted to the shared budgets. */
export const FLUSH_EVERY_MS = 250;
/** How often budgets whose window ended are forgotten. */
const SWEEP_EVERY_MS = 5_000;
/** How many budgets a process keeps in mind; the oldest idle one goes first when full. */
export const BUDGETS_KEPT = 100_000;

/**
 * The request budgets of one process, shared with every other through the database (ADR 044):
 * a call is decided here, at once, against every replica's count as the database last answered
 * plus the calls taken here since; every {@link FLUSH_EVERY_MS} the calls taken are added to the
 * database in one statement, whose answer is every replica's new count. So an API call costs no
 * round trip, and the database sees one write per process and quarter second, however many calls.
 * The price: calls spread over several replicas may pass a spent budget by what each takes
 * between two flushes; one process alone counts exactly.
 */
export class RequestBudgets {
  private readonly budgets = new Map<string, Budget>();
  /** The keys with calls not yet added. */
  private readonly dirty = new Set<string>();
  private sweptAt = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly add: (counts: BudgetCount[]) => Promise<BudgetTotal[]>,
    private readonly options: { flushEveryMs?: number; kept?: number; onError?: (error: unknown) => void; now?: () => number } = {},
  ) {}

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  /** Counts one call against `key`, or refuses it when the budget is spent. */
  take(key: string, rule: RateRule): BudgetDecision {
    const now = this.now();
    let budget = this.budgets.get(key);
    if (budget && budget.endsAt <= now) {
      // The window ended: what the database knew belongs to it; calls not yet added go to the next.
      budget.known = 0;
      budget.endsAt = now + rule.windowSeconds * 1000;
    }
    if (!budget) {
      this.makeRoom();
      budget = { rule, known: 0, flushing: 0, pending: 0, endsAt: now + rule.windowSeconds * 1000 };
      this.budgets.set(key, budget);
    }
    if (budget.known + budget.flushing + budget.pending >= rule.max) {
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((budget.endsAt - now) / 1000)) };
    }
    budget.pending++;
    this.dirty.add(key);
    this.schedule();
    return { allowed: true, retryAfterSeconds: 0 };
  }

  /** Adds what was counted here to the database now (the timer does it by itself). */
  async flush(): Promise<void> {
    while (this.running) await this.running;
    this.running = this.flushOnce().finally(() => {
      this.running = null;
    });
    await this.running;
  }

  /** Stops the timer after adding what is left. */
  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.flush();
  }

  /** Budgets kept in mind (for tests). */
  get size(): number {
    return this.budgets.size;
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush().catch(() => {});
    }, this.options.flushEveryMs ?? FLUSH_EVERY_MS);
    this.timer.unref();
  }

  private async flushOnce(): Promise<void> {
    const batch: BudgetCount[] = [];
    for (const key of this.dirty) {
      const budget = this.budgets.get(key);
      if (!budget || budget.pending === 0) continue;
      budget.flushing = budget.pending;
      budget.pending = 0;
      batch.push({ key, count: budget.flushing, windowSeconds: budget.rule.windowSeconds });
    }
    this.dirty.clear();
    if (batch.length === 0) return this.forgetEnded();
    let totals: BudgetTotal[];
    try {
      totals = await this.add(batch);
    } catch (error) {
      // Kept here to add next time; meanwhile this process still counts them.
      for (const { key } of batch) {
        const budget = this.budgets.get(key);
        if (budget) {
          budget.pending += budget.flushing;
          budget.flushing = 0;
          this.dirty.add(key);
        }
      }
      this.options.onError?.(error);
      this.schedule();
      return;
    }
    const now = this.now();
    for (const total of totals) {
      const budget = this.budgets.get(total.key);
      if (!budget) continue;
      budget.known = total.count;
      budget.flushing = 0;
      budget.endsAt = now + total.msLeft;
    }
    this.forgetEnded();
  }

  /** Budgets whose window ended with nothing left to add are forgotten (every few seconds): the database starts them again. */
  private forgetEnded(): void {
    const now = this.now();
    if (now - this.sweptAt < SWEEP_EVERY_MS) return;
    this.sweptAt = now;
    for (const [key, budget] of this.budgets) {
      if (budget.endsAt <= now && budget.pending === 0 && budget.flushing === 0) this.budgets.delete(key);
    }
  }

  private makeRoom(): void {
    if (this.budgets.size < (this.options.kept ?? BUDGETS_KEPT)) return;
    for (const [key, budget] of this.budgets) {
      if (budget.pending === 0 && budget.flushing === 0) {
        this.budgets.delete(key);
        return;
      }
    }
  }
}
