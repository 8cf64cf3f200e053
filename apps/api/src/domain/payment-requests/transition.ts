import { canApply, ErrorCode, type RequestEvent, type RequestState, type RequestTimelineEvent } from '@tay/contract';
import type { Executor } from '../../db/executor';
import { AppError } from '../../lib/app-error';

export interface Actor {
  type: 'user' | 'payer' | 'system' | 'operations';
  id: string | null;
  /** Shown in the timeline: a person's e-mail, "Payer (ana@example.com)", "System". */
  label: string;
  /** The client's address, for a person's change (the audit log). */
  ip?: string | null;
}

export const SYSTEM: Actor = { type: 'system', id: null, label: 'System' };

export interface TransitionOptions {
  db: Executor;
  businessId: string;
  requestId: string;
  event: RequestEvent;
  from: RequestState;
  to: RequestState;
  actor: Actor;
  detail?: string | null;
  /** Other columns to set in the same update (sent_at, amount_paid_cents…). */
  set?: Record<string, unknown>;
}

/**
 * Moves a request from `from` to `to` if the state machine allows it, and records who did what in
 * the timeline — in one statement pair inside the caller's transaction. The update is guarded by
 * the expected `from` state, so a concurrent change makes it fail instead of overwriting.
 */
export async function transitionRequest(options: TransitionOptions): Promise<void> {
  const { db, businessId, requestId, event, from, to, actor } = options;
  if (!canApply(event, from, to)) {
    throw new AppError(ErrorCode.Conflict, `A request that is ${from} cannot be moved to ${to} (${event}).`);
  }
  const result = await db
    .updateTable('payment_requests')
    .set({ ...(options.set ?? {}), state: to, updated_at: new Date() } as never)
    .where('business_id', '=', businessId)
    .where('id', '=', requestId)
    .where('state', '=', from)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) {
    throw new AppError(ErrorCode.Conflict, 'This request changed while you were working on it. Reload it and try again.');
  }
  await recordRequestEvent({ db, businessId, requestId, actor, event, from, to, detail: options.detail ?? null });
}

export async function recordRequestEvent(options: {
  db: Executor;
  businessId: string;
  requestId: string;
  actor: Actor;
  /** Only names the web app labels (contract `REQUEST_TIMELINE_EVENTS`). */
  event: RequestTimelineEvent;
  from: RequestState | null;
  to: RequestState | null;
  detail: string | null;
}): Promise<void> {
  await options.db
    .insertInto('payment_request_events')
    .values({
      business_id: options.businessId,
      request_id: options.requestId,
      actor_type: options.actor.type,
      actor_id: options.actor.id,
      actor_label: options.actor.label,
      event: options.event,
      from_state: options.from,
      to_state: options.to,
      detail: options.detail,
      ip_address: options.actor.ip ?? null,
    })
    .execute();
}
