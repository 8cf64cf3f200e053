import {
  amountCellProblem,
  NO_MOBILE_MESSAGE,
  parseChannelCell,
  parseDateCell,
  parseYesNoCell,
  REQUEST_BATCH_FIELDS,
  type BatchMapping,
  type FieldErrors,
} from '@tay/contract';
import type { Executor } from '../../db/executor';
import { newId } from '../../lib/ids';
import { validatePayerFields } from '../payers/payer-input';
import { amountLimitsOf } from '../businesses/amount-limits';
import type { ScopedBusiness } from '../businesses/business-scope';
import { expiryAfter, todayIn } from '../payment-requests/request-record';
import { mappingCheck, type BatchKindDefinition, type RowFields, type RowOutcome, type RowToSend, type SendContext, type SendOutcome } from './batch-kind';
import { insertSentRequests, type RequestToSend } from './send-requests';

/** What a valid request row will do when the batch is submitted. */
export interface RequestPlan {
  /** An existing payer, or one the row creates (matched by e-mail when submitted: never two). */
  payerId: string | null;
  newPayer: { firstName: string; lastName: string; email: string; displayName: string } | null;
  amountCents: number;
  memo: string;
  reference: string;
  dueDate: string;
  expiresOn: string;
  allowPartial: boolean;
  channel: 'email' | 'sms';
}

const DATE_FORMS = 'as 2026-12-31, 12/31/2026 or Dec 31, 2026';

interface PayerMatch {
  id: string;
  display_name: string;
  email: string;
  reference: string | null;
  mobile_number: string | null;
  status: string;
}

async function payersOf(db: Executor, businessId: string, emails: string[], references: string[]): Promise<PayerMatch[]> {
  if (emails.length === 0 && references.length === 0) return [];
  return db
    .selectFrom('payers')
    .select(['id', 'display_name', 'email', 'reference', 'mobile_number', 'status'])
    .where('business_id', '=', businessId)
    .where((eb) => {
      const any = [];
      if (emails.length > 0) any.push(eb('email', 'in', emails));
      if (references.length > 0) any.push(eb('reference', 'in', references));
      return eb.or(any);
    })
    .execute();
}

/** The request fields of a row (everything but who pays), with the single request's rules and messages. */
function checkRequestFields(business: ScopedBusiness, today: string, ceilingCents: number, f: RowFields, errors: FieldErrors) {
  const amount = amountCellProblem(f.amount ?? '', { ceilingCents });
  if (amount.error) errors.amount = amount.error;
  const memo = (f.memo ?? '').trim();
  if (memo.length > 500) errors.memo = `The memo is ${memo.length} characters; at most 500 fit.`;
  const reference = (f.reference ?? '').trim();
  if (reference.length > 64) errors.reference = `The reference is ${reference.length} characters; at most 64 fit.`;

  const dueText = (f.dueDate ?? '').trim();
  const dueDate = dueText === '' ? null : parseDateCell(dueText);
  if (dueText === '') errors.dueDate = 'Enter the due date.';
  else if (!dueDate) errors.dueDate = `"${dueText}" is not a date we can read. Write it ${DATE_FORMS}.`;
  else if (dueDate < today) errors.dueDate = 'The due date cannot be in the past.';
  const expiryText = (f.expiresOn ?? '').trim();
  let expiresOn = expiryText === '' ? null : parseDateCell(expiryText);
  if (expiryText !== '' && !expiresOn) errors.expiresOn = `"${expiryText}" is not a date we can read. Write it ${DATE_FORMS}.`;
  else if (expiresOn && dueDate && expiresOn < dueDate) errors.expiresOn = 'The expiry cannot be before the due date.';
  if (!expiresOn && dueDate) expiresOn = expiryAfter(dueDate, business.defaultExpiryDays);

  const allowPartial = parseYesNoCell(f.allowPartial ?? '');
  if (allowPartial === null) errors.allowPartial = `"${(f.allowPartial ?? '').trim()}" is not yes or no.`;
  const channel = parseChannelCell(f.channel ?? '');
  if (channel === null) errors.channel = `"${(f.channel ?? '').trim()}" is not a channel. Write email or sms.`;
  return {
    amountCents: amount.cents,
    memo,
    reference,
    dueDate,
    expiresOn,
    allowPartial: allowPartial ?? false,
    channel: channel ?? 'email',
  };
}

