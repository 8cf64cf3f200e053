import nodemailer, { type Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '../db/executor';
import { jobDb } from '../db/executor';
import type { Kysely, Selectable } from 'kysely';
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
  /** Files sent with it (an invoice's PDF), kept with the message until it is delivered. */
  attachments?: MailAttachment[];
}

/**
 * A file sent with a message: its bytes, or how to make them (`render`: a recipe its kind's
 * renderer turns into the bytes in the delivery job, so an invoice's PDF is drawn there rather
 * than in the transaction that sends it). Either way the outbox keeps the bytes with the message
 * until it is delivered.
 */
export type MailAttachment = { filename: string; contentType: string } & ({ content: Uint8Array } | { render: AttachmentRecipe });

/** What a renderer needs to make a file: its kind (`invoice-pdf`) and its own fields, as JSON. */
export interface AttachmentRecipe {
  kind: string;
  [field: string]: unknown;
}

/** Makes the bytes of an attachment from its recipe (registered by kind when the mailer is made). */
export type AttachmentRenderer = (recipe: AttachmentRecipe) => Promise<Uint8Array>;

/** A text message (SMS) to a mobile number in E.164 form (ADR 020). */
export interface TextMessage {
  to: string;
  text: string;
  about?: { businessId: string; requestId: string };
}

export interface Mailer {
  readonly transport: 'outbox' | 'smtp';
  /** `sms-api` with SMS_API_URL; otherwise text messages stay in the outbox. */
  readonly textTransport: 'outbox' | 'sms-api';
  /**
   * Records the message and, with SMTP, queues its delivery. Pass `executor` to make the
   * message part of a transaction: it is sent only if that transaction commits.
   */
  send(message: MailMessage, executor?: Executor): Promise<string>;
  /** The same for a text message, delivered through the SMS provider's API. */
  sendText(message: TextMessage, executor?: Executor): Promise<string>;
  /**
   * Many e-mails and text messages at once (a bulk batch): one insert into the outbox and, when
   * they are to be delivered, one insert of their delivery jobs, in the caller's transaction.
   */
  sendMany(emails: MailMessage[], texts: TextMessage[], executor: Executor): Promise<void>;
  /** Delivers a queued message over SMTP, or a text message to the SMS provider (the `mail.deliver` job). */
  deliver(messageId: string): Promise<void>;
  close(): void;
}

export interface MailerOptions {
  db: Kysely<DB>;
  jobs: Pick<Jobs, 'send' | 'insert'>;
  log: FastifyBaseLogger;
  smtpUrl: string | undefined;
  from: string;
  /** The SMS provider's Messages endpoint (Twilio's form) and the number messages come from. */
  sms?: { apiUrl: string; from: string } | undefined;
  /** The renderers of the attachments that are made in the delivery job, by recipe kind. */
  renderers?: Record<string, AttachmentRenderer>;
}

/**
 * Hands a text message to the SMS provider: Twilio's Messages API form (`To`, `From`, `Body`,
 * HTTP basic auth from the URL's user and password). Anything but a 2xx answer is an error that
 * carries the provider's own message, so the request's detail can show why.
 */
export async function postTextMessage(apiUrl: string, from: string, to: string, body: string): Promise<void> {
  const url = new URL(apiUrl);
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
  if (url.username || url.password) {
    headers.authorization = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
    url.username = '';
    url.password = '';
  }
  const response = await fetch(url, {
    method: 'POST',
    headers,
    body: new URLSearchParams({ To: to, From: from, Body: body }),
    signal: AbortSignal.timeout(15_000),
  });
  if (response.ok) return;
  const text = await response.text().catch(() => '');
  let reason = text.slice(0, 300);
  try {
    const parsed = JSON.parse(text) as { message?: unknown };
    if (typeof parsed.message === 'string') reason = parsed.message;
  } catch {
    // not JSON: the text as it came
  }
  throw new Error(`The SMS provider answered ${response.status}${reason ? `: ${reason}` : ''}`);
}

type MailOutboxRow = Selectable<DB['mail_outbox']>;
/** A file as the outbox keeps it once made: its bytes as base64. */
type StoredAttachment = { filename: string; contentType: string; content: string };

/** A message on its way into the outbox: what it says, how it goes, and whether it is to be delivered. */
interface Outgoing {
  channel: 'email' | 'sms';
  to: string;
  subject: string;
  text: string;
  html: string | null;
  transport: 'outbox' | 'smtp' | 'sms-api';
  queued: boolean;
  about: MailMessage['about'];
  attachments?: MailAttachment[] | undefined;
}

function outboxValues(id: string, m: Outgoing) {
  return {
    id,
    channel: m.channel,
    to_address: m.to,
    subject: m.subject,
    text_body: m.text,
    html_body: m.html,
    transport: m.transport,
    status: m.queued ? ('queued' as const) : ('stored' as const),
    last_error: null,
    sent_at: null,
    ...(m.about ? { business_id: m.about.businessId, request_id: m.about.requestId } : {}),
    ...(m.attachments?.length
      ? {
          attachments: JSON.stringify(
            m.attachments.map((a) =>
              'render' in a
                ? { filename: a.filename, contentType: a.contentType, render: a.render }
                : { filename: a.filename, contentType: a.contentType, content: Buffer.from(a.content).toString('base64') },
            ),
          ),
        }
      : {}),
  };
}

/** Whether a message still has files to make before it can go (or be read in the outbox). */
const hasRecipes = (attachments: MailAttachment[] | undefined) => Boolean(attachments?.some((a) => 'render' in a));

