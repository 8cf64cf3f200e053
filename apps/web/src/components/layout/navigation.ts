import type { EntityType } from '@tay/contract';

/** Spec §3 feature keys: every navigation item names the feature it opens. */
export type FeatureKey =
  | 'bizProfile' | 'paymentTransaction' | 'paymentRequest' | 'invoices' | 'invoicesDraft' | 'analytics'
  | 'billingDaily' | 'billingMonthly' | 'billingCustom' | 'payers' | 'linkAccount' | 'bulkRTP' | 'payment'
  | 'businessConfig' | 'billingTransactions' | 'billingStudents' | 'qrCodePayments' | 'payoutsQrCodeRequest'
  | 'profileSettings' | '3rdPartyIntegrations' | 'payoutReceivers' | 'payoutTransactions' | 'payoutPaymentRequest'
  | 'payoutPaymentBulkRequest' | 'payouts' | 'setup' | 'standard';

export interface NavItem {
  label: string;
  to: string;
  feature: FeatureKey;
}

export type SectionKey = 'payments' | 'payouts' | 'analytics' | 'setup';

export interface NavSection {
  key: SectionKey;
  label: string;
  items: NavItem[];
}

/** Spec §2 navigation items, with the spec's exact labels, per template. */
const PAYMENTS_IN: Record<EntityType, NavItem[]> = {
  standard: [
    { label: 'Transaction History', to: '/business/payment/transactions/history', feature: 'paymentTransaction' },
    { label: 'Single Request to Pay', to: '/business/payment/request', feature: 'paymentRequest' },
    { label: 'Bulk Request to Pay', to: '/business/payment/request/bulkrtp', feature: 'bulkRTP' },
    { label: 'Manage Invoices', to: '/business/payment/invoices', feature: 'invoices' },
    { label: 'Manage Payers', to: '/business/payment/payers', feature: 'payers' },
    { label: 'Manage QR Codes', to: '/business/payment/qrcode', feature: 'qrCodePayments' },
  ],
  student: [
    { label: 'Transactions History', to: '/business/payment/transactions/history', feature: 'paymentTransaction' },
    { label: 'Request to Pay Single Student', to: '/business/entity/students/payment/request?entity=true', feature: 'paymentRequest' },
    { label: 'Request to Pay Multiple Students', to: '/business/entity/billing/bulkstudents', feature: 'bulkRTP' },
    { label: 'Manage Students', to: '/business/entity/students', feature: 'billingStudents' },
    { label: 'Manage Programs', to: '/business/entity/program', feature: 'billingStudents' },
    { label: 'Manage Billing Cycles', to: '/business/entity/billingcycle', feature: 'billingTransactions' },
    { label: 'Program Billing and Payment', to: '/business/entity/program/billing', feature: 'billingTransactions' },
    { label: 'Manage Payers', to: '/business/payment/payers', feature: 'payers' },
    { label: 'Manage QRCode', to: '/business/payment/qrcode', feature: 'qrCodePayments' },
  ],
  healthCare: [
    { label: 'Transactions History', to: '/business/payment/transactions/history', feature: 'paymentTransaction' },
    { label: 'Request to Pay Single', to: '/business/healthcare-clients/payment/request?entity=true', feature: 'paymentRequest' },
    { label: 'Request to Pay Multiple', to: '/business/entity/billing/healthcare-clients/bulk', feature: 'bulkRTP' },
    { label: 'Manage Clients', to: '/business/healthcare-clients', feature: 'payers' },
    { label: 'Manage QRCode', to: '/business/payment/qrcode', feature: 'qrCodePayments' },
  ],
};

const PAYMENTS_OUT: NavItem[] = [
  { label: 'Transaction Dashboard', to: '/business/payouts/payment/transactions', feature: 'payoutTransactions' },
  { label: 'Send a Payment - Single Receiver', to: '/business/payouts/payment/request', feature: 'payoutPaymentRequest' },
  { label: 'Send a Payment - Multiple Receivers', to: '/business/payouts/payment/request/bulkrtp', feature: 'payoutPaymentBulkRequest' },
  { label: 'Manage Receivers', to: '/business/payouts/receivers', feature: 'payoutReceivers' },
  { label: 'Manage Events', to: '/business/payouts/qrcode', feature: 'payoutsQrCodeRequest' },
];

const ANALYTICS: NavItem[] = [
  { label: 'Daily Billing Report', to: '/business/analytics/billing/daily', feature: 'billingDaily' },
  { label: 'Monthly Billing Report', to: '/business/analytics/billing/monthly', feature: 'billingMonthly' },
  { label: 'Custom Billing Report', to: '/business/analytics/billing/custom', feature: 'billingCustom' },
];

const SETUP: NavItem[] = [
  { label: 'Business Profile', to: '/business/setup/profile', feature: 'bizProfile' },
  { label: 'Configurations (business config and scheduling)', to: '/business/setup/config', feature: 'businessConfig' },
  { label: '3rd Party Integrations', to: '/business/setup/integrations', feature: '3rdPartyIntegrations' },
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
  if (pathname.startsWith('/business/payment') || pathname.startsWith('/business/entity')) return 'payments';
  if (pathname.startsWith('/business/payouts')) return 'payouts';
  if (pathname.startsWith('/business/setup')) return 'setup';
  if (pathname.startsWith('/business/analytics')) return 'analytics';
  return null;
}
