/**
 * The API's areas that the web app caches by (each is its endpoints' OpenAPI tag): a cached call's
 * key begins with its area's (`apps/web/src/lib/area-keys.ts`), so a screen that marks an area
 * stale needs the area's name, not its endpoints and their schemas.
 */
export const AREA = {
  businesses: 'businesses',
  team: 'team',
  invoices: 'invoices',
  payers: 'payers',
  paymentRequests: 'payment-requests',
  studentBilling: 'Student billing',
  billingCycles: 'Billing cycles',
  students: 'Students',
  programs: 'Programs',
  payouts: 'Payouts',
  receivers: 'Receivers',
  events: 'Events',
  reports: 'reports',
  qrCodes: 'QR codes',
  batches: 'batches',
  patients: 'Patients',
} as const;
