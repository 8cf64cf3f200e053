import { formatDay, formatMoney } from '@tay/contract';
import type { Executor } from '../../db/executor';
import type { AttachmentRecipe, MailAttachment, MailMessage } from '../../mail/mailer';
import { todayIn, type RequestRow } from '../payment-requests/request-record';
import { invoiceNumber } from './invoice-number';
import type { RequestEmailKind } from '../payment-requests/request-emails';
import { selectInvoice, toInvoice, type InvoiceRow } from './invoice-record';
import { renderInvoicePdf } from './render-invoice-pdf';

/** The business as its invoices print it: name, address lines, contact, logo. */
async function businessOnInvoice(db: Executor, businessId: string) {
  const b = await db
    .selectFrom('businesses')
    .select([
      'business_name',
      'email',
      'phone',
      'address_line1',
      'address_line2',
      'address_city',
      'address_state',
      'address_postal_code',
      'logo',
      'logo_content_type',
      'time_zone',
    ])
    .where('id', '=', businessId)
    .executeTakeFirstOrThrow();
  const cityLine = [b.address_city, [b.address_state, b.address_postal_code].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  return {
    timeZone: b.time_zone,
    business: {
      name: b.business_name,
      email: b.email,
      phone: b.phone,
      address: [b.address_line1, b.address_line2, cityLine].filter((l): l is string => Boolean(l)),
      logo: b.logo && b.logo_content_type ? { bytes: new Uint8Array(b.logo), contentType: b.logo_content_type } : null,
    },
  };
}

/** The invoice's PDF as it stands (GET …/pdf, and the e-mails' attachment). */
export async function invoicePdf(db: Executor, row: InvoiceRow, payLink: string | null): Promise<Uint8Array> {
  const { business, timeZone } = await businessOnInvoice(db, row.business_id);
  return renderInvoicePdf({ business, invoice: toInvoice(row, todayIn(timeZone)), payLink });
}

export const invoicePdfName = (number: number) => `${invoiceNumber(number)}.pdf`;

/** The kind of an e-mail attachment that is an invoice's PDF, made in the delivery job. */
export const INVOICE_PDF = 'invoice-pdf';

/** Draws an invoice's PDF for an e-mail, from its recipe: the invoice as it stands, with the payer's link on it. */
export async function renderInvoicePdfAttachment(db: Executor, recipe: AttachmentRecipe): Promise<Uint8Array> {
  const { businessId, invoiceId, payLink } = recipe as AttachmentRecipe & { businessId: string; invoiceId: string; payLink: string | null };
  return invoicePdf(db, await selectInvoice(db, businessId, invoiceId), payLink);
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/**
 * The e-mail of an invoice's request — its first sending, a resend or a reminder — with the
 * invoice's PDF attached and the payer's link. What is left to pay is the invoice's balance.
 */
export async function invoiceEmail(db: Executor, request: RequestRow, businessName: string, kind: RequestEmailKind, link: string): Promise<MailMessage> {
  // The request collects the invoice its source names (ADR 045).
  const row = await selectInvoice(db, request.business_id, request.source_id!);
  const number = invoiceNumber(row.number);
  const balance = formatMoney(row.total_cents - row.amount_paid_cents);
  const subject =
    kind === 'reminder'
      ? `Reminder: invoice ${number} from ${businessName}, ${balance} due ${formatDay(row.due_date)}`
      : `Invoice ${number} from ${businessName}: ${balance} due ${formatDay(row.due_date)}`;
  const lines = [
    kind === 'reminder'
      ? `This is a reminder that invoice ${number} from ${businessName} has ${balance} left to pay.`
      : `${businessName} has sent you invoice ${number} for ${formatMoney(row.total_cents)}.`,
    ...(row.amount_paid_cents > 0 ? [`Paid so far: ${formatMoney(row.amount_paid_cents)}. Balance due: ${balance}.`] : []),
    `Due: ${formatDay(row.due_date)}. The link works until ${formatDay(request.expires_on)}.`,
    ...(row.allow_partial ? ['You may pay it in parts.'] : []),
    ...(row.memo ? [row.memo] : []),
    'The invoice is attached as a PDF.',
  ];
  // The PDF is drawn by the delivery job (ADR 045), from the invoice as it is then.
  const attachment: MailAttachment = {
    filename: invoicePdfName(row.number),
    contentType: 'application/pdf',
    render: { kind: INVOICE_PDF, businessId: row.business_id, invoiceId: row.id, payLink: link },
  };
  return {
    about: { businessId: request.business_id, requestId: request.id },
    to: request.payer_email,
    subject,
    text: `${lines.join('\n')}\n\nView and pay the invoice here: ${link}\n\nInvoice: ${number}\n`,
    html: `<!doctype html><html lang="en"><body style="font-family:system-ui,sans-serif;color:#1a1b1e;max-width:560px;margin:0 auto;padding:24px">
<h1 style="font-size:20px">${escape(subject)}</h1>${lines.map((l) => `<p>${escape(l)}</p>`).join('')}
<p><a href="${escape(link)}" style="display:inline-block;background:#1c7ed6;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">View and pay ${escape(balance)}</a></p>
<p style="color:#868e96;font-size:12px">Or open this link: ${escape(link)}<br>Payments are processed securely by Tay on behalf of the business.</p></body></html>`,
    attachments: [attachment],
  };
}
