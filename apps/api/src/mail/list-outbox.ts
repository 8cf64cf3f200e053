import type { Kysely } from 'kysely';
import type { OutboxMessage } from '@tay/contract';
import type { DB } from '../db/schema';

export interface ListOutboxOptions {
  db: Kysely<DB>;
  to?: string | undefined;
  limit: number;
}

/** Newest first; `to` matches the recipient address case-insensitively. */
export async function listOutbox({ db, to, limit }: ListOutboxOptions): Promise<OutboxMessage[]> {
  let query = db
    .selectFrom('mail_outbox')
    .select(['id', 'channel', 'to_address', 'subject', 'text_body', 'html_body', 'created_at'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit);
  if (to) query = query.where((eb) => eb(eb.fn('lower', ['to_address']), '=', to.toLowerCase()));
  const rows = await query.execute();
  return rows.map((row) => ({
    id: row.id,
    channel: row.channel,
    to: row.to_address,
    subject: row.subject,
    text: row.text_body,
    html: row.html_body,
    createdAt: row.created_at.toISOString(),
  }));
}
