import type { Executor } from '../../db/executor';
import { newId } from '../../lib/ids';

/** Who made a change: a signed-in person, operations, or a background job. */
export interface Actor {
  userId: string | null;
  /** Readable at the time: the person's e-mail, 'operations', 'sandbox auto-approval'. */
  label: string;
  /** The client's address, for a person's change. */
  ip?: string | null;
}

export const OPERATIONS_ACTOR: Actor = { userId: null, label: 'operations' };
export const AUTO_APPROVAL_ACTOR: Actor = { userId: null, label: 'sandbox auto-approval' };

export function userActor(user: { id: string; email: string; ip?: string | undefined }): Actor & { userId: string } {
  return { userId: user.id, label: user.email, ip: user.ip ?? null };
}

export type BusinessAction =
  | 'business.created'
  | 'business.updated'
  | 'business.submitted'
  | 'business.approved'
  | 'business.disabled'
  | 'business.enabled'
  | 'payouts.enabled'
  | 'payouts.disabled'
  | 'bank_account.added'
  | 'bank_account.replaced'
  | 'logo.updated'
  | 'payer.created'
  | 'payer.updated'
  | 'payer.deleted'
  | 'payer.activated'
  | 'payer.deactivated'
  | 'payer.verification_sent'
  | 'payer.reverification_requested'
  | 'payer.verified'
  | 'payers.imported'
  | 'request.deleted'
  | 'member.invited'
  | 'member.joined'
  | 'member.role_changed'
  | 'member.removed'
  | 'invitation.revoked'
  | 'integration.connected'
  | 'integration.disconnected'
  | 'batch.uploaded'
  | 'batch.mapped'
  | 'batch.row_fixed'
  | 'batch.row_dropped'
  | 'batch.rows_dropped'
  | 'batch.discarded'
  | 'batch.submitted'
  | 'batch.unscheduled'
  | 'batch.approval_waiting'
  | 'batch.created'
  | 'invoice.deleted'
  | 'qr_code.created'
  | 'qr_code.updated'
  | 'qr_code.enabled'
  | 'qr_code.disabled'
  | 'qr_code.deleted'
  | 'payout.created'
  | 'payout.updated'
  | 'payout.deleted'
  | 'payout.submitted'
  | 'payout.approved'
  | 'refund.created'
  | 'refund.succeeded'
  | 'refund.failed'
  | 'dispute.opened'
  | 'dispute.evidence_submitted'
  | 'dispute.accepted'
  | 'dispute.won'
  | 'dispute.lost'
  | 'payout.rejected'
  | 'payout.cancelled'
  | 'payout.sent'
  | 'payout.processed'
  | 'payout.failed'
  | 'payout.returned'
  | 'payout_settings.updated'
  | 'receiver.created'
  | 'receiver.updated'
  | 'receiver.enabled'
  | 'receiver.disabled'
  | 'receiver.deleted'
  | 'receiver.link_sent'
  | 'receiver.bank_account_set'
  | 'receiver.reviewed'
  | 'event.created'
  | 'event.updated'
  | 'event.enabled'
  | 'event.disabled'
  | 'event.deleted'
  | 'program.created'
  | 'program.updated'
  | 'program.activated'
  | 'program.deactivated'
  | 'program.deleted'
  | 'students.enrolled'
  | 'enrollment.withdrawn'
  | 'student.created'
  | 'student.updated'
  | 'student.activated'
  | 'student.deactivated'
  | 'student.deleted'
  | 'students.imported'
  | 'patient.created'
  | 'patient.updated'
  | 'patient.activated'
  | 'patient.deactivated'
  | 'patient.deleted'
  | 'patient.viewed'
  | 'patients.imported'
  | 'patients.exported'
  | 'student.request_created'
  | 'patient.statement_created'
  | 'billing_cycle.created'
  | 'billing_cycle.updated'
  | 'billing_cycle.activated'
  | 'billing_cycle.deactivated'
  | 'billing_cycle.deleted'
  | 'billing_cycle.run'
  | 'billing_cycle.run_submit_failed';

/**
 * Appends one row to the business's audit trail. Call it with the transaction that makes the
 * change, so the change and its record exist together or not at all. Details never carry a
 * secret in clear (numbers are masked; owners' personal data is named, not copied).
 */
export async function recordEvent(
  executor: Executor,
  event: { businessId: string; actor: Actor; action: BusinessAction; details: Record<string, unknown> },
): Promise<void> {
  await executor
    .insertInto('business_events')
    .values({
      business_id: event.businessId,
      id: newId('evt'),
      actor_user_id: event.actor.userId,
      actor: event.actor.label,
      action: event.action,
      details: JSON.stringify(event.details),
      ip_address: event.actor.ip ?? null,
    })
    .execute();
}
