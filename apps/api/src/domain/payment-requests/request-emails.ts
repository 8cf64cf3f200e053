import { formatDay, formatMoney, patientStatementLine, studentRequestLine } from '@tay/contract';
import type { MailMessage, TextMessage } from '../../mail/mailer';
import { invoiceNumber, referenceNumber, requestStatement, type RequestRow } from './request-record';

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function html(title: string, lines: string[], link: string, button: string, table = ''): string {
  return `<!doctype html><html lang="en"><body style="font-family:system-ui,sans-serif;color:#1a1b1e;max-width:560px;margin:0 auto;padding:24px">
<h1 style="font-size:20px">${escape(title)}</h1>${lines.map((l) => `<p>${escape(l)}</p>`).join('')}${table}
<p><a href="${escape(link)}" style="display:inline-block;background:#1c7ed6;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">${escape(button)}</a></p>
<p style="color:#868e96;font-size:12px">Or open this link: ${escape(link)}<br>Payments are processed securely by Tay on behalf of the business.</p></body></html>`;
}

export type RequestEmailKind = 'request' | 'resend' | 'reminder';

/** A student's request (ADR 036) says whom it is for: "For Mia Lopez — Piano, December 2026"; null for any other request. */
export function studentLineOf(row: Pick<RequestRow, 'student_name' | 'program_name' | 'period'>): string | null {
  return studentRequestLine({ studentName: row.student_name, programName: row.program_name, period: row.period });
}

/**
 * A patient's statement (ADR 037) says whose it is by the patient's first name and the date of
 * service: "Statement for Ana — date of service Nov 20, 2026"; null for any other request. Never
 * the patient's last name, date of birth or MRN.
 */
export function patientLineOf(row: Pick<RequestRow, 'patient_first_name' | 'date_of_service'>): string | null {
  return patientStatementLine({ patientFirstName: row.patient_first_name, dateOfService: row.date_of_service });
}

const STATEMENT_HEADER = ['Service date', 'Description', 'Billed', 'Insurance paid', 'Adjustment', 'Patient responsibility'];

/** The statement's lines and totals: as text lines, and as an HTML table for the e-mail's body. */
function statementOf(row: RequestRow): { text: string[]; html: string } | null {
  const statement = requestStatement(row);
  if (!statement) return null;
  const cells = statement.lines.map((l) => [
    formatDay(l.serviceDate),
    l.description,
    formatMoney(l.billedCents),
    formatMoney(l.insurancePaidCents),
    formatMoney(l.adjustmentCents),
    formatMoney(l.responsibilityCents),
  ]);
  const t = statement.totals;
  const totals = [
    '',
    'Total',
    formatMoney(t.billedCents),
    formatMoney(t.insurancePaidCents),
    formatMoney(t.adjustmentCents),
    formatMoney(t.responsibilityCents),
  ];
  const text = [
    ...cells.map((c) => `${c[0]} — ${c[1]}: billed ${c[2]}, insurance paid ${c[3]}, adjustment ${c[4]}, patient responsibility ${c[5]}`),
    `Total: billed ${totals[2]}, insurance paid ${totals[3]}, adjustment ${totals[4]}, patient responsibility ${totals[5]}`,
  ];
  const cell = (tag: 'th' | 'td', v: string, i: number) =>
    `<${tag} style="padding:4px 6px;border-bottom:1px solid #dee2e6;text-align:${i >= 2 ? 'right' : 'left'}">${escape(v)}</${tag}>`;
  const tr = (tag: 'th' | 'td', values: string[]) => `<tr>${values.map((v, i) => cell(tag, v, i)).join('')}</tr>`;
  const table = `<table style="border-collapse:collapse;font-size:13px;width:100%;margin:8px 0 16px"><thead>${tr('th', STATEMENT_HEADER)}</thead><tbody>${cells
    .map((c) => tr('td', c))
    .join('')}</tbody><tfoot>${tr('th', totals)}</tfoot></table>`;
  return { text, html: table };
}

/** The e-mail that asks the payer for the money, with the link to the hosted payment page. */
export function requestEmail(kind: RequestEmailKind, row: RequestRow, businessName: string, link: string): MailMessage {
  const remaining = row.amount_cents - row.amount_paid_cents;
  const amount = formatMoney(remaining);
  const subject =
    kind === 'reminder'
      ? `Reminder: ${amount} due to ${businessName} (${referenceNumber(row.number)})`
      : `${businessName} requests ${amount} (${referenceNumber(row.number)})`;
  const lines = [
    kind === 'reminder' ? `This is a reminder that ${businessName} is waiting for your payment of ${amount}.` : `${businessName} asks you to pay ${amount}.`,
    ...(studentLineOf(row) ? [studentLineOf(row)!] : []),
    ...(patientLineOf(row) ? [patientLineOf(row)!] : []),
    ...(row.memo ? [`For: ${row.memo}`] : []),
    `Due: ${formatDay(row.due_date)}. The link works until ${formatDay(row.expires_on)}.`,
    ...(row.allow_partial ? [row.patient_id ? 'You may pay it in parts (a payment plan).' : 'You may pay it in parts.'] : []),
  ];
  const statement = statementOf(row);
  const text = statement ? [...lines, '', ...statement.text] : lines;
  return {
    about: { businessId: row.business_id, requestId: row.id },
    to: row.payer_email,
    subject,
    text: `${text.join('\n')}\n\nPay or decline here: ${link}\n\nReference: ${referenceNumber(row.number)}\n`,
    html: html(subject, lines, link, `Pay ${amount}`, statement?.html),
  };
}

/**
 * The text message that asks for the money (ADR 020): short enough for two SMS segments with a
 * typical link, with the reference the payer can quote. Only the link pays; the text never
 * asks for card or bank details.
 */
export function requestText(kind: RequestEmailKind, row: RequestRow, businessName: string, link: string, to: string): TextMessage {
  const amount = formatMoney(row.amount_cents - row.amount_paid_cents);
  // An invoice's text names the invoice, as its e-mail does.
  const ref = row.invoice_number === null ? referenceNumber(row.number) : `invoice ${invoiceNumber(row.invoice_number)}`;
  const opening = kind === 'reminder' ? `Reminder: ${businessName} is waiting for your payment of ${amount}` : `${businessName} requests ${amount}`;
  return {
    about: { businessId: row.business_id, requestId: row.id },
    to,
    text: `${opening} (${ref})${studentLineOf(row) ? `. ${studentLineOf(row)}` : ''}${patientLineOf(row) ? `. ${patientLineOf(row)}` : ''}, due ${formatDay(row.due_date)}. Pay or decline: ${link}`,
  };
}
