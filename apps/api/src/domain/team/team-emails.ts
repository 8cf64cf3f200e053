import { formatDay } from '@tay/contract';
import type { MailMessage } from '../../mail/mailer';

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const day = (date: Date) => formatDay(date.toISOString().slice(0, 10));

function page(title: string, paragraphs: string[], button: { label: string; href: string }, small: string): string {
  return `<!doctype html><html lang="en"><body style="font-family:system-ui,sans-serif;color:#1a1b1e;max-width:560px;margin:0 auto;padding:24px">
<h1 style="font-size:20px">${escape(title)}</h1>${paragraphs.map((p) => `<p>${escape(p)}</p>`).join('')}
<p><a href="${escape(button.href)}" style="display:inline-block;background:#1c7ed6;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">${escape(button.label)}</a></p>
<p style="color:#868e96;font-size:12px">Or open this link: ${escape(button.href)}<br>${escape(small)}</p></body></html>`;
}

/** To a new person: their account, its temporary password, and the new-password challenge ahead. */
export function newMemberEmail(m: {
  to: string;
  businessName: string;
  invitedBy: string;
  roleLabel: string;
  temporaryPassword: string;
  expiresAt: Date;
  signInUrl: string;
}): MailMessage {
  const subject = `${m.invitedBy} added you to ${m.businessName} on Tay`;
  const lead = `${m.invitedBy} added you to ${m.businessName} on Tay as ${m.roleLabel}.`;
  const how = `Sign in with your e-mail address and this temporary password: ${m.temporaryPassword} — you will then choose a password of your own. The temporary password works until ${day(m.expiresAt)}.`;
  const ignore = `If you did not expect this, ignore this e-mail; nobody can use the account without the password above.`;
  return {
    to: m.to,
    subject,
    text: `Hello,\n\n${lead}\n\n${how}\n\nSign in: ${m.signInUrl}\n\n${ignore}\n`,
    html: page(subject, [lead, how], { label: 'Sign in to Tay', href: m.signInUrl }, ignore),
  };
}

/**
 * To a person with a Tay account: a link to accept, signed in. `setPasswordUrl` when they have
 * not chosen a password yet (another business e-mailed them a temporary one and they never
 * signed in): they set their own through "Forgot password?", which works whatever became of the
 * temporary password, and then accept. This e-mail never names the other business.
 */
export function invitationEmail(m: {
  to: string;
  businessName: string;
  invitedBy: string;
  roleLabel: string;
  link: string;
  expiresAt: Date;
  setPasswordUrl?: string;
}): MailMessage {
  const subject = `${m.invitedBy} invites you to join ${m.businessName} on Tay`;
  const lead = `${m.invitedBy} invites you to join ${m.businessName} on Tay as ${m.roleLabel}. Sign in with your Tay account and accept the invitation; it works until ${day(m.expiresAt)}.`;
  const setPassword = m.setPasswordUrl
    ? `You have a Tay account at this address but have not chosen your password yet. Choose it first: open ${m.setPasswordUrl} ("Forgot password?" on the sign-in page), enter this address, and we e-mail you a code to set your password with. If you still have the temporary password from an earlier Tay e-mail, you can sign in with it instead and choose your password then. Then open the invitation link below again to accept.`
    : undefined;
  const ignore = 'If you do not want to join, ignore this e-mail; nothing changes until you accept.';
  const paragraphs = setPassword ? [lead, setPassword] : [lead];
  return {
    to: m.to,
    subject,
    text: `Hello,\n\n${paragraphs.join('\n\n')}\n\nAccept the invitation: ${m.link}\n\n${ignore}\n`,
    html: page(subject, paragraphs, { label: 'Accept the invitation', href: m.link }, ignore),
  };
}
