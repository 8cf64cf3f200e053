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

/** The e-mail the submit dialog promises: the review is done and the business may take payments. */
export function approvalEmail({ to, businessName, publicUrl }: { to: string; businessName: string; publicUrl: string }): MailMessage {
  const subject = `${businessName} is approved on Tay`;
  const link = `${publicUrl}${paths.business.home}`;
  const lines = [
    `We reviewed the details of ${businessName} and approved the business.`,
    'You can now add payers, send requests to pay and collect money; payments, reports and the rest of the portal are unlocked.',
  ];
  return {
    to,
    subject,
    text: `${lines.join('\n\n')}\n\nSign in to get started: ${link}\n`,
    html: `<!doctype html><html lang="en"><body style="font-family:system-ui,sans-serif;color:#1a1b1e;max-width:560px;margin:0 auto;padding:24px">
<h1 style="font-size:20px">${escape(subject)}</h1>${lines.map((l) => `<p>${escape(l)}</p>`).join('')}
<p><a href="${escape(link)}" style="display:inline-block;background:#1c7ed6;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">Open Tay</a></p>
<p style="color:#868e96;font-size:12px">Tay Payments · You receive this because you own ${escape(businessName)} on Tay.</p></body></html>`,
  };
}

/**
 * E-mails every owner of the business (the people with the owner role, who submitted it or were
 * given it) that it is approved, in the caller's transaction: the e-mails exist exactly when the
 * approval commits. A service e-mail: notification preferences do not turn it off.
 */
export async function emailApproval(trx: Executor, business: { id: string; business_name: string }, mail: ReviewMail): Promise<number> {
  const owners = await trx
    .selectFrom('business_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select('u.email')
    .where('m.business_id', '=', business.id)
    .where('m.role', '=', 'owner')
    .orderBy('m.created_at')
    .execute();
  for (const owner of owners) {
    await mail.mailer.send(approvalEmail({ to: owner.email, businessName: business.business_name, publicUrl: mail.publicUrl }), trx);
  }
  return owners.length;
}
