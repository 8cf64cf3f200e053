import { getHref, paths, type EntityType } from '@tay/contract';

/** Spec §3 feature keys: every navigation item names the feature it opens. */
export type FeatureKey =
  | 'bizProfile'
  | 'paymentTransaction'
  | 'paymentRequest'
  | 'invoices'
  | 'invoicesDraft'
  | 'analytics'
  | 'billingDaily'
  | 'billingMonthly'
  | 'billingCustom'
  | 'payers'
  | 'linkAccount'
  | 'bulkRTP'
  | 'payment'
  | 'businessConfig'
  | 'billingTransactions'
  | 'billingStudents'
  | 'qrCodePayments'
  | 'payoutsQrCodeRequest'
  | 'profileSettings'
  | '3rdPartyIntegrations'
  | 'payoutReceivers'
  | 'payoutTransactions'
  | 'payoutPaymentRequest'
  | 'payoutPaymentBulkRequest'
  | 'payouts'
  | 'setup'
  | 'team'
  | 'auditLog'
  | 'standard';

export interface NavItem {
  label: string;
  to: string;
  feature: FeatureKey;
  /** Its pages are all under `to` (`/business/payment/invoices/list`, `/business/payment/qrcode/manage`…): the item is current on each. */
  ownsSubPaths?: boolean;
}

export type SectionKey = 'payments' | 'payouts' | 'analytics' | 'setup';

export interface NavSection {
  key: SectionKey;
  label: string;
  items: NavItem[];
}

/** Beyond the spec's items, after them: every refund of the business (ADR 051), beside the history it is made from. */
const REFUNDS: NavItem = { label: 'Refunds', to: paths.payments.refunds, feature: 'paymentTransaction' };
/** And every dispute: the payers' banks taking payments back, and the answers (ADR 051). */
const DISPUTES: NavItem = { label: 'Disputes', to: paths.payments.disputes, feature: 'paymentTransaction' };

/** Spec §2 navigation items, with the spec's exact labels, per template. */
const PAYMENTS_IN: Record<EntityType, NavItem[]> = {
  standard: [
    { label: 'Transaction History', to: paths.payments.history, feature: 'paymentTransaction' },
    { label: 'Single Request to Pay', to: paths.payments.request, feature: 'paymentRequest' },
    { label: 'Bulk Request to Pay', to: paths.payments.bulkRtp, feature: 'bulkRTP' },
    { label: 'Manage Invoices', to: paths.payments.invoices, feature: 'invoices', ownsSubPaths: true },
    { label: 'Manage Payers', to: paths.payers.list, feature: 'payers' },
    { label: 'Manage QR Codes', to: paths.payments.qrCodes, feature: 'qrCodePayments', ownsSubPaths: true },
    REFUNDS,
    DISPUTES,
  ],
  student: [
    // The billing history: the history with each request's student, program and period (ADR 036).
    { label: 'Transactions History', to: paths.entity.billingTransactions, feature: 'paymentTransaction' },
    { label: 'Request to Pay Single Student', to: getHref(paths.entity.studentRequest, undefined, { entity: true }), feature: 'paymentRequest' },
    { label: 'Request to Pay Multiple Students', to: paths.entity.bulkStudents, feature: 'bulkRTP' },
    { label: 'Manage Students', to: paths.entity.students, feature: 'billingStudents' },
    { label: 'Manage Programs', to: paths.entity.programs, feature: 'billingStudents' },
    { label: 'Manage Billing Cycles', to: paths.entity.billingCycles, feature: 'billingTransactions' },
    { label: 'Program Billing and Payment', to: paths.entity.programBilling, feature: 'billingTransactions' },
    { label: 'Manage Payers', to: paths.payers.list, feature: 'payers' },
    { label: 'Manage QRCode', to: paths.payments.qrCodes, feature: 'qrCodePayments', ownsSubPaths: true },
    REFUNDS,
    DISPUTES,
  ],
  healthCare: [
    { label: 'Transactions History', to: paths.payments.history, feature: 'paymentTransaction' },
    { label: 'Request to Pay Single', to: getHref(paths.entity.healthcareRequest, undefined, { entity: true }), feature: 'paymentRequest' },
    { label: 'Request to Pay Multiple', to: paths.entity.healthcareBulk, feature: 'bulkRTP' },
    { label: 'Manage Clients', to: paths.entity.healthcareClients, feature: 'payers' },
    { label: 'Manage QRCode', to: paths.payments.qrCodes, feature: 'qrCodePayments', ownsSubPaths: true },
    REFUNDS,
    DISPUTES,
  ],
};

