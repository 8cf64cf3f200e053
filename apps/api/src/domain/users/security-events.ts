import type { Executor } from '../../db/executor';
import type { UserSecurityAction } from '../../db/schema/identity';
import { newId } from '../../lib/ids';
import type { MailMessage } from '../../mail/mailer';
import type { Mailer } from '../../mail/mailer';

export interface SecurityEvent {
  userId: string;
  action: UserSecurityAction;
  /** Never a secret or a code: counts and names only. */
  details?: Record<string, unknown>;
  ip?: string | null;
}

/**
 * Writes one entry to the person's security log (`user_security_events`, append-only) and, with
 * `mail`, tells them by e-mail, in one transaction: the entry and its e-mail exist together or not
 * at all (the outbox delivers after the commit).
 */
export async function recordSecurityEvent(db: Executor, mailer: Mailer, event: SecurityEvent, mail?: MailMessage): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('user_security_events')
      .values({
        id: newId('sev'),
        user_id: event.userId,
        action: event.action,
        details: JSON.stringify(event.details ?? {}),
        ip_address: event.ip ?? null,
      })
      .execute();
    if (mail) await mailer.send(mail, trx);
  });
}
