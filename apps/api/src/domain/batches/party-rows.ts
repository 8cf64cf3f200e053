import { sql } from 'kysely';
import { parseDateCell, type FieldErrors, type PartyTemplate } from '@tay/contract';
import { z } from 'zod';
import type { Executor } from '../../db/executor';
import { payersByEmail, type GuardianPayer, type NewGuardian } from '../students/guardians';
import { recordEvent } from '../businesses/audit';
import type { RowFields, RowOutcome, SendContext, SendOutcome } from './batch-kind';

/**
 * What the imports of a template's party share (ADR 048): the student import (`students`) and the
 * patient import (`patients`) are the same check — the party's own id, names and date of birth,
 * and the payers who pay for it found by e-mail or made from the row — with the words and columns
 * of their template's definition (`PARTY_TEMPLATES` in the contract). A third template's import
 * is its definition and the few lines that are its own, not a copy of these.
 */

const YIELD_EVERY = 100;
const email = z.email();
const MOBILE = /^\+[1-9]\d{7,14}$/;

/** The words of a refusal about the party's id, e.g. "A student with the student id 7 already exists". */
export const partyAlreadyExists = (template: PartyTemplate, id: string) =>
  `A ${template.party.one} with the ${template.idWords} ${id} already exists. Change it, or drop the row.`;

export const inactivePayerFor = (template: PartyTemplate) => (p: Pick<GuardianPayer, 'display_name'>) =>
  `${p.display_name} is a deactivated payer, so they cannot be a ${template.payerRole.one}. Activate them in Manage Payers first.`;

/** A text cell: trimmed, within `max`, and (when `required`) present; the refusal names the field. */
export function checkText(fields: RowFields, key: string, label: string, max: number, errors: FieldErrors, required: boolean): string {
  const value = (fields[key] ?? '').trim();
  if (!value && required) errors[key] = `Enter the ${label}.`;
  else if (value.length > max) errors[key] = `The ${label} is ${value.length} characters; at most ${max} fit.`;
  return value;
}

/** The date of birth cell: a date we can read, not in the future, not before 1900; `forms` says how to write it. */
export function checkBirthDate(fields: RowFields, today: string, forms: string, required: boolean, errors: FieldErrors): string | null {
  const text = (fields.dateOfBirth ?? '').trim();
  const day = text ? parseDateCell(text) : null;
  if (!text) {
    if (required) errors.dateOfBirth = 'Enter the date of birth.';
  } else if (!day) errors.dateOfBirth = `"${text}" is not a date we can read. Write it ${forms}.`;
  else if (day > today) errors.dateOfBirth = 'The date of birth cannot be in the future.';
  else if (day < '1900-01-01') errors.dateOfBirth = 'The date of birth must be on or after Jan 01, 1900.';
  return day;
}

export interface PayerColumns {
  email: string;
  firstName: string;
  lastName: string;
  /** The row's mobile column, where this payer has one. */
  mobile?: string;
}

/**
 * One payer's columns: the business's payer with the e-mail (refused if deactivated), or a new
 * payer from the row's names — or from `names` (a patient who pays for themself). `missing` is
 * the refusal of a blank e-mail; null where the payer is optional (a second guardian).
 */
export function checkPayerColumns(
  fields: RowFields,
  columns: PayerColumns,
  options: {
    /** "guardian's", "second guardian's", "guarantor's": the words before a field's name. */
    whose: string;
    missing: string | null;
    names: { firstName: string; lastName: string } | null;
    emailMax: number;
    inactive: (p: Pick<GuardianPayer, 'display_name'>) => string;
  },
  errors: FieldErrors,
  existing: Map<string, GuardianPayer>,
): { email: string; newPayer: NewGuardian | null } | null {
  const address = (fields[columns.email] ?? '').trim().toLowerCase();
  if (!address) {
    if (options.missing) errors[columns.email] = options.missing;
    return null;
  }
  if (!email.safeParse(address).success || address.length > options.emailMax) {
    errors[columns.email] = `"${address}" is not a valid e-mail address.`;
    return null;
  }
  const payer = existing.get(address);
  if (payer) {
    if (payer.status !== 'active') errors[columns.email] = options.inactive(payer);
    return { email: address, newPayer: null };
  }
  let { firstName, lastName } = options.names ?? { firstName: '', lastName: '' };
  if (!options.names) {
    firstName = checkText(fields, columns.firstName, `${options.whose} first name`, 100, errors, false);
    lastName = checkText(fields, columns.lastName, `${options.whose} last name`, 100, errors, false);
    if (!firstName) errors[columns.firstName] = `Enter the ${options.whose} first name: no payer has the e-mail ${address} yet.`;
    if (!lastName) errors[columns.lastName] = `Enter the ${options.whose} last name: no payer has the e-mail ${address} yet.`;
  }
  let mobile: string | null = null;
  if (columns.mobile) {
    const raw = fields[columns.mobile] ?? '';
    const text = raw.replace(/[\s().-]/g, '');
    if (text && !MOBILE.test(text)) errors[columns.mobile] = `"${raw.trim()}" is not a mobile number. Write it like +1 555 010 0000.`;
    else if (text) mobile = text;
  }
  return { email: address, newPayer: { firstName, lastName, email: address, mobile } };
}

