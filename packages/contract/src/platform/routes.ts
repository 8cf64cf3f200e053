/**
 * The web app's pages, each path written once (docs/product.md, "Pages"): the router, the
 * navigation, every link and the API server's history fallback read them from here. Build a
 * link with {@link getHref}, which adds the query and encodes it.
 */
export const paths = {
  home: '/',
  login: '/login',
  signup: '/signup',
  signupConfirmation: '/signup/confirmation',
  signupVerified: '/signup/verified',
  forgotPassword: '/forgot-password',
  newPassword: '/new-password',
  /** Query: `token` of an invitation to join a business. */
  invitation: '/invitation',
  business: {
    root: '/business',
    home: '/business/home',
    userProfile: '/business/user/profile',
    profile: '/business/profile',
    settingsProfile: '/business/settings/profile',
    /** The person's second factor (ADR 052), from the user menu. */
    settingsSecurity: '/business/settings/security',
    setup: '/business/setup',
    setupProfile: '/business/setup/profile',
    owners: '/business/owner',
    setupAddress: '/business/setup/address',
    setupConfig: '/business/setup/config',
    setupAutomations: '/business/setup/automations',
    setupPayments: '/business/setup/payments',
    setupIntegrations: '/business/setup/integrations',
    team: '/business/setup/team',
    audit: '/business/setup/audit',
    linkAccount: '/business/setup/payment/link-account',
    addBankAccount: '/business/setup/payment/add-bank-account',
    paymentProfile: '/business/setup/payment/profile',
  },
  payments: {
    landing: '/business/payment',
    /** Query: `transid` (edit or copy a request), `copy`, `payerId`. */
    request: '/business/payment/request',
    requestImport: '/business/payment/request/import',
    bulkReview: '/business/payment/request/bulkreview',
    bulkImport: '/business/payment/request/bulkimport',
    bulkRtp: '/business/payment/request/bulkrtp',
    /** Query: `transid` opens that request's details. */
    history: '/business/payment/transactions/history',
    drafts: '/business/payment/transactions/draft',
    /** Every refund of the business (ADR 051). Query: `state`, `reason`, `search`. */
    refunds: '/business/payment/refunds',
    /** Every dispute of the business (ADR 051). Query: `state`, `reason`, `search`; `dispute` opens one. */
    disputes: '/business/payment/disputes',
    invoices: '/business/payment/invoices',
    qrCodes: '/business/payment/qrcode',
    /** Query: `qrcodeid` edits that code; none creates one. */
    qrCodeManage: '/business/payment/qrcode/manage',
    /** Query: `qrcodeid`. */
    qrCodeDownload: '/business/payment/qrcode/download',
    /** Query: `qrcodeid` filters to that code; none lists the payments of every code. */
    qrCodeTransactions: '/business/payment/qrcode/transactions',
  },
  payers: {
    list: '/business/payment/payers',
    /** Query: `payerId` edits that payer. */
    add: '/business/payment/payers/add',
    import: '/business/payment/payers/import',
    /** Query: `payerId`. */
    transactions: '/business/payment/payers/transactions',
  },
  analytics: {
    root: '/business/analytics',
    /** The billing reports' landing: Daily, Monthly, Custom. */
    billing: '/business/analytics/billing',
    /** Query: `date` (`YYYY-MM-DD`); none is today on the business's clock. */
    daily: '/business/analytics/billing/daily',
    /** Query: `month` (`YYYY-MM`); none is this month. */
    monthly: '/business/analytics/billing/monthly',
    /** Query: `from`, `to` (`YYYY-MM-DD`), `groupBy` (`day`, `week`, `month`). */
    custom: '/business/analytics/billing/custom',
  },
  entity: {
    root: '/business/entity',
    students: '/business/entity/students',
    studentAdd: '/business/entity/students/add',
    /** Query: `studentId`. */
    studentEdit: '/business/entity/students/edit',
    studentImport: '/business/entity/students/import',
    /** The student imports (batches of kind `students`); the map and review steps take `batchId`. */
    studentImports: '/business/entity/students/import/history',
    studentImportMap: '/business/entity/students/import/map',
    studentImportReview: '/business/entity/students/import/review',
    /** With `entity=true`; `studentId` preselects the student. */
    studentRequest: '/business/entity/students/payment/request',
    /** Each student's billed, paid and outstanding for the current period. */
    studentBalances: '/business/billing/students',
    billing: '/business/entity/billing',
    /** Request to Pay Single Student. */
    billingStudent: '/business/entity/billing/students',
    bulkStudents: '/business/entity/billing/bulkstudents',
    /** Query: `batchId`. */
    bulkStudentsReview: '/business/entity/billing/reviewbulkrequest',
    /** Request to Pay Multiple Students from a CSV file (batch kind `student-billing`): its batches, upload and map steps. */
    bulkStudentsHistory: '/business/entity/billing/bulkstudents/history',
    bulkStudentsUpload: '/business/entity/billing/bulkstudents/upload',
    /** Query: `batchId`. */
    bulkStudentsMap: '/business/entity/billing/bulkstudents/map',
    billingTransactions: '/business/entity/billing/transactions',
    programs: '/business/entity/program',
    /** Query: `programId` (none: a new program). */
    programManage: '/business/entity/program/manage',
    programBilling: '/business/entity/program/billing',
    /** Query: `batchId`. */
    programBillingReview: '/business/entity/program/billing/review',
    /** Query: `programId`. */
    programStudents: '/business/entity/program/students/list',
    /** Query: `programId`. */
    programEnroll: '/business/entity/program/students/enroll',
    billingCycles: '/business/entity/billingcycle',
    healthcareClients: '/business/healthcare-clients',
    healthcareClientAdd: '/business/healthcare-clients/add',
    /** Query: `clientId`. */
    healthcareClientEdit: '/business/healthcare-clients/edit',
    healthcareClientImport: '/business/healthcare-clients/import',
    /** The patient imports (batches of kind `patients`); the map and review steps take `batchId`. */
    healthcareClientImports: '/business/healthcare-clients/import/history',
    healthcareClientImportMap: '/business/healthcare-clients/import/map',
    healthcareClientImportReview: '/business/healthcare-clients/import/review',
    /** With `entity=true`. */
    healthcareRequest: '/business/healthcare-clients/payment/request',
    healthcareBulk: '/business/entity/billing/healthcare-clients/bulk',
    /** Request to Pay Multiple Patients (batch kind `patient-billing`): the upload and map steps; the map and review take `batchId`. */
    healthcareBulkUpload: '/business/entity/billing/healthcare-clients/bulk/upload',
    healthcareBulkMap: '/business/entity/billing/healthcare-clients/bulk/map',
    healthcareBulkReview: '/business/entity/billing/healthcare-clients/review-bulk-request',
  },
  payouts: {
    root: '/business/payouts',
    transactions: '/business/payouts/payment/transactions',
    request: '/business/payouts/payment/request',
    bulkRtp: '/business/payouts/payment/request/bulkrtp',
    /** The upload and map steps of a bulk payout live under the spec's bulkrtp. */
    bulkUpload: '/business/payouts/payment/request/bulkrtp/upload',
    bulkMap: '/business/payouts/payment/request/bulkrtp/map',
    bulkReview: '/business/payouts/payment/request/bulkreview',
    review: '/business/payouts/payment/request/payoutsreview',
    receivers: '/business/payouts/receivers',
    events: '/business/payouts/qrcode',
    /** Query: `eventId`. */
    eventCheckIns: '/business/payouts/qrcode/check-ins',
  },
  /** The payer's pages (no sign-in): `/pay/:token`, its receipts, and the e-mail confirmation. */
  pay: '/pay',
  payPage: '/pay/:token',
  payReceipt: '/pay/:token/receipt/:paymentId',
  payerVerify: '/pay/verify/:token',
  /** What a printed QR code encodes: PUBLIC_URL/pay/qr/<token>. */
  payQr: '/pay/qr/:code',
  /** A receiver's secure link to enter their own bank account (ADR 035). */
  receiverBankAccountRoot: '/receiver/bank-account',
  receiverBankAccount: '/receiver/bank-account/:token',
  /** What an event's QR code encodes: PUBLIC_URL/checkin/<token>. */
  checkInRoot: '/checkin',
  checkIn: '/checkin/:token',
} as const;

