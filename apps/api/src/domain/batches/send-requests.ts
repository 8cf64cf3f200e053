import { sql } from 'kysely';
import { formatDateTime } from '@tay/contract';
import { userActor } from '../payment-requests/request-context';
import { requestEmail, requestText } from '../payment-requests/request-emails';
import { payLink, payToken, payTokenHash, type RequestRow } from '../payment-requests/request-record';
import type { SendContext, SendOutcome } from './batch-kind';

/** One request a batch row sends, its row already checked again. */
export interface RequestToSend {
  line: number;
  id: string;
  /** Who pays and what. */
  values: Pick<
    RequestRow,
    'payer_id' | 'payer_display_name' | 'payer_email' | 'amount_cents' | 'memo' | 'reference' | 'due_date' | 'expires_on' | 'allow_partial' | 'channel'
  >;
  /** Further columns of the request, e.g. a student's, or a patient's statement (ADR 037). */
  columns?: Partial<
    Pick<
      RequestRow,
      | 'student_id'
      | 'student_name'
      | 'program_id'
      | 'program_name'
      | 'period'
      | 'period_start'
      | 'copy_payer_id'
      | 'patient_id'
      | 'patient_name'
      | 'patient_first_name'
      | 'date_of_service'
      | 'statement_lines'
    >
  >;
  /** The payer's mobile number: an 'sms' request is texted to it. */
  mobile: string | null;
  /** Someone e-mailed the same link too (a student's second guardian). */
  copy?: { display_name: string; email: string } | null;
  /** The timeline's detail of its creation: "From bulk batch …". */
  detail: string;
}

/** The further columns as they are written: a statement's lines as JSON text (the row the messages read keeps the array). */
function columnsToInsert(columns: RequestToSend['columns']) {
  if (!columns) return {};
  const { statement_lines, ...rest } = columns;
  return statement_lines === undefined ? rest : { ...rest, statement_lines: statement_lines === null ? null : JSON.stringify(statement_lines) };
}

/**
 * Writes a chunk of a batch's requests as sent, set-based in the engine's transaction: their
 * numbers, the requests, their timelines (create, then send) and their e-mails and texts are
 * each one statement. Returns each row's request, in the order given.
 */
export async function insertSentRequests(send: SendContext, items: RequestToSend[]): Promise<SendOutcome[]> {
  const { ctx, trx, business, batchId, user, scheduledFor } = send;
  if (items.length === 0) return [];

  // The chunk's numbers in one step: TRX-<last - n + 1> … TRX-<last>, gap-free within the commit.
  const { rows: counter } = await sql<{ value: string }>`
    INSERT INTO business_counters (business_id, name, value) VALUES (${business.id}, 'request', ${10000 + items.length})
    ON CONFLICT (business_id, name) DO UPDATE SET value = business_counters.value + ${items.length}
    RETURNING value`.execute(trx);
  const first = Number(counter[0]!.value) - items.length + 1;

  const now = new Date();
  const actor = userActor(user);
  const made = items.map((item, i) => {
    const token = payToken(ctx.authSecret, item.id, now);
    const row = {
      business_id: business.id,
      id: item.id,
      number: first + i,
      ...item.values,
      amount_paid_cents: 0,
      state: 'Sent',
      send_at: null,
      sent_at: now,
      paid_at: null,
      pay_token_hash: payTokenHash(token),
      last_reminder_offset: null,
      created_by: user.userId,
      created_at: now,
      updated_at: now,
      // The whole row as the messages read it: a batch's request collects no invoice and no QR code
      // (a text message names the request's TRX- reference, not an invoice's).
      batch_id: batchId,
      invoice_id: null,
      invoice_number: null,
      qr_code_id: null,
      qr_code_label: null,
      // Not a patient's statement unless the columns say so (migration 0039).
      patient_id: null,
      patient_name: null,
      patient_first_name: null,
      date_of_service: null,
      statement_lines: null,
      ...item.columns,
    } as RequestRow;
    const texted = row.channel === 'sms' && item.mobile ? item.mobile : null;
    return { item, row, link: payLink(ctx.publicUrl, token), texted };
  });

  await trx
    .insertInto('payment_requests')
    .values(
      made.map(({ item, row }) => ({
        business_id: row.business_id,
        id: row.id,
        number: row.number,
        payer_id: row.payer_id,
        payer_display_name: row.payer_display_name,
        payer_email: row.payer_email,
        amount_cents: row.amount_cents,
        memo: row.memo,
        reference: row.reference,
        due_date: row.due_date,
        expires_on: row.expires_on,
        allow_partial: row.allow_partial,
        channel: row.channel,
        state: row.state,
        send_at: null,
        sent_at: row.sent_at,
        paid_at: null,
        pay_token_hash: row.pay_token_hash,
        last_reminder_offset: null,
        created_by: user.userId,
        batch_id: batchId,
        ...columnsToInsert(item.columns),
      })),
    )
    .execute();

  const scheduled = scheduledFor ? ` (scheduled for ${formatDateTime(scheduledFor, business.timeZone)}, ${business.timeZone})` : '';
  const how = (m: (typeof made)[number]) =>
    m.texted ? `Texted to ${m.texted}` : `E-mailed to ${m.row.payer_email}${m.item.copy ? ` and ${m.item.copy.email}` : ''}`;
  await trx
    .insertInto('payment_request_events')
    .values(
      made.flatMap((m) => [
        {
          business_id: business.id,
          request_id: m.row.id,
          actor_type: actor.type,
          actor_id: actor.id,
          actor_label: actor.label,
          event: 'create',
          from_state: null,
          to_state: 'Draft' as const,
          detail: m.item.detail,
          ip_address: actor.ip ?? null,
        },
        {
          business_id: business.id,
          request_id: m.row.id,
          actor_type: actor.type,
          actor_id: actor.id,
          actor_label: actor.label,
          event: 'send',
          from_state: 'Draft' as const,
          to_state: 'Sent' as const,
          detail: `${how(m)}${scheduled}`,
          ip_address: actor.ip ?? null,
        },
      ]),
    )
    .execute();

  // The payer's e-mail (and the same link to the copied one, unless it is the same address), or the text.
  const emails = made.flatMap((m) => {
    if (m.texted) return [];
    const mail = requestEmail('request', m.row, business.name, m.link);
    if (!m.item.copy) return [mail];
    const copyRow = { ...m.row, payer_display_name: m.item.copy.display_name, payer_email: m.item.copy.email };
    const copy = requestEmail('request', copyRow, business.name, m.link);
    return mail.to === copy.to ? [mail] : [mail, { ...copy, to: m.item.copy.email }];
  });
  const texts = made.flatMap((m) => (m.texted ? [requestText('request', m.row, business.name, m.link, m.texted)] : []));
  await ctx.mailer.sendMany(emails, texts, trx);
  return made.map((m) => ({ line: m.item.line, requestId: m.row.id }));
}
