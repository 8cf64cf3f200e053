/**
 * Route paths of the web app (spec §2), in one module shared by the router, the links and
 * the API server's history fallback.
 */
export const paths = {
  home: '/',
  login: '/login',
  signup: '/signup',
  signupConfirmation: '/signup/confirmation',
  signupVerified: '/signup/verified',
  forgotPassword: '/forgot-password',
  newPassword: '/new-password',
  business: {
    home: '/business/home',
    userProfile: '/business/user/profile',
    profile: '/business/profile',
    settingsProfile: '/business/settings/profile',
    setup: '/business/setup',
  },
  pay: '/pay',
} as const;

/** Prefixes (and exact paths) the single-page app answers; anything else is a 404 page. */
const CLIENT_ROUTE_PREFIXES = ['/business/', '/pay/', '/signup/'];
const CLIENT_ROUTE_EXACT = new Set<string>([
  paths.home,
  paths.login,
  paths.signup,
  paths.forgotPassword,
  paths.newPassword,
  '/business',
]);

/** Whether the web app has a page at this path (the server answers 404 otherwise). */
export function isClientRoute(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return CLIENT_ROUTE_EXACT.has(path) || CLIENT_ROUTE_PREFIXES.some((prefix) => path.startsWith(prefix));
}

/** Payers (spec §2 "Payers: /business/payment/payers with add, import, transactions") and the payer's confirmation page. */
export const payerPaths = {
  list: '/business/payment/payers',
  add: '/business/payment/payers/add',
  import: '/business/payment/payers/import',
  transactions: '/business/payment/payers/transactions',
  verify: (token: string) => `${paths.pay}/verify/${encodeURIComponent(token)}`,
} as const;
