import nodemailer, { type Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '../db/executor';
import { jobDb } from '../db/executor';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';
import type { Jobs } from '../jobs/queue';
import { newId } from '../lib/ids';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** The request to pay it is about: its detail view then shows how the delivery went. */
  about?: { businessId: string; requestId: string };
}

export interface Mailer {
  readonly transport: 'outbox' | 'smtp';
  /**
   * Records the message and, with SMTP, queues its delivery. Pass `executor` to make the
   * message part of a transaction: it is sent only if that transaction commits.
   */
  send(message: MailMessage, executor?: Executor): Promise<string>;
  /** Delivers a queued message over SMTP (the `mail.deliver` job). */
  deliver(messageId: string): Promise<void>;
  close(): void;
}

export interface MailerOptions {
  db: Kysely<DB>;
  jobs: Pick<Jobs, 'send'>;
  log: FastifyBaseLogger;
  smtpUrl: string | undefined;
  from: string;
}

export function createMailer({ db, jobs, log, smtpUrl, from }: MailerOptions): Mailer {
  const smtp: Transporter | null = smtpUrl ? nodemailer.createTransport(smtpUrl) : null;
  const transport = smtp ? 'smtp' : 'outbox';

  return {
    transport,
    async send(message, executor = db) {
      const id = newId('msg');
      await executor
        .insertInto('mail_outbox')
        .values({
          id,
          to_address: message.to,
          subject: message.subject,
          text_body: message.text,
          html_body: message.html ?? null,
          transport,
          status: smtp ? 'queued' : 'stored',
          last_error: null,
          sent_at: null,
          ...(message.about ? { business_id: message.about.businessId, request_id: message.about.requestId } : {}),
        })
        .execute();
      if (smtp) {
        await jobs.send('mail.deliver', { messageId: id }, { db: jobDb(executor), singletonKey: id });
      } else {
        log.info({ mail: { id, to: message.to, subject: message.subject } }, 'e-mail stored in the outbox (no SMTP_URL)');
      }
      return id;
    },
    async deliver(messageId) {
      if (!smtp) return;
      const message = await db.selectFrom('mail_outbox').selectAll().where('id', '=', messageId).executeTakeFirst();
      if (!message || message.status === 'sent') return;
      try {
        await smtp.sendMail({
          from,
          to: message.to_address,
          subject: message.subject,
          text: message.text_body,
          ...(message.html_body ? { html: message.html_body } : {}),
          messageId: `<${message.id}@tay>`,
        });
        await db
          .updateTable('mail_outbox')
          .set((eb) => ({ status: 'sent', sent_at: new Date(), attempts: eb('attempts', '+', 1), last_error: null }))
          .where('id', '=', messageId)
          .execute();
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        await db
          .updateTable('mail_outbox')
          .set((eb) => ({ status: 'failed', attempts: eb('attempts', '+', 1), last_error: reason.slice(0, 1000) }))
          .where('id', '=', messageId)
          .execute();
        throw error;
      }
    },
    close() {
      smtp?.close();
    },
  };
}