/** The party's ids (lower case) among `ids` another party of the business already has. */
export async function takenPartyIds(db: Executor, template: PartyTemplate, businessId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const column = sql.ref(template.store.idColumn);
  const rows = await db
    .selectFrom(template.store.table)
    .select(sql<string>`lower(${column})`.as('n'))
    .where('business_id', '=', businessId)
    .where(sql<string>`lower(${column})`, 'in', [...ids])
    .execute();
  return new Set(rows.map((r) => r.n));
}

/**
 * Checks a chunk of rows: the ids already taken and the payers the e-mails name are read once for
 * the chunk, then each row is checked by `checkRow` (yielding to the event loop now and then, so
 * a large file does not hold up other requests).
 */
export async function checkPartyRows(
  db: Executor,
  template: PartyTemplate,
  businessId: string,
  rows: { fields: RowFields }[],
  checkRow: (fields: RowFields, taken: Set<string>, existing: Map<string, GuardianPayer>) => RowOutcome,
): Promise<RowOutcome[]> {
  const ids = new Set<string>();
  const emails = new Set<string>();
  for (const { fields } of rows) {
    const id = (fields[template.import.idField] ?? '').trim().toLowerCase();
    if (id) ids.add(id);
    for (const key of template.import.payerEmailFields) {
      const e = (fields[key] ?? '').trim().toLowerCase();
      if (e) emails.add(e);
    }
  }
  const [taken, existing] = await Promise.all([takenPartyIds(db, template, businessId, [...ids]), payersByEmail(db, businessId, [...emails])]);
  const outcomes: RowOutcome[] = [];
  for (let i = 0; i < rows.length; i++) {
    if (i > 0 && i % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
    outcomes.push(checkRow(rows[i]!.fields, taken, existing));
  }
  return outcomes;
}

/** The row's label in the review: "Ada Lovelace (S-1)", or the id alone. */
export function partyRowLabel(firstName: string, lastName: string, id: string): string | null {
  const name = [firstName, lastName].filter(Boolean).join(' ');
  return name ? `${name}${id ? ` (${id})` : ''}` : id || null;
}

/** A row of a party import that is ready to write: its line, the new party's id and its own id (MRN, student id). */
export interface ReadyParty {
  line: number;
  id: string;
  partyNumber: string;
}

/**
 * The end of a party import's chunk. `insert` writes the ready parties, doing nothing on a
 * conflict: a row whose id a concurrent add took yields to it and fails in the template's words;
 * the others are made, `linked` writes what hangs off them (a student's guardians), the import is
 * audited once for the chunk, and each row names its party.
 */
export async function settlePartyImport<R extends ReadyParty>(
  send: SendContext,
  template: PartyTemplate,
  ready: R[],
  outcomes: SendOutcome[],
  steps: {
    insert: (rows: R[]) => Promise<{ id: string }[]>;
    linked?: (done: R[]) => Promise<unknown>;
    details: (done: R[]) => Record<string, unknown>;
  },
): Promise<SendOutcome[]> {
  if (ready.length === 0) return outcomes;
  const insertedIds = new Set((await steps.insert(ready)).map((r) => r.id));
  const done = ready.filter((r) => insertedIds.has(r.id));
  for (const r of ready) if (!insertedIds.has(r.id)) outcomes.push({ line: r.line, error: partyAlreadyExists(template, r.partyNumber) });
  if (done.length > 0) {
    await steps.linked?.(done);
    await recordEvent(send.trx, {
      businessId: send.business.id,
      actor: { userId: send.user.userId, label: send.user.email, ip: null },
      action: `${template.import.kind}.imported`,
      details: { batchId: send.batchId, ...steps.details(done) },
    });
  }
  for (const r of done) outcomes.push({ line: r.line, requestId: r.id });
  return outcomes;
}
