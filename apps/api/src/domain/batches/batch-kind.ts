import type { BatchField, BatchKind, BatchMapping, FieldErrors } from '@tay/contract';
import type { Transaction } from 'kysely';
import type { DB } from '../../db/schema';
import type { Executor } from '../../db/executor';
import type { Jobs } from '../../jobs/queue';
import type { ScopedBusiness } from '../businesses/business-scope';
import type { RequestContext } from '../payment-requests/request-context';

/** A row's values by field key, as written in the file (or as fixed on the review page). */
export type RowFields = Record<string, string>;

/** What checking one row found: valid with its plan (what submitting it will do), or its errors. */
export type RowOutcome =
  | { status: 'valid'; plan: unknown; amountCents: number; payerName: string; dedupeKey: string }
  | { status: 'invalid'; errors: FieldErrors; amountCents: number | null; payerName: string | null };

/** What a kind's `afterSend` may need beyond the request context: the job queue and the payout fee. */
export interface BatchRunDeps {
  jobs: Pick<Jobs, 'send'>;
  /** FEE_PAYOUT_CENTS. */
  payoutFeeCents: number;
}

/** One valid row to send, locked by the submission's transaction. */
export interface RowToSend {
  line: number;
  plan: unknown;
}

/** What sending rows did: the request each made, or why it failed. */
export type SendOutcome = { line: number; requestId: string } | { line: number; error: string };

export interface SendContext {
  ctx: RequestContext;
  trx: Transaction<DB>;
  business: ScopedBusiness;
  batchId: string;
  user: { userId: string; email: string };
  /** For a batch scheduled for later: the time it was scheduled for (the timeline says so). */
  scheduledFor: Date | null;
}

/**
 * A kind of batch (ADR 032): the engine reads files, stores rows, runs the jobs and keeps the
 * counts; a kind says which fields a row has, how a chunk of rows is checked (with the database,
 * for the lookups), and how a chunk of valid rows is sent, inside the engine's transaction.
 */
export interface BatchKindDefinition {
  kind: BatchKind;
  fields: readonly BatchField[];
  /** What the mapping must name before rows can be read (whole-file refusal otherwise). */
  checkMapping(mapping: BatchMapping, columns: readonly string[]): FieldErrors;
  checkRows(db: Executor, business: ScopedBusiness, mapping: BatchMapping, rows: { line: number; fields: RowFields }[]): Promise<RowOutcome[]>;
  sendRows(send: SendContext, rows: RowToSend[]): Promise<SendOutcome[]>;
  /** What a row that repeats an earlier one is told: "Same payer, amount and reference" … "Change the reference, or drop one of them." */
  repeat: { same: string; fix: string };
  /**
   * For a kind whose rows are sent in groups (patient billing: the charges of one patient make one
   * statement). Each valid row's plan then carries `group`, and:
   * - `reviewGroups` runs after every check of the rows' repeats (the last chunk checked, a row
   *   fixed or dropped), in the same transaction, and flags as invalid the valid rows of a group
   *   that cannot be sent whole — so a group's rows are all valid or none is;
   * - the engine sends such a batch one chunk at a time (under a lock of the batch) and adds to a
   *   chunk every valid row of the groups it reaches, so `sendRows` always gets whole groups and a
   *   group is never split between chunks, runs or retries.
   * Kinds without it are checked and sent exactly as before.
   */
  groups?: {
    reviewGroups(db: Executor, businessId: string, batchId: string): Promise<void>;
  };
  /** Run once the batch has sent every row (outside the engine's transactions), e.g. approving the payouts it made. */
  afterSend?(ctx: RequestContext, deps: BatchRunDeps, business: ScopedBusiness, batchId: string, user: { userId: string; email: string }): Promise<void>;
}

/**
 * A kind's `checkMapping`, from its fields: every mapped field must be one of the kind's and its
 * column one of the file's ("There is no field …", "The file has no column …"); then `required`
 * says which fields the kind cannot do without, given what is mapped (`has`).
 */
export function mappingCheck(
  fields: readonly BatchField[],
  required: (has: (key: string) => boolean, mapping: BatchMapping) => FieldErrors,
): BatchKindDefinition['checkMapping'] {
  return (mapping, columns) => {
    const errors: FieldErrors = {};
    for (const [field, column] of Object.entries(mapping.columns)) {
      if (!fields.some((f) => f.key === field)) errors[`mapping.${field}`] = `There is no field "${field}".`;
      else if (column && !columns.includes(column)) errors[`mapping.${field}`] = `The file has no column "${column}".`;
    }
    return Object.assign(
      errors,
      required((key) => Boolean(mapping.columns[key]), mapping),
    );
  };
}

/** The fields a kind marks `required: 'always'`, each asked for by its label: "Choose the column with the mrn." */
export function alwaysRequired(fields: readonly BatchField[]) {
  return (has: (key: string) => boolean): FieldErrors => {
    const errors: FieldErrors = {};
    for (const field of fields) {
      if ('required' in field && field.required === 'always' && !has(field.key)) {
        errors[`mapping.${field.key}`] = `Choose the column with the ${field.label.toLowerCase()}.`;
      }
    }
    return errors;
  };
}
