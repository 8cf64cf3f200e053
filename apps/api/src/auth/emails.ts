import type { MailMessage } from '../mail/mailer';

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function layout(title: string, body: string): string {
  return `<!doctype html><html lang="en"><body style="font-family:system-ui,sans-serif;color:#1a1b1e;max-width:560px;margin:0 auto;padding:24px">
<h1 style="font-size:20px">${escape(title)}</h1>${body}
<p style="color:#868e96;font-size:12px;margin-top:32px">Tay Payments · You receive this because of an action on your Tay account.</p></body></html>`;
}

export function codeEmail({
  to,
  code,
  purpose,
  minutes,
}: {
  to: string;
  code: string;
  purpose: 'email-verification' | 'forget-password';
  minutes: number;
}): MailMessage {
  const signUp = purpose === 'email-verification';
  const subject = signUp ? `Your Tay confirmation code: ${code}` : `Your Tay password reset code: ${code}`;
  const lead = signUp
    ? 'Enter this code to confirm your e-mail address and finish creating your Tay account.'
    : 'Enter this code with your new password to reset your Tay password.';
  const ignore = signUp
    ? 'If you did not sign up for Tay, ignore this e-mail; no account is created without the code.'
    : 'If you did not ask to reset your password, ignore this e-mail; your password stays as it is.';
  return {
    to,
    subject,
    text: `${lead}\n\nCode: ${code}\n\nThe code works once and expires in ${minutes} minutes.\n\n${ignore}\n`,
    html: layout(
      signUp ? 'Confirm your e-mail address' : 'Reset your password',
      `<p>${escape(lead)}</p><p style="font-size:28px;font-weight:700;letter-spacing:6px">${escape(code)}</p>
<p>The code works once and expires in ${minutes} minutes.</p><p>${escape(ignore)}</p>`,
    ),
  };
}

export function existingAccountEmail({ to, publicUrl }: { to: string; publicUrl: string }): MailMessage {
  const text = `Someone tried to create a Tay account with this e-mail address, but you already have one.\n\nSign in: ${publicUrl}/login\nForgot your password? Reset it: ${publicUrl}/forgot-password\n\nIf this was not you, no action is needed; your account is unchanged.\n`;
  return {
    to,
    subject: 'You already have a Tay account',
    text,
    html: layout(
      'You already have a Tay account',
      `<p>Someone tried to create a Tay account with this e-mail address, but you already have one.</p>
<p><a href="${escape(publicUrl)}/login">Sign in</a> · <a href="${escape(publicUrl)}/forgot-password">Reset your password</a></p>
<p>If this was not you, no action is needed; your account is unchanged.</p>`,
    ),
  };
}

export function temporaryPasswordEmail({ to, publicUrl }: { to: string; publicUrl: string }): MailMessage {
  return {
    to,
    subject: 'Your Tay account is ready',
    text: `An account was created for you on Tay. Sign in at ${publicUrl}/login with this e-mail address and the temporary password you were given; you will then choose your own password.\n`,
    html: layout(
      'Your Tay account is ready',
      `<p>An account was created for you on Tay. <a href="${escape(publicUrl)}/login">Sign in</a> with this e-mail address and the temporary password you were given; you will then choose your own password.</p>`,
    ),
  };
}