type QueryValue = string | number | boolean | null | undefined;

/**
 * A link to a page: `:params` in the path filled in and encoded, then the query (empty values
 * left out). `getHref(paths.payments.history, undefined, { transid: 'req_1' })`.
 */
export function getHref(path: string, params?: Record<string, string>, query?: Record<string, QueryValue>): string {
  const filled = path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`Missing path parameter "${name}" for ${path}`);
    return encodeURIComponent(value);
  });
  const text = Object.entries(query ?? {})
    .filter(([, value]) => value !== undefined && value !== null && value !== '' && value !== false)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`)
    .join('&');
  return text ? `${filled}?${text}` : filled;
}

/** Prefixes (and exact paths) the single-page app answers; anything else is a 404 page. */
const CLIENT_ROUTE_PREFIXES = ['/business/', '/pay/', '/signup/', '/receiver/', '/checkin/'];
const CLIENT_ROUTE_EXACT = new Set<string>([paths.home, paths.login, paths.signup, paths.forgotPassword, paths.newPassword, paths.business.root]);

/** Whether the web app has a page at this path (the server answers 404 otherwise). */
export function isClientRoute(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return CLIENT_ROUTE_EXACT.has(path) || CLIENT_ROUTE_PREFIXES.some((prefix) => path.startsWith(prefix));
}

/** The payers' pages and the payer's confirmation link. */
export const payerPaths = {
  ...paths.payers,
  verify: (token: string) => getHref(paths.payerVerify, { token }),
} as const;
