import type { MailMessage } from '../mail/mailer';

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function layout(title: string, body: string): string {
  return `<!doctype html><html lang="en"><body style="font-family:system-ui,sans-serif;color:#1a1b1e;max-width:560px;margin:0 auto;padding:24px">
<h1 style="font-size:20px">${escape(title)}</h1>${body}
<p style="color:#868e96;font-size:12px;margin-top:32px">Tay Payments · You receive this because of an action on your Tay account.</p></body></html>`;
}

const CODE_TEXTS = {
  'email-verification': {
    subject: 'Your Tay confirmation code',
    title: 'Confirm your e-mail address',
    lead: 'Enter this code to confirm your e-mail address and finish creating your Tay account.',
    ignore: 'If you did not sign up for Tay, ignore this e-mail; no account is created without the code.',
  },
  'forget-password': {
    subject: 'Your Tay password reset code',
    title: 'Reset your password',
    lead: 'Enter this code with your new password to reset your Tay password.',
    ignore: 'If you did not ask to reset your password, ignore this e-mail; your password stays as it is.',
  },
  'sign-in': {
    subject: 'Your Tay sign-in code',
    title: 'Your sign-in code',
    lead: 'Someone has been trying to sign in to your Tay account with wrong passwords, so signing in now needs this code as well as your password. Enter it on the sign-in page with your password.',
    ignore: 'If you are not signing in right now, ignore this e-mail and do not share the code: without it, nobody gets in, even with your password.',
  },
} as const;

export function codeEmail({ to, code, purpose, minutes }: { to: string; code: string; purpose: keyof typeof CODE_TEXTS; minutes: number }): MailMessage {
  const { subject, title, lead, ignore } = CODE_TEXTS[purpose];
  return {
    to,
    subject: `${subject}: ${code}`,
    text: `${lead}\n\nCode: ${code}\n\nThe code works once and expires in ${minutes} minutes.\n\n${ignore}\n`,
    html: layout(
      title,
      `<p>${escape(lead)}</p><p style="font-size:28px;font-weight:700;letter-spacing:6px">${escape(code)}</p>
<p>The code works once and expires in ${minutes} minutes.</p><p>${escape(ignore)}</p>`,
    ),
  };
}

/** To the owner of an account that many sources are guessing the password of, once an episode. */
export function signInWarningEmail({ to, publicUrl }: { to: string; publicUrl: string }): MailMessage {
  const intro = 'Someone is trying to sign in to your Tay account: we have seen many sign-in attempts with wrong passwords. Tay has not let anyone in.';
  const meanwhile =
    'For now, signing in also needs a 6-digit code that we e-mail to you when you sign in, so your account stays yours even if your password were guessed.';
  const action = 'If this was you, there is nothing to do. If it was not, and your password is easy to guess or used on another site, choose a new one:';
  return {
    to,
    subject: 'Someone is trying to sign in to your Tay account',
    text: `${intro}\n\n${meanwhile}\n\n${action} ${publicUrl}/forgot-password\n`,
    html: layout(
      'Someone is trying to sign in to your account',
      `<p>${escape(intro)}</p><p>${escape(meanwhile)}</p>
<p>${escape(action)} <a href="${escape(publicUrl)}/forgot-password">reset your password</a>.</p>`,
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

/** "If this was not you…": what every second-factor notice ends with. */
const NOT_YOU = 'If this was not you, someone knows your password: choose a new one at once';

function securityNotice({
  to,
  subject,
  title,
  lines,
  publicUrl,
}: {
  to: string;
  subject: string;
  title: string;
  lines: string[];
  publicUrl: string;
}): MailMessage {
  const reset = `${publicUrl}/forgot-password`;
  return {
    to,
    subject,
    text: `${lines.join('\n\n')}\n\n${NOT_YOU}: ${reset}\n`,
    html: layout(
      title,
      `${lines.map((line) => `<p>${escape(line)}</p>`).join('')}
<p>${escape(NOT_YOU)}: <a href="${escape(reset)}">reset your password</a>.</p>`,
    ),
  };
}

/** The second factor is on: the first code from the authenticator app checked out (ADR 052). */
export function twoFactorEnabledEmail({ to, publicUrl, recoveryCodes }: { to: string; publicUrl: string; recoveryCodes: number }): MailMessage {
  return securityNotice({
    to,
    publicUrl,
    subject: 'Two-step sign-in is on for your Tay account',
    title: 'Two-step sign-in is on',
    lines: [
      'Signing in to your Tay account now takes your password and a code from your authenticator app.',
      `Keep your ${recoveryCodes} recovery codes somewhere safe: each one signs you in once if you lose your phone.`,
    ],
  });
}

export function twoFactorDisabledEmail({ to, publicUrl }: { to: string; publicUrl: string }): MailMessage {
  return securityNotice({
    to,
    publicUrl,
    subject: 'Two-step sign-in is off for your Tay account',
    title: 'Two-step sign-in is off',
    lines: ['Two-step sign-in was turned off for your Tay account: signing in takes only your password now. Devices you had trusted are forgotten.'],
  });
}

export function recoveryCodeUsedEmail({ to, publicUrl, remaining }: { to: string; publicUrl: string; remaining: number }): MailMessage {
  const left = remaining === 0 ? 'none is left' : remaining === 1 ? '1 is left' : `${remaining} are left`;
  return securityNotice({
    to,
    publicUrl,
    subject: 'A recovery code was used on your Tay account',
    title: 'A recovery code was used',
    lines: [
      `A recovery code was used to sign in to your Tay account instead of a code from your authenticator app. It works only once: ${left}.`,
      'If you have lost your phone, sign in and set up two-step sign-in again, which gives you new recovery codes.',
    ],
  });
}

export function recoveryCodesReplacedEmail({ to, publicUrl, recoveryCodes }: { to: string; publicUrl: string; recoveryCodes: number }): MailMessage {
  return securityNotice({
    to,
    publicUrl,
    subject: 'New recovery codes for your Tay account',
    title: 'New recovery codes',
    lines: [`${recoveryCodes} new recovery codes were made for your Tay account; the earlier ones no longer work.`],
  });
}

/** Someone passed the password and then entered wrong codes: once per burst, not once per code. */
export function twoFactorCodesRefusedEmail({
  to,
  publicUrl,
  failures,
  minutes,
}: {
  to: string;
  publicUrl: string;
  failures: number;
  minutes: number;
}): MailMessage {
  return securityNotice({
    to,
    publicUrl,
    subject: 'Wrong sign-in codes were entered for your Tay account',
    title: 'Wrong sign-in codes',
    lines: [
      `Someone signed in to your Tay account with your password and then entered ${failures} wrong codes from the authenticator app. Tay has not let them in, and refuses further codes for ${minutes} minutes.`,
    ],
  });
}

/** Another of the person's devices was signed out, or all of them but the one they used (ADR 052). */
export function sessionsRevokedEmail({ to, publicUrl, count, device }: { to: string; publicUrl: string; count: number; device: string | null }): MailMessage {
  const what = device
    ? `${device} was signed out of your Tay account`
    : `${count} other device${count === 1 ? ' was' : 's were'} signed out of your Tay account`;
  return securityNotice({
    to,
    publicUrl,
    subject: device ? 'A device was signed out of your Tay account' : 'Your other devices were signed out of your Tay account',
    title: 'Signed out',
    lines: [`${what}, from the Security page. Signing in there again takes your password (and your second factor, if it is on).`],
  });
}
