import { sql, type Expression, type SqlBool } from 'kysely';

/**
 * `text` begins with the search text, both lower-cased by PostgreSQL's `lower()`: as a byte range
 * `[lower(search), text_prefix_successor(lower(search)))` (migration 0015), which the prefix index
 * answers alone and a reused (generic) plan can still use — a `LIKE` with a parameter cannot, so
 * PostgreSQL would plan every search afresh. Each bound is a sub-select, worked out once per
 * execution: a value the planner cannot see, in custom plans as in the generic one. Bounds it
 * could see made a custom plan, costed from the column's histogram, look cheaper than the generic
 * plan's default guess, and PostgreSQL re-planned every search for good (ADR 015).
 */
export function beginsWith(searchText: Expression<string>, text: Expression<string>) {
  return sql<SqlBool>`(${text} ~>=~ (SELECT lower(${searchText})) AND ${text} ~<~ (SELECT text_prefix_successor(lower(${searchText}))))`;
}
