import { paths } from '@tay/contract';
import type { Executor } from '../../db/executor';
import type { Mailer, MailMessage } from '../../mail/mailer';

/** What telling a business about its review needs: the mailer, and the portal's address for the link. */
export interface ReviewMail {
  mailer: Pick<Mailer, 'send'>;
  publicUrl: string;
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** A review e-mail to one owner: a heading, paragraphs, and a button into the portal. */
function ownerEmail(
  { to, businessName, publicUrl }: { to: string; businessName: string; publicUrl: string },
  subject: string,
  lines: string[],
  cta: string,
): MailMessage {
  const link = `${publicUrl}${paths.business.home}`;
  return {
    to,
    subject,
    text: `${lines.join('\n\n')}\n\n${cta}: ${link}\n`,
    html: `<!doctype html><html lang="en"><body style="font-family:system-ui,sans-serif;color:#1a1b1e;max-width:560px;margin:0 auto;padding:24px">
<h1 style="font-size:20px">${escape(subject)}</h1>${lines.map((l) => `<p>${escape(l)}</p>`).join('')}
<p><a href="${escape(link)}" style="display:inline-block;background:#1c7ed6;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">Open Tay</a></p>
<p style="color:#868e96;font-size:12px">Tay Payments · You receive this because you own ${escape(businessName)} on Tay.</p></body></html>`,
  };
}

interface OwnerMailInput {
  to: string;
  businessName: string;
  publicUrl: string;
}

/** The e-mail the submit dialog promises: the review is done and the business may take payments. */
export function approvalEmail(input: OwnerMailInput): MailMessage {
  return ownerEmail(
    input,
    `${input.businessName} is approved on Tay`,
    [
      `We reviewed the details of ${input.businessName} and approved the business.`,
      'You can now add payers, send requests to pay and collect money; payments, reports and the rest of the portal are unlocked.',
    ],
    'Sign in to get started',
  );
}

/** Operations declined a business under review (Pending → Disabled), with their reason when they gave one. */
export function declineEmail(input: OwnerMailInput & { reason: string | null }): MailMessage {
  return ownerEmail(
    input,
    `${input.businessName} was not approved on Tay`,
    [
      `We reviewed the details of ${input.businessName} and could not approve the business.`,
      ...(input.reason ? [`Why: ${input.reason}`] : []),
      'It cannot take payments. Reply to this e-mail or contact Tay support to talk it through; the reason also shows in the portal.',
    ],
    'See it in Tay',
  );
}

/** Operations disabled an approved business (Approved → Disabled). */
export function disabledEmail(input: OwnerMailInput & { reason: string | null }): MailMessage {
  return ownerEmail(
    input,
    `${input.businessName} is disabled on Tay`,
    [
      `Tay has disabled ${input.businessName}.`,
      ...(input.reason ? [`Why: ${input.reason}`] : []),
      'While it is disabled, no request, invoice or QR code takes a payment and nothing new can be sent; what was paid stays yours. Contact Tay support to have it enabled again.',
    ],
    'See it in Tay',
  );
}

/** Operations enabled a disabled business again (Disabled → Approved). */
export function enabledEmail(input: OwnerMailInput): MailMessage {
  return ownerEmail(
    input,
    `${input.businessName} is enabled again on Tay`,
    [`Tay has enabled ${input.businessName} again.`, 'Requests, invoices and QR codes take payments again, and you can send new ones.'],
    'Open Tay',
  );
}

/**
 * E-mails every owner of the business (the people with the owner role, who submitted it or were
 * given it) the message `build` makes for them, in the caller's transaction: the e-mails exist
 * exactly when the change commits. A service e-mail: notification preferences do not turn it off.
 */
export async function emailOwners(trx: Executor, businessId: string, mail: ReviewMail, build: (to: string) => MailMessage): Promise<number> {
  const owners = await trx
    .selectFrom('business_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select('u.email')
    .where('m.business_id', '=', businessId)
    .where('m.role', '=', 'owner')
    .orderBy('m.created_at')
    .execute();
  for (const owner of owners) await mail.mailer.send(build(owner.email), trx);
  return owners.length;
}

/** Tells every owner the business is approved (see `emailOwners`). */
export async function emailApproval(trx: Executor, business: { id: string; business_name: string }, mail: ReviewMail): Promise<number> {
  return emailOwners(trx, business.id, mail, (to) => approvalEmail({ to, businessName: business.business_name, publicUrl: mail.publicUrl }));
}
