import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import {
  AUDIT_KIND_LABELS,
  auditKindOf,
  csvRow,
  formatDateTime,
  formatMoney,
  INTEGRATION_PROVIDER_LABELS,
  type AuditEntry,
  type AuditKind,
  type AuditQuery,
  type IntegrationProvider,
} from '@tay/contract';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { plainPage } from '../../db/plain-list';

export type AuditListQuery = ReturnType<typeof AuditQuery.parse>;

/** The action prefixes of each kind, as `auditKindOf` reads them. */
const KIND_PATTERNS: Record<AuditKind, { like: string[]; notLike?: string[] }> = {
  team: { like: ['member.%', 'invitation.%'] },
  payers: { like: ['payer%'] },
  requests: { like: ['request.%', 'batch.%', 'invoice.%'] },
  business: { like: ['%'], notLike: ['member.%', 'invitation.%', 'payer%', 'request.%', 'batch.%', 'invoice.%'] },
};

const REQUEST_VERBS: Record<string, string> = {
  create: 'Created',
  edit: 'Edited',
  send: 'Sent',
  resend: 'Resent',
  withdraw: 'Withdrew',
  cancel: 'Cancelled',
  deleted: 'Deleted the draft',
  decline: 'Payer declined',
  expire: 'Expired',
  pay: 'Payment on',
  viewed: 'Payer opened',
};

const BUSINESS_SUMMARIES: Record<string, string> = {
  'business.created': 'Created the business',
  'business.submitted': 'Submitted the business for review',
  'business.approved': 'Approved the business',
  'business.disabled': 'Disabled the business',
  'business.enabled': 'Enabled the business again',
  'payouts.enabled': 'Enabled payouts',
  'payouts.disabled': 'Disabled payouts',
  'bank_account.added': 'Added the settlement bank account',
  'bank_account.replaced': 'Replaced the settlement bank account',
  'logo.updated': 'Changed the logo',
  'payers.imported': 'Imported payers',
};

/** A provider's name as the integrations page shows it. */
const integrationName = (provider: unknown) => INTEGRATION_PROVIDER_LABELS[provider as IntegrationProvider]?.name ?? text(provider);
const text = (v: unknown) => (typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v));

/** One line in words, from the action and what was recorded with it. */
export function auditSummary(action: string, details: Record<string, unknown>): string {
  const who = text(details.email);
  switch (action) {
    case 'business.updated':
      return `Changed the business's ${Array.isArray(details.changes) ? (details.changes as string[]).join(', ') : 'details'}`;
    case 'member.invited':
      return `Invited ${who} as ${text(details.role)}`;
    case 'member.joined':
      return `${who} joined as ${text(details.role)}`;
    case 'member.role_changed':
      return `Changed the role of ${who}`;
    case 'member.removed':
      return `Removed ${who} (${text(details.role)}) from the team`;
    case 'invitation.revoked':
      return `Withdrew the invitation of ${who}`;
    case 'batch.uploaded':
      return `Uploaded ${text(details.fileName)} (${text(details.rows)} rows) for a bulk ${details.kind === 'payouts' ? 'payout' : 'request'}`;
    case 'integration.connected':
      return `Connected ${integrationName(details.provider)} (${text(details.companyName)})`;
    case 'integration.disconnected':
      return `Disconnected ${integrationName(details.provider)}${details.companyName ? ` (${text(details.companyName)})` : ''}`;
    case 'batch.mapped':
      return `Chose the columns of the bulk batch ${text(details.fileName)} and checked its rows again`;
    case 'batch.row_fixed': {
      const fields = Array.isArray(details.fields) ? (details.fields as string[]) : [];
      return `Fixed line ${text(details.line)} of the bulk batch ${text(details.fileName)}${fields.length > 0 ? ` (${fields.join(', ')})` : ''}`;
    }
    case 'batch.row_dropped':
      return `Dropped line ${text(details.line)} of the bulk batch ${text(details.fileName)}`;
    case 'batch.rows_dropped':
      return `Dropped ${text(details.count)} ${details.which === 'invalid' ? 'rows with errors' : 'rows'} of the bulk batch ${text(details.fileName)}`;
    case 'payers.imported':
      return details.fileName
        ? `Added ${text(details.added)} payers from the bulk batch ${text(details.fileName)}`
        : `Imported payers: ${text(details.added)} added, ${text(details.skipped)} skipped`;
    case 'batch.approval_waiting':
      return `Bulk payouts of batch ${text(details.batchId)} wait for approval: ${text(details.reason)}`;
    case 'batch.discarded':
      return `Discarded the bulk batch ${text(details.fileName)}`;
    case 'batch.unscheduled':
      return `Took the scheduled bulk batch ${text(details.fileName)} back to review`;
    case 'invoice.deleted':
      return `Deleted the draft invoice ${text(details.number)}`;
    case 'qr_code.created':
      return `Created the QR code ${text(details.label)}`;
    case 'qr_code.updated':
      return `Edited the QR code ${text(details.label)}`;
    case 'qr_code.enabled':
      return `Enabled the QR code ${text(details.label)}`;
    case 'qr_code.disabled':
      return `Disabled the QR code ${text(details.label)}`;
    case 'qr_code.deleted':
      return `Deleted the QR code ${text(details.label)}`;
    case 'batch.submitted':
      return `Submitted the bulk batch ${text(details.fileName)}: ${text(details.rows)} ${details.kind === 'payouts' ? 'payouts' : 'requests'}`;
  }
  if (action.startsWith('request.')) {
    const event = action.slice('request.'.length);
    const verb = REQUEST_VERBS[event] ?? event.replace(/_/g, ' ');
    return `${verb} ${text(details.reference)}`.trim();
  }
  if (action === 'payout_settings.updated') {
    return details.approvalRequired ? 'Required a second person to approve payouts' : 'Let a submitted payout be approved at once';
  }
  if (action.startsWith('receiver.')) {
    const what = action.slice('receiver.'.length).replace(/_/g, ' ');
    const who = details.name ? text(details.name) : text(details.receiverId);
    return `Receiver ${who}: ${what}${details.reason ? ` (${text(details.reason).replace(/_/g, ' ')})` : ''}`;
  }
  if (action.startsWith('event.')) {
    return `Event ${text(details.name) || text(details.eventId)}: ${action.slice('event.'.length)}`;
  }
  if (action.startsWith('payout.')) {
    // Payouts (ADR 035): what happened to which payout, and its amount when recorded.
    const event = action.slice('payout.'.length);
    const amount = typeof details.amountCents === 'number' ? ` of ${formatMoney(details.amountCents)}` : '';
    return `Payout ${text(details.payoutId)}${amount} ${event}${details.reason ? `: ${text(details.reason)}` : ''}`;
  }
  if (action.startsWith('patient')) {
    // Patients (ADR 037): the record is named by its id only, never its personal data.
    const WHAT: Record<string, string> = { record: 'record', edit: 'record (edit form)', statements: 'statements' };
    if (action === 'patient.viewed') return `Viewed patient ${text(details.patientId)}'s ${WHAT[text(details.what)] ?? 'record'}`;
    if (action === 'patients.imported') return `Imported ${text(details.count)} patients`;
    if (action === 'patients.exported') return patientExportSummary(details);
    return `Patient ${text(details.patientId)}: ${action.slice('patient.'.length)}`;
  }
  if (action.startsWith('payer')) {
    const what = action.replace(/^payers?\./, '').replace(/_/g, ' ');
    return `Payer ${what}${details.payerId ? ` (${text(details.payerId)})` : ''}`;
  }
  return BUSINESS_SUMMARIES[action] ?? action;
}

