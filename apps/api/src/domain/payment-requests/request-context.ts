import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../db/schema';
import type { Mailer } from '../../mail/mailer';
import type { Actor } from './transition';

/** What every request use case needs besides its own input. */
export interface RequestContext {
  db: Kysely<DB>;
  mailer: Pick<Mailer, 'send' | 'sendText' | 'sendMany'>;
  /** Keys the payer links (see `payToken`). */
  authSecret: string;
  /** Secrets `authSecret` replaced, whose links requests sent before the rotation still carry. */
  previousAuthSecrets?: readonly string[];
  publicUrl: string;
}

export interface ActingUser {
  userId: string;
  email: string;
  /** The client's address, kept on the audit log. */
  ip?: string | undefined;
}

export function userActor(user: ActingUser): Actor {
  return { type: 'user', id: user.userId, label: user.email, ip: user.ip ?? null };
}

/** The next per-business number of a kind (TRX-10001, TRX-10002…), gap-free within a commit. */
export async function nextNumber(trx: Transaction<DB>, businessId: string, name: string, first: number): Promise<number> {
  const { rows } = await sql<{ value: number }>`
    INSERT INTO business_counters (business_id, name, value) VALUES (${businessId}, ${name}, ${first})
    ON CONFLICT (business_id, name) DO UPDATE SET value = business_counters.value + 1
    RETURNING value`.execute(trx);
  return Number(rows[0]!.value);
}