async function checkRows(db: Executor, business: ScopedBusiness, mapping: BatchMapping, rows: { line: number; fields: RowFields }[]): Promise<RowOutcome[]> {
  const emails = new Set<string>();
  const references = new Set<string>();
  for (const { fields } of rows) {
    const email = (fields.email ?? '').trim().toLowerCase();
    if (email) emails.add(email);
    const reference = (fields.payerReference ?? '').trim();
    if (mapping.payer === 'existing' && reference) references.add(reference);
  }
  const found = await payersOf(db, business.id, [...emails], [...references]);
  const byEmail = new Map(found.map((p) => [p.email, p]));
  const byReference = new Map(found.filter((p) => p.reference).map((p) => [p.reference!, p]));

  // The business's today once per chunk (a time-zone formatter is costly), and the event loop
  // let go every few hundred rows, so the server answers while a large file is checked.
  const today = todayIn(business.timeZone);
  const { amountCeilingCents } = await amountLimitsOf(db, business.id);
  const outcomes: RowOutcome[] = [];
  for (let i = 0; i < rows.length; i++) {
    if (i > 0 && i % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
    outcomes.push(checkRow(business, mapping, today, amountCeilingCents, rows[i]!.fields, byEmail, byReference));
  }
  return outcomes;
}

const YIELD_EVERY = 100;

function checkRow(
  business: ScopedBusiness,
  mapping: BatchMapping,
  today: string,
  ceilingCents: number,
  fields: RowFields,
  byEmail: Map<string, PayerMatch>,
  byReference: Map<string, PayerMatch>,
): RowOutcome {
  const errors: FieldErrors = {};
  const request = checkRequestFields(business, today, ceilingCents, fields, errors);
  let payer: PayerMatch | undefined;
  let newPayer: RequestPlan['newPayer'] = null;
  const email = (fields.email ?? '').trim().toLowerCase();
  if (mapping.payer === 'existing') {
    const reference = (fields.payerReference ?? '').trim();
    if (email) {
      payer = byEmail.get(email);
      if (!payer) errors.email = `No payer of yours has the e-mail address ${email}. Add the payer first, or choose "Create payers" on the map step.`;
    } else if (reference) {
      payer = byReference.get(reference);
      if (!payer) errors.payerReference = `No payer of yours has the reference ${reference}.`;
    } else {
      errors[mapping.columns.email ? 'email' : 'payerReference'] = "Enter the payer's e-mail address or reference.";
    }
  } else {
    payer = email ? byEmail.get(email) : undefined;
    if (!payer) {
      const checked = validatePayerFields({ firstName: fields.firstName ?? '', lastName: fields.lastName ?? '', companyName: '', email: fields.email ?? '' });
      if (!checked.ok) {
        for (const [field, message] of Object.entries(checked.fields)) if (['firstName', 'lastName', 'email'].includes(field)) errors[field] = message;
        if (!(fields.firstName ?? '').trim()) errors.firstName ??= 'Enter the first name of the new payer.';
        if (!(fields.lastName ?? '').trim()) errors.lastName ??= 'Enter the last name of the new payer.';
      } else {
        const v = checked.value;
        newPayer = { firstName: v.firstName, lastName: v.lastName, email: v.email, displayName: v.displayName };
      }
    }
  }
  if (payer && payer.status !== 'active') errors.email = `${payer.display_name} is deactivated; activate them first.`;
  if (request.channel === 'sms' && ((payer && !payer.mobile_number) || newPayer)) errors.channel = NO_MOBILE_MESSAGE;

  const payerName = payer?.display_name ?? newPayer?.displayName ?? null;
  if (Object.keys(errors).length > 0) return { status: 'invalid', errors, amountCents: request.amountCents, payerName };
  const plan: RequestPlan = {
    payerId: payer?.id ?? null,
    newPayer,
    amountCents: request.amountCents!,
    memo: request.memo,
    reference: request.reference,
    dueDate: request.dueDate!,
    expiresOn: request.expiresOn!,
    allowPartial: request.allowPartial,
    channel: request.channel,
  };
  const who = payer ? payer.id : `new:${newPayer!.email}`;
  return {
    status: 'valid',
    plan,
    amountCents: plan.amountCents,
    payerName: payerName!,
    dedupeKey: `${who}|${plan.amountCents}|${plan.reference.toLowerCase()}`,
  };
}

/**
 * Sends a chunk of valid rows as requests, set-based: the new payers, the numbers, the requests,
 * their timelines and their messages are each one statement, in the engine's transaction. Each
 * row is checked again first (a payer deactivated since the review, a due date now past while a
 * scheduled batch waited — its expiry is never earlier); such a row fails with its reason and the
 * others go on. A scheduled batch is sent the same way when its time comes.
 */
async function sendRows(send: SendContext, rows: RowToSend[]): Promise<SendOutcome[]> {
  const { trx, business, batchId } = send;
  const plans = rows.map((r) => ({ line: r.line, plan: r.plan as RequestPlan }));

  // Payers the file creates: one per e-mail, and an existing one is used instead.
  const fresh = new Map<string, NonNullable<RequestPlan['newPayer']>>();
  for (const { plan } of plans) if (plan.newPayer) fresh.set(plan.newPayer.email, plan.newPayer);
  if (fresh.size > 0) {
    await trx
      .insertInto('payers')
      .values(
        [...fresh.values()].map((p) => ({
          business_id: business.id,
          id: newId('pyr'),
          first_name: p.firstName,
          last_name: p.lastName,
          company_name: '',
          display_name: p.displayName,
          email: p.email,
          mobile_number: null,
          reference: null,
          verification_token_hash: null,
          verification_sent_at: null,
          verified_at: null,
          import_batch_id: batchId,
        })),
      )
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
  const ids = [...new Set(plans.map((p) => p.plan.payerId).filter((id): id is string => Boolean(id)))];
  const payers = await trx
    .selectFrom('payers')
    .select(['id', 'display_name', 'email', 'mobile_number', 'status'])
    .where('business_id', '=', business.id)
    .where((eb) => {
      const any = [];
      if (ids.length > 0) any.push(eb('id', 'in', ids));
      if (fresh.size > 0) any.push(eb('email', 'in', [...fresh.keys()]));
      return any.length > 0 ? eb.or(any) : eb.val(false);
    })
    .execute();
  const byId = new Map(payers.map((p) => [p.id, p]));
  const byEmail = new Map(payers.map((p) => [p.email, p]));

  const today = todayIn(business.timeZone);
  const outcomes: SendOutcome[] = [];
  const ready: { line: number; plan: RequestPlan; payer: (typeof payers)[number] }[] = [];
  for (const { line, plan } of plans) {
    const payer = plan.payerId ? byId.get(plan.payerId) : byEmail.get(plan.newPayer!.email);
    if (!payer) outcomes.push({ line, error: 'The payer was deleted after the file was checked.' });
    else if (payer.status !== 'active') outcomes.push({ line, error: `${payer.display_name} is deactivated; activate them first.` });
    else if (plan.channel === 'sms' && !payer.mobile_number) outcomes.push({ line, error: NO_MOBILE_MESSAGE });
    else if (plan.dueDate < today) outcomes.push({ line, error: 'The due date is now in the past.' });
    else ready.push({ line, plan, payer });
  }
  if (ready.length === 0) return outcomes;

  const requests: RequestToSend[] = ready.map((r) => ({
    line: r.line,
    id: newId('req'),
    values: {
      payer_id: r.payer.id,
      payer_display_name: r.payer.display_name,
      payer_email: r.payer.email,
      amount_cents: r.plan.amountCents,
      memo: r.plan.memo,
      reference: r.plan.reference,
      due_date: r.plan.dueDate,
      expires_on: r.plan.expiresOn,
      allow_partial: r.plan.allowPartial,
      channel: r.plan.channel,
    },
    mobile: r.payer.mobile_number,
    detail: `From bulk batch ${batchId}`,
  }));
  outcomes.push(...(await insertSentRequests(send, requests)));
  return outcomes;
}

const checkMapping = mappingCheck(REQUEST_BATCH_FIELDS, (has, mapping) => {
  const errors: FieldErrors = {};
  if (mapping.payer === 'existing' && !has('email') && !has('payerReference')) {
    errors['mapping.email'] = "Choose the column with the payer's e-mail address or reference.";
  }
  if (mapping.payer === 'create') {
    for (const key of ['firstName', 'lastName', 'email'] as const) {
      if (!has(key))
        errors[`mapping.${key}`] =
          `Choose the column with the new payer's ${key === 'email' ? 'e-mail address' : key === 'firstName' ? 'first name' : 'last name'}.`;
    }
  }
  if (!has('amount')) errors['mapping.amount'] = 'Choose the column with the amount.';
  if (!has('dueDate')) errors['mapping.dueDate'] = 'Choose the column with the due date.';
  return errors;
});

export const requestBatches: BatchKindDefinition = {
  kind: 'requests',
  fields: REQUEST_BATCH_FIELDS,
  checkMapping,
  checkRows,
  sendRows,
  repeat: { same: 'Same payer, amount and reference', fix: 'Change the reference, or drop one of them.' },
};