/** "Exported 25 patients (status: active, a search)": what left, from where, narrowed how. */
function patientExportSummary(details: Record<string, unknown>): string {
  const filters = (typeof details.filters === 'object' && details.filters !== null ? details.filters : {}) as Record<string, unknown>;
  // JSONB keeps keys in its own order: the search, if any, is named last.
  const narrowed = Object.entries(filters)
    .filter(([key]) => key !== 'search')
    .map(([key, value]) => `${key}: ${text(value)}`)
    .concat(filters.search ? ['a search'] : []);
  const by = narrowed.length > 0 ? ` (${narrowed.join(', ')})` : '';
  const n = Number(details.count);
  if (details.export === 'history') return `Exported the transaction history with ${n} patient ${n === 1 ? 'statement' : 'statements'}${by}`;
  if (details.export === 'batch-errors') return `Exported ${n} ${n === 1 ? 'row' : 'rows'} with errors of the bulk batch ${text(details.fileName)}`;
  return `Exported ${n} ${n === 1 ? 'patient' : 'patients'}${by}`;
}

/** The before → after of each field, from whichever form the action recorded it in. */
function changesOf(details: Record<string, unknown>): AuditEntry['changes'] {
  for (const key of ['changes', 'diff']) {
    const list = details[key];
    if (Array.isArray(list) && list.every((c) => typeof c === 'object' && c !== null && 'field' in c)) {
      return (list as { field: string; before: unknown; after: unknown }[]).map(({ field, before, after }) => ({ field, before, after }));
    }
  }
  if (details.from !== undefined || details.to !== undefined) return [{ field: 'state', before: details.from ?? null, after: details.to ?? null }];
  return [];
}

type Row = {
  id: string;
  created_at: Date;
  actor: string;
  actor_user_id: string | null;
  action: string;
  details: Record<string, unknown>;
  ip_address: string | null;
};

function entryOf(row: Row): AuditEntry {
  const details = row.details ?? {};
  const rest = Object.fromEntries(Object.entries(details).filter(([k]) => !['changes', 'diff'].includes(k) || !Array.isArray(details[k])));
  return {
    id: row.id,
    createdAt: row.created_at.toISOString(),
    actor: row.actor,
    actorUserId: row.actor_user_id,
    action: row.action,
    kind: auditKindOf(row.action),
    summary: auditSummary(row.action, details),
    changes: changesOf(details),
    details: rest,
    ipAddress: row.ip_address,
  };
}