export function createMailer({ db, jobs, log, smtpUrl, from, sms, renderers = {} }: MailerOptions): Mailer {
  const smtp: Transporter | null = smtpUrl ? nodemailer.createTransport(smtpUrl) : null;
  const transport = smtp ? 'smtp' : 'outbox';
  const textTransport = sms ? 'sms-api' : 'outbox';

  /**
   * Records a message in the outbox and, when it is to be delivered (`queued`), queues its
   * delivery in the same executor: it goes only if the caller's transaction commits.
   */
  async function record(executor: Executor, m: Outgoing): Promise<string> {
    const id = newId('msg');
    await executor.insertInto('mail_outbox').values(outboxValues(id, m)).execute();
    // A message with files to make goes through the delivery job even to the outbox: the job makes them.
    if (m.queued || hasRecipes(m.attachments)) await jobs.send('mail.deliver', { messageId: id }, { db: jobDb(executor), singletonKey: id });
    return id;
  }

  /**
   * Makes the files of a message that are still recipes, and keeps them with it: once, by the
   * delivery job (a retry after a crash makes what is still missing). Returns the files as stored.
   */
  async function renderAttachments(messageId: string, stored: NonNullable<MailOutboxRow['attachments']>): Promise<StoredAttachment[]> {
    if (!stored.some((a) => 'render' in a)) return stored as StoredAttachment[];
    const made: StoredAttachment[] = [];
    for (const a of stored) {
      if (!('render' in a) || !a.render) {
        made.push(a as StoredAttachment);
        continue;
      }
      const render = renderers[a.render.kind];
      if (!render) throw new Error(`No renderer for attachments of kind ${a.render.kind}.`);
      made.push({ filename: a.filename, contentType: a.contentType, content: Buffer.from(await render(a.render)).toString('base64') });
    }
    await db
      .updateTable('mail_outbox')
      .set({ attachments: JSON.stringify(made) })
      .where('id', '=', messageId)
      .execute();
    return made;
  }

  /** Marks a delivery done, or failed with the reason (and throws, so the job retries it). */
  async function delivered(messageId: string, attempt: () => Promise<void>): Promise<void> {
    try {
      await attempt();
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
  }

  const OUTBOX_CHUNK = 1000;

  return {
    transport,
    textTransport,
    async sendMany(emails, texts, executor) {
      const rows = [
        ...emails.map((m) => ({
          channel: 'email' as const,
          to: m.to,
          subject: m.subject,
          text: m.text,
          html: m.html ?? null,
          transport: transport as 'outbox' | 'smtp' | 'sms-api',
          queued: Boolean(smtp),
          about: m.about,
        })),
        ...texts.map((m) => ({
          channel: 'sms' as const,
          to: m.to,
          subject: '',
          text: m.text,
          html: null,
          transport: textTransport as 'outbox' | 'smtp' | 'sms-api',
          queued: Boolean(sms),
          about: m.about,
        })),
      ].map((m) => ({ ...m, id: newId('msg') }));
      for (let i = 0; i < rows.length; i += OUTBOX_CHUNK) {
        const chunk = rows.slice(i, i + OUTBOX_CHUNK);
        await executor
          .insertInto('mail_outbox')
          .values(chunk.map((m) => outboxValues(m.id, m)))
          .execute();
        const queued = chunk.filter((m) => m.queued);
        if (queued.length > 0)
          await jobs.insert(
            'mail.deliver',
            queued.map((m) => ({ data: { messageId: m.id }, singletonKey: m.id })),
            { db: jobDb(executor) },
          );
      }
      if (rows.some((m) => !m.queued)) log.info({ mail: { stored: rows.filter((m) => !m.queued).length } }, 'bulk messages stored in the outbox');
    },
    async sendText(message, executor = db) {
      const id = await record(executor, {
        channel: 'sms',
        to: message.to,
        subject: '',
        text: message.text,
        html: null,
        transport: textTransport,
        queued: Boolean(sms),
        about: message.about,
      });
      if (!sms) log.info({ sms: { id, to: message.to } }, 'text message stored in the outbox (no SMS_API_URL)');
      return id;
    },
    async send(message, executor = db) {
      const id = await record(executor, {
        channel: 'email',
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html ?? null,
        transport,
        queued: Boolean(smtp),
        about: message.about,
        attachments: message.attachments,
      });
      if (!smtp) log.info({ mail: { id, to: message.to, subject: message.subject } }, 'e-mail stored in the outbox (no SMTP_URL)');
      return id;
    },
    async deliver(messageId) {
      const message = await db.selectFrom('mail_outbox').selectAll().where('id', '=', messageId).executeTakeFirst();
      if (!message || message.status === 'sent') return;
      const attachments = message.attachments ? await renderAttachments(messageId, message.attachments) : null;
      if (message.channel === 'sms') {
        if (!sms || message.transport !== 'sms-api') return;
        await delivered(messageId, () => postTextMessage(sms.apiUrl, sms.from, message.to_address, message.text_body));
        return;
      }
      if (!smtp || message.transport !== 'smtp') return;
      await delivered(messageId, async () => {
        await smtp.sendMail({
          from,
          to: message.to_address,
          subject: message.subject,
          text: message.text_body,
          ...(message.html_body ? { html: message.html_body } : {}),
          ...(attachments
            ? {
                attachments: attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: Buffer.from(a.content, 'base64') })),
              }
            : {}),
          messageId: `<${message.id}@tay>`,
        });
      });
    },
    close() {
      smtp?.close();
    },
  };
}
