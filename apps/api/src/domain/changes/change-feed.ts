import type { Kysely } from 'kysely';
import type { LiveChange } from '@tay/contract';
import type { DB } from '../../db/schema';
import { readChanges } from './read-changes';

export type ChangeListener = (change: LiveChange) => void;

export interface ChangeSubscription {
  /**
   * Settles once a read that began after the subscription has finished: from then on every
   * change that commits reaches the listener. Rejects if that read failed, or on unsubscribing
   * before then.
   */
  ready: Promise<void>;
  unsubscribe(): void;
}

export interface ChangeFeedOptions {
  db: Kysely<DB>;
  /** Pause between reads while anyone listens. */
  intervalMs?: number;
  onError?: (error: unknown) => void;
}

interface Waiter {
  /** The first read whose result this subscriber may rely on. */
  read: number;
  resolve(): void;
  reject(error: unknown): void;
}

/** How often the feed reads the database while someone listens: changes show within about this. */
export const CHANGE_FEED_INTERVAL_MS = 1000;

/**
 * This process's view of the businesses' change notices (ADR 025): one read of the database per
 * interval for all the businesses someone here is listening to, however many streams are open,
 * and none while nobody listens. It keeps nothing another process would need: the notices are in
 * the database, written by whoever made the change, so every replica sees every change.
 */
export class ChangeFeed {
  private readonly listeners = new Map<string, Set<ChangeListener>>();
  private readonly waiters: Waiter[] = [];
  private readonly intervalMs: number;
  /** The snapshot of the last read; null before the first read after an idle spell. */
  private since: string | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private reading: Promise<void> | null = null;
  private readAgain = false;
  private readsStarted = 0;
  private closed = false;

  constructor(private readonly options: ChangeFeedOptions) {
    this.intervalMs = options.intervalMs ?? CHANGE_FEED_INTERVAL_MS;
  }

  /** Businesses with at least one listener. */
  get businessCount(): number {
    return this.listeners.size;
  }

  /** Whether a read is scheduled or running (false when idle: no timer is left behind). */
  get active(): boolean {
    return this.timer !== null || this.reading !== null;
  }

  subscribe(businessId: string, listener: ChangeListener): ChangeSubscription {
    if (this.closed) return { ready: Promise.reject(new Error('The change feed is closed')), unsubscribe: () => {} };
    let set = this.listeners.get(businessId);
    if (!set) this.listeners.set(businessId, (set = new Set()));
    set.add(listener);
    let waiter: Waiter | undefined;
    const ready = new Promise<void>((resolve, reject) => {
      waiter = { read: this.readsStarted + 1, resolve, reject };
      this.waiters.push(waiter);
    });
    // A caller that stops listening need not await it.
    ready.catch(() => {});
    this.readSoon();
    let subscribed = true;
    return {
      ready,
      unsubscribe: () => {
        if (!subscribed) return;
        subscribed = false;
        const waiting = this.waiters.indexOf(waiter!);
        if (waiting >= 0) {
          this.waiters.splice(waiting, 1);
          waiter!.reject(new Error('Unsubscribed before the feed was ready'));
        }
        const listeners = this.listeners.get(businessId);
        listeners?.delete(listener);
        if (listeners?.size === 0) this.listeners.delete(businessId);
        if (this.listeners.size === 0) this.idle();
      },
    };
  }

  /** Stops reading; a read under way is awaited, so nothing touches the database afterwards. */
  async close(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    this.idle();
    await this.reading;
    this.settleWaiters(Infinity, new Error('The change feed is closed'));
  }

  private idle(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.reading) this.since = null;
  }

  private readSoon(): void {
    if (this.reading) {
      this.readAgain = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.schedule(0);
  }

  private schedule(delayMs: number): void {
    if (this.closed || this.listeners.size === 0) {
      this.since = null;
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = null;
      this.reading = this.read().finally(() => {
        this.reading = null;
        const again = this.readAgain;
        this.readAgain = false;
        this.schedule(again ? 0 : this.intervalMs);
      });
    }, delayMs);
  }

  private async read(): Promise<void> {
    const businessIds = [...this.listeners.keys()];
    const read = ++this.readsStarted;
    try {
      const { snapshot, changes } = await readChanges(this.options.db, businessIds, this.since);
      this.since = snapshot;
      for (const { businessId, kind, id } of changes) {
        for (const listener of this.listeners.get(businessId) ?? []) {
          try {
            listener({ kind, id });
          } catch (error) {
            this.options.onError?.(error);
          }
        }
      }
      this.settleWaiters(read);
    } catch (error) {
      this.options.onError?.(error);
      this.settleWaiters(read, error);
    }
  }

  private settleWaiters(read: number, error?: unknown): void {
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      const waiter = this.waiters[i]!;
      if (waiter.read > read) continue;
      this.waiters.splice(i, 1);
      if (error === undefined) waiter.resolve();
      else waiter.reject(error);
    }
  }
}