function whereOf(businessId: string, timeZone: string, query: Omit<AuditListQuery, 'page' | 'pageSize'>) {
  if (query.from && query.to && query.from > query.to) {
    throw AppError.validation('The date range ends before it starts.', { from: 'Must not be after the end date.' });
  }
  return (eb: ExpressionBuilder<DB, 'business_events'>): Expression<SqlBool> => {
    const and: Expression<SqlBool>[] = [eb('business_id', '=', businessId)];
    if (query.actor) {
      and.push(eb.or([eb('actor_user_id', '=', query.actor), eb.and([eb('actor_user_id', 'is', null), eb('actor', '=', query.actor)])]));
    }
    if (query.kind) {
      const { like, notLike = [] } = KIND_PATTERNS[query.kind];
      and.push(eb.or(like.map((p) => eb('action', 'like', p))));
      for (const p of notLike) and.push(eb('action', 'not like', p));
    }
    if (query.from) and.push(eb('created_at', '>=', sql<Date>`(${query.from}::date)::timestamp AT TIME ZONE ${timeZone}`));
    if (query.to) and.push(eb('created_at', '<', sql<Date>`((${query.to}::date) + 1)::timestamp AT TIME ZONE ${timeZone}`));
    if (query.search) {
      const pattern = `%${query.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      and.push(eb.or([sql<SqlBool>`lower(actor) LIKE ${pattern}`, sql<SqlBool>`action LIKE ${pattern}`, sql<SqlBool>`lower(details::text) LIKE ${pattern}`]));
    }
    return eb.and(and);
  };
}

/**
 * The audit log, newest first: a plain list (ADR 043) over the append-only trail
 * (`business_events`, migrations 0003 and 0028), which holds a copy of every request event too.
 */
export async function listAudit(
  db: Kysely<DB>,
  { businessId, timeZone, query }: { businessId: string; timeZone: string; query: AuditListQuery },
): Promise<{ items: AuditEntry[]; page: number; pageSize: number; total: number }> {
  const where = whereOf(businessId, timeZone, query);
  return plainPage(
    query,
    db
      .selectFrom('business_events')
      .select(['id', 'created_at', 'actor', 'actor_user_id', 'action', 'details', 'ip_address'])
      .where(where)
      .orderBy(query.sortDirection === 'asc' ? sql`created_at ASC, seq ASC` : sql`created_at DESC, seq DESC`),
    db.selectFrom('business_events').where(where),
    (rows) => rows.map(entryOf),
  );
}

/** Who appears in the log: each person once (by their latest label), then operations and jobs. */
export async function auditActors(db: Kysely<DB>, businessId: string): Promise<{ actor: string; actorUserId: string | null }[]> {
  const rows = await db
    .selectFrom('business_events')
    .select(['actor_user_id', sql<string>`(array_agg(actor ORDER BY created_at DESC))[1]`.as('actor')])
    .where('business_id', '=', businessId)
    .groupBy(['actor_user_id', sql`CASE WHEN actor_user_id IS NULL THEN actor END`])
    .execute();
  return rows
    .map((r) => ({ actor: r.actor, actorUserId: r.actor_user_id }))
    .sort((a, b) => Number(a.actorUserId === null) - Number(b.actorUserId === null) || a.actor.localeCompare(b.actor));
}

const BATCH = 1000;

/** The CSV of every entry the query matches, in batches: memory stays flat. */
export async function* exportAudit(
  db: Kysely<DB>,
  { businessId, timeZone, query }: { businessId: string; timeZone: string; query: Omit<AuditListQuery, 'page' | 'pageSize'> },
): AsyncGenerator<string> {
  const where = whereOf(businessId, timeZone, query);
  yield `\ufeff${csvRow([`When (${timeZone})`, 'Who', 'Kind', 'What', 'Changes', 'Address'])}\r\n`;
  // By keyset on (created_at, seq), newest first: entries written meanwhile neither shift nor repeat rows.
  let after: { key: string; seq: string } | null = null;
  for (;;) {
    let select = db
      .selectFrom('business_events')
      .select(['id', 'created_at', 'actor', 'actor_user_id', 'action', 'details', 'ip_address', sql<string>`created_at::text`.as('sort_key'), 'seq'])
      .where(where);
    if (after) select = select.where(sql<SqlBool>`(created_at, seq) < (${after.key}::timestamptz, ${after.seq}::bigint)`);
    const rows = await select
      .orderBy(sql`created_at DESC, id DESC`)
      .limit(BATCH)
      .execute();
    if (rows.length === 0) return;
    yield rows
      .map(entryOf)
      .map(
        (e) =>
          `${csvRow([
            formatDateTime(new Date(e.createdAt), timeZone),
            e.actor,
            AUDIT_KIND_LABELS[e.kind],
            e.summary,
            e.changes.map((c) => `${c.field}: ${text(c.before)} → ${text(c.after)}`).join('; '),
            e.ipAddress ?? '',
          ])}\r\n`,
      )
      .join('');
    const last = rows[rows.length - 1]!;
    after = { key: last.sort_key, seq: last.seq };
    if (rows.length < BATCH) return;
  }
}
