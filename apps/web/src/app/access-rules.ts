import { paths } from '@tay/contract';

/** What the router knows about the person when it decides where they may be. */
export type AccessSession =
  | { status: 'loading' }
  | { status: 'anonymous' }
  /** The session check failed (the server could not say who this is). */
  | { status: 'error' }
  | {
      status: 'authenticated';
      mustChangePassword: boolean;
      /** Unknown while the user record loads. */
      userState: 'Incomplete' | 'complete' | null;
      businessCount: number | null;
    };

export type AccessDecision = { type: 'allow' } | { type: 'spinner' } | { type: 'redirect'; to: string };

const allow: AccessDecision = { type: 'allow' };
const redirect = (to: string): AccessDecision => ({ type: 'redirect', to });

function isBusinessPath(pathname: string): boolean {
  return pathname === paths.business.root || pathname.startsWith('/business/');
}

/** The pages of people who are not members: payers (`/pay/…`), receivers entering their bank account, event check-ins. */
function isPayerOrReceiverPage(pathname: string): boolean {
  return pathname.startsWith(`${paths.pay}/`) || pathname.startsWith(`${paths.receiverBankAccountRoot}/`) || pathname.startsWith(`${paths.checkInRoot}/`);
}

/** Public pages a signed-in person may still open: the payer and receiver pages, the challenge screen and an invitation. */
function isOpenToSignedIn(pathname: string): boolean {
  return isPayerOrReceiverPage(pathname) || pathname === paths.newPassword || pathname === paths.invitation;
}

/**
 * Spec §2 access rules, in one place:
 * - every /business/… path needs a signed-in user; anonymous visitors go to /login;
 * - a failed session check sends the user from business paths to /login;
 * - a user held by the new-password challenge stays on /new-password (docs/product.md §4);
 * - a user whose userState is Incomplete goes to /business/user/profile from anywhere else;
 * - a user with at least one business on a /business/profile path goes to /business/home;
 * - a signed-in user on a non-business path goes to setup;
 * - a spinner shows while the session and the user load.
 */
export function decideAccess(pathname: string, session: AccessSession): AccessDecision {
  const business = isBusinessPath(pathname);
  switch (session.status) {
    case 'loading':
      return { type: 'spinner' };
    case 'anonymous':
      return business ? redirect(paths.login) : allow;
    case 'error':
      return business ? redirect(paths.login) : allow;
    case 'authenticated':
      break;
  }
  if (session.mustChangePassword) return pathname === paths.newPassword ? allow : redirect(paths.newPassword);
  if (isPayerOrReceiverPage(pathname)) return allow;
  if (session.userState === null || session.businessCount === null) return { type: 'spinner' };
  if (session.userState === 'Incomplete') {
    return pathname === paths.business.userProfile ? allow : redirect(paths.business.userProfile);
  }
  if (!business && !isOpenToSignedIn(pathname)) return redirect(paths.business.setup);
  if (pathname === paths.newPassword) return redirect(paths.business.setup);
  const onBusinessProfile = pathname === paths.business.profile || pathname.startsWith(`${paths.business.profile}/`);
  if (session.businessCount > 0 && onBusinessProfile) return redirect(paths.business.home);
  // Pages about a business need one; the person creates it first.
  // An invitation is how a person without a business of their own joins one.
  const needsNoBusiness =
    onBusinessProfile || pathname === paths.business.userProfile || pathname === paths.business.settingsProfile || pathname === paths.invitation;
  if (session.businessCount === 0 && !needsNoBusiness) return redirect(paths.business.profile);
  return allow;
}
