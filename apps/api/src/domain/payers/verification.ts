import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { payerPaths } from '@tay/contract';
import type { Executor } from '../../db/executor';
import type { Mailer, MailMessage } from '../../mail/mailer';
import { updateOwned } from '../../db/owned-rows';

/** The secret of a verification link (256 bits, URL-safe) and the SHA-256 we keep of it. */
export function newVerificationToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashVerificationToken(token) };
}

export function hashVerificationToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export function verificationEmail({ to, payerName, businessName, link }: { to: string; payerName: string; businessName: string; link: string }): MailMessage {
  const subject = `${businessName} asks you to confirm your e-mail address`;
  const lead = `${businessName} added you as a payer on Tay, so they can send you requests to pay. Please confirm that this e-mail address is yours.`;
  const ignore = `If you do not know ${businessName}, ignore this e-mail; nothing is paid or shared without your action.`;
  return {
    to,
    subject,
    text: `Hello ${payerName},\n\n${lead}\n\nConfirm your e-mail address: ${link}\n\n${ignore}\n`,
    html: `<!doctype html><html lang="en"><body style="font-family:system-ui,sans-serif;color:#1a1b1e;max-width:560px;margin:0 auto;padding:24px">
<h1 style="font-size:20px">${escape(subject)}</h1><p>Hello ${escape(payerName)},</p><p>${escape(lead)}</p>
<p><a href="${escape(link)}" style="display:inline-block;background:#1c7ed6;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">Confirm my e-mail address</a></p>
<p style="color:#868e96;font-size:12px">Or open this link: ${escape(link)}<br>${escape(ignore)}</p></body></html>`,
  };
}

/**
 * Gives the payer a new verification link and e-mails it, as part of the caller's transaction:
 * the link exists exactly when the change commits, and any earlier link stops working.
 */
export async function sendVerificationLink(
  trx: Executor,
  {
    mailer,
    publicUrl,
    businessId,
    payer,
    businessName,
  }: {
    mailer: Pick<Mailer, 'send'>;
    publicUrl: string;
    businessId: string;
    payer: { id: string; email: string; displayName: string };
    businessName: string;
  },
): Promise<void> {
  const { token, hash } = newVerificationToken();
  await updateOwned(trx, 'payers', businessId, payer.id, { verification_token_hash: hash, verification_sent_at: sql<Date>`now()` });
  const link = `${publicUrl}${payerPaths.verify(token)}`;
  await mailer.send(verificationEmail({ to: payer.email, payerName: payer.displayName, businessName, link }), trx);
}
