import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';

/** Which statement a crash happens at: a predicate on the statement Kysely is about to run. */
export type StatementMatch = (node: RootOperationNode) => boolean;

/**
 * What `kill -9` means for the database, as a Kysely plugin: from the `nth` statement that `at`
 * matches on (or from the moment a test sets `dead`), no statement of the dying process reaches
 * the database; each throws instead, so an open transaction is rolled back.
 */
export class Death implements KyselyPlugin {
  dead = false;
  private seen = 0;
  constructor(
    private readonly at: StatementMatch = () => false,
    private readonly nth = 1,
  ) {}
  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    if (!this.dead && this.at(node) && ++this.seen === this.nth) this.dead = true;
    if (this.dead) throw new Error('the process was killed');
    return node;
  }
  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return result;
  }
}

const text = (node: unknown) => JSON.stringify(node) ?? '';

/** An INSERT into the table. */
export const insertsInto =
  (table: string): StatementMatch =>
  (node) =>
    node.kind === 'InsertQueryNode' && text(node.into).includes(`"${table}"`);

/** A raw SQL statement that holds the text. */
export const raw =
  (start: string): StatementMatch =>
  (node) =>
    node.kind === 'RawNode' && text(node).includes(start);
