import { formatDay, formatMoney } from '@tay/contract';
import type { MailMessage, TextMessage } from '../../mail/mailer';
import { referenceNumber, type RequestRow } from './request-record';
import type { RequestSourceDefinition } from './request-source';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export function html(title: string, lines: string[], link: string, button: string, table = ''): string {
  return `<!doctype html><html lang="en"><body style="font-family:system-ui,sans-serif;color:#1a1b1e;max-width:560px;margin:0 auto;padding:24px">
<h1 style="font-size:20px">${escapeHtml(title)}</h1>${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('')}${table}
<p><a href="${escapeHtml(link)}" style="display:inline-block;background:#1c7ed6;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">${escapeHtml(button)}</a></p>
<p style="color:#868e96;font-size:12px">Or open this link: ${escapeHtml(link)}<br>Payments are processed securely by Tay on behalf of the business.</p></body></html>`;
}

export type RequestEmailKind = 'request' | 'resend' | 'reminder';

/** The e-mail that asks the payer for the money, with the link to the hosted payment page; its source adds its line and table. */
export function requestEmail(kind: RequestEmailKind, row: RequestRow, businessName: string, link: string, source: RequestSourceDefinition): MailMessage {
  const remaining = row.amount_cents - row.amount_paid_cents;
  const amount = formatMoney(remaining);
  const subject =
    kind === 'reminder'
      ? `Reminder: ${amount} due to ${businessName} (${referenceNumber(row.number)})`
      : `${businessName} requests ${amount} (${referenceNumber(row.number)})`;
  const sourceLine = source.messageLine?.(row) ?? null;
  const lines = [
    kind === 'reminder' ? `This is a reminder that ${businessName} is waiting for your payment of ${amount}.` : `${businessName} asks you to pay ${amount}.`,
    ...(sourceLine ? [sourceLine] : []),
    ...(row.memo ? [`For: ${row.memo}`] : []),
    `Due: ${formatDay(row.due_date)}. The link works until ${formatDay(row.expires_on)}.`,
    ...(row.allow_partial ? [source.partsCalled ? `You may pay it in parts (${source.partsCalled}).` : 'You may pay it in parts.'] : []),
  ];
  const table = source.messageTable?.(row) ?? null;
  const text = table ? [...lines, '', ...table.text] : lines;
  return {
    about: { businessId: row.business_id, requestId: row.id },
    to: row.payer_email,
    subject,
    text: `${text.join('\n')}\n\nPay or decline here: ${link}\n\nReference: ${referenceNumber(row.number)}\n`,
    html: html(subject, lines, link, `Pay ${amount}`, table?.html),
  };
}

/**
 * The text message that asks for the money (ADR 020): short enough for two SMS segments with a
 * typical link, with the reference the payer can quote (the TRX- number, or what its source is
 * called: "invoice INV-0042"). Only the link pays; the text never asks for card or bank details.
 */
export function requestText(
  kind: RequestEmailKind,
  row: RequestRow,
  businessName: string,
  link: string,
  to: string,
  source: RequestSourceDefinition,
): TextMessage {
  const amount = formatMoney(row.amount_cents - row.amount_paid_cents);
  const ref = source.textReference?.(row) ?? referenceNumber(row.number);
  const opening = kind === 'reminder' ? `Reminder: ${businessName} is waiting for your payment of ${amount}` : `${businessName} requests ${amount}`;
  const sourceLine = source.messageLine?.(row) ?? null;
  return {
    about: { businessId: row.business_id, requestId: row.id },
    to,
    text: `${opening} (${ref})${sourceLine ? `. ${sourceLine}` : ''}, due ${formatDay(row.due_date)}. Pay or decline: ${link}`,
  };
}
