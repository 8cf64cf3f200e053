import { ValueNode, type Compilable, type CompiledQuery, type Expression, type Kysely, type OperationNode, type RawBuilder } from 'kysely';
import type { DB } from './schema';

/**
 * A value in a query being built, standing for the real value given at each execution. It is an
 * opaque `Expression`, so a builder can only put it into the query — it cannot branch on it.
 */
class Param<T> implements Expression<T> {
  constructor(readonly key: string) {}
  get expressionType(): T | undefined {
    return undefined;
  }
  toOperationNode(): OperationNode {
    return ValueNode.create(this);
  }
}

/** The builder's view of the values: each one a parameter; each array, one per element. */
export type Params<V> = {
  readonly [K in keyof V]-?: NonNullable<V[K]> extends readonly (infer E)[] ? Expression<E>[] : Expression<NonNullable<V[K]>>;
};

type Slot = { key: string; index: number | null } | { constant: unknown };

interface Compiled<R> {
  compiled: CompiledQuery<R>;
  slots: Slot[];
}

/** Distinct shapes kept per query; a builder with more than this is not shape-bounded. */
const MAX_SHAPES = 500;

/**
 * A query built and compiled once per shape, then executed with new values: the query builder
 * runs on the first request of each shape only. The shape (sort, which filters are present,
 * page size…) is everything the SQL text depends on; the values (ids, search text, dates) never
 * change it, because the builder only ever sees them as parameters. Array values add one
 * parameter per element, so their lengths are part of the shape too.
 *
 * Together with the named prepared statements on PostgreSQL (ADR 009) this means a repeated
 * request neither builds nor plans its query.
 */
export function shapedQuery<S, V extends Record<string, unknown>, R>(build: (shape: S, p: Params<V>, db: Kysely<DB>) => Compilable<R> | RawBuilder<R>) {
  const cache = new Map<string, Compiled<R>>();

  function compile(db: Kysely<DB>, shape: S, values: V, key: string): Compiled<R> {
    const params: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(values)) {
      params[name] = Array.isArray(value) ? value.map((_, i) => new Param(`${name}\u0000${i}`)) : new Param(name);
    }
    // A value the caller did not give is a bug in the caller, not a NULL.
    const guarded = new Proxy(params, {
      get(target, name) {
        if (typeof name === 'string' && !(name in target)) throw new Error(`shapedQuery: no value named "${name}"`);
        return target[name as string];
      },
    });
    const built = build(shape, guarded as Params<V>, db);
    const compiled = 'isRawBuilder' in built ? built.compile(db) : built.compile();
    const slots = compiled.parameters.map((p): Slot => {
      if (!(p instanceof Param)) return { constant: p };
      const [name, index] = p.key.split('\u0000') as [string, string | undefined];
      return { key: name, index: index === undefined ? null : Number(index) };
    });
    const entry = { compiled, slots };
    if (cache.size < MAX_SHAPES) cache.set(key, entry);
    return entry;
  }

  return (db: Kysely<DB>, shape: S, values: V): CompiledQuery<R> => {
    const lengths = Object.entries(values)
      .filter(([, v]) => Array.isArray(v))
      .map(([k, v]) => `${k}:${(v as unknown[]).length}`)
      .join(',');
    const key = `${JSON.stringify(shape)}|${lengths}`;
    const { compiled, slots } = cache.get(key) ?? compile(db, shape, values, key);
    const parameters = slots.map((slot) => {
      if ('constant' in slot) return slot.constant;
      const value = values[slot.key];
      return slot.index === null ? value : (value as unknown[])[slot.index];
    });
    return { query: compiled.query, queryId: compiled.queryId, sql: compiled.sql, parameters };
  };
}