const PAYMENTS_OUT: NavItem[] = [
  // The dashboard links on to the approval queue and every payout (`payment/transactions`).
  { label: 'Transaction Dashboard', to: paths.payouts.root, feature: 'payouts' },
  { label: 'Send a Payment - Single Receiver', to: paths.payouts.request, feature: 'payoutPaymentRequest' },
  { label: 'Send a Payment - Multiple Receivers', to: paths.payouts.bulkRtp, feature: 'payoutPaymentBulkRequest', ownsSubPaths: true },
  { label: 'Manage Receivers', to: paths.payouts.receivers, feature: 'payoutReceivers', ownsSubPaths: true },
  { label: 'Manage Events', to: paths.payouts.events, feature: 'payoutsQrCodeRequest', ownsSubPaths: true },
];

const ANALYTICS: NavItem[] = [
  { label: 'Daily Billing Report', to: paths.analytics.daily, feature: 'billingDaily' },
  { label: 'Monthly Billing Report', to: paths.analytics.monthly, feature: 'billingMonthly' },
  { label: 'Custom Billing Report', to: paths.analytics.custom, feature: 'billingCustom' },
];

const SETUP: NavItem[] = [
  { label: 'Business Profile', to: paths.business.setupProfile, feature: 'bizProfile' },
  { label: 'Configurations (business config and scheduling)', to: paths.business.setupConfig, feature: 'businessConfig' },
  { label: '3rd Party Integrations', to: paths.business.setupIntegrations, feature: '3rdPartyIntegrations' },
  // Beyond the spec's items: the people of the business and the record of every change.
  { label: 'Team', to: paths.business.team, feature: 'team' },
  { label: 'Audit log', to: paths.business.audit, feature: 'auditLog' },
];

/** Spec §2 sections: Payments In, Payments out (only if payoutEnabled), Analytics, Set-up and Administration. */
export function navigationSections(template: EntityType, payoutEnabled: boolean): NavSection[] {
  return [
    { key: 'payments', label: 'Payments In', items: PAYMENTS_IN[template] },
    ...(payoutEnabled ? [{ key: 'payouts' as const, label: 'Payments out', items: PAYMENTS_OUT }] : []),
    { key: 'analytics', label: 'Analytics', items: ANALYTICS },
    { key: 'setup', label: 'Set-up and Administration', items: SETUP },
  ];
}

/** Spec §2: the active section comes from the path. */
export function activeSection(pathname: string): SectionKey | null {
  if (pathname.startsWith(paths.payments.landing) || pathname.startsWith(paths.entity.root) || pathname.startsWith(paths.entity.studentBalances)) {
    return 'payments';
  }
  if (pathname.startsWith(paths.payouts.root)) return 'payouts';
  if (pathname.startsWith(paths.business.setup)) return 'setup';
  if (pathname.startsWith(paths.analytics.root)) return 'analytics';
  return null;
}

/**
 * The page a person on `pathname` most likely opens next from the menu: in a section, the item
 * after the current one (the first, from the last); elsewhere (home, the profile), the first item
 * of the first section. One page: each page's bundle carries what it shares with others, so a
 * second would download much of the first again.
 */
export function likelyNextPage(sections: readonly NavSection[], pathname: string): string | null {
  const path = (to: string) => to.split('?')[0]!;
  const section = sections.find((s) => s.key === activeSection(pathname));
  if (!section) return sections[0]?.items[0]?.to ?? null;
  const at = section.items.findIndex((item) => path(item.to) === pathname || (item.ownsSubPaths === true && pathname.startsWith(`${path(item.to)}/`)));
  const next = section.items[at + 1] ?? section.items[0];
  return next && path(next.to) !== pathname ? next.to : null;
}
