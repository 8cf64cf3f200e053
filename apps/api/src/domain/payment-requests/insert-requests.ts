import { sql, type Transaction } from 'kysely';
import type { RequestChannel, RequestState } from '@tay/contract';
import type { DB } from '../../db/schema';
import { newId } from '../../lib/ids';
import { sourceOf } from '../request-sources';
import type { RequestRow } from './request-record';
import type { RequestSource } from './request-source';
import type { Actor } from './transition';

/** One request to make, whatever it is made for (ADR 045). */
export interface NewRequest {
  /** Its id, when the caller needs it first (to derive its link); a new one otherwise. */
  id?: string;
  payer: { id: string | null; displayName: string; email: string };
  amountCents: number;
  memo: string;
  reference: string;
  dueDate: string;
  expiresOn: string;
  allowPartial: boolean;
  channel?: RequestChannel;
  source: RequestSource;
  /** The bulk batch whose row it is. */
  batchId?: string | null;
  /** The person who made it; null for a payer's own (a payment through a QR code). */
  createdBy: string | null;
  actor: Actor;
  /** Made already sent, with the link it went with (a batch's row, a payment through a code); a Draft otherwise. */
  sent?: { at: Date; payTokenHash: string };
  /** The state its timeline's creation names: the one it is made in, unless its send is recorded next (a batch's row: Draft). */
  createdAs?: RequestState;
  /** What its timeline's creation says; by default what its source says. */
  detail?: string | null;
}

/**
 * Makes requests, inside the caller's transaction: the one way a row of `payment_requests` comes
 * to be. Their TRX- numbers in one step (gap-free within the commit), the rows with their source,
 * and each timeline's creation, each one statement however many are made. Returns the rows in the
 * order given; the caller sends, schedules or pays them from there.
 */
export async function insertRequests(trx: Transaction<DB>, businessId: string, items: readonly NewRequest[]): Promise<RequestRow[]> {
  if (items.length === 0) return [];
  const { rows: counter } = await sql<{ value: string }>`
    INSERT INTO business_counters (business_id, name, value) VALUES (${businessId}, 'request', ${10000 + items.length})
    ON CONFLICT (business_id, name) DO UPDATE SET value = business_counters.value + ${items.length}
    RETURNING value`.execute(trx);
  const first = Number(counter[0]!.value) - items.length + 1;
  const ids = items.map((item) => item.id ?? newId('req'));

  const rows = await trx
    .insertInto('payment_requests')
    .values(
      items.map((item, i) => ({
        business_id: businessId,
        id: ids[i]!,
        number: first + i,
        payer_id: item.payer.id,
        payer_display_name: item.payer.displayName,
        payer_email: item.payer.email,
        amount_cents: item.amountCents,
        memo: item.memo,
        reference: item.reference,
        due_date: item.dueDate,
        expires_on: item.expiresOn,
        allow_partial: item.allowPartial,
        ...(item.channel ? { channel: item.channel } : {}),
        state: item.sent ? ('Sent' as const) : ('Draft' as const),
        send_at: null,
        sent_at: item.sent?.at ?? null,
        paid_at: null,
        pay_token_hash: item.sent?.payTokenHash ?? null,
        last_reminder_offset: null,
        created_by: item.createdBy,
        batch_id: item.batchId ?? null,
        source_kind: item.source.kind,
        source_id: item.source.id,
        source_number: item.source.number,
        source: JSON.stringify(item.source.record),
      })),
    )
    .returningAll()
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));

  await trx
    .insertInto('payment_request_events')
    .values(
      items.map((item, i) => ({
        business_id: businessId,
        request_id: ids[i]!,
        actor_type: item.actor.type,
        actor_id: item.actor.id,
        actor_label: item.actor.label,
        event: 'create',
        from_state: null,
        to_state: item.createdAs ?? (item.sent ? ('Sent' as const) : ('Draft' as const)),
        detail: item.detail !== undefined ? item.detail : (sourceOf(item.source.kind).createdDetail?.(item.source) ?? null),
        ip_address: item.actor.ip ?? null,
      })),
    )
    .execute();
  return ids.map((id) => byId.get(id)!);
}
