import { Navigate, type RouteObject } from 'react-router';
import type { ComponentType } from 'react';
import { paths } from '@tay/contract';
import { page } from './lazy-page';
import { NotFoundPage } from './routes/not-found';

/**
 * The pages behind sign-in (`/business/…`), added to the route table on the first visit there
 * (`patchRoutesOnNavigation` in `apps/web/src/app/router.tsx`, ADR 038): the sign-in page and the
 * payer's pages do not download this table of every template's routes.
 */

/** The shared batch pages, each loaded by one function (one preload entry in the bundle, however many routes use it). */
const loadBatchUpload = () => import('../features/batches/pages/batch-upload-page');
const loadBatches = () => import('../features/batches/pages/batches-page');
const loadBatchMap = () => import('../features/batches/pages/batch-map-page');
const loadBatchReview = () => import('../features/batches/pages/batch-review-page');
/** The analytics pages, in one bundle with the charts they share (one bundle, not four). */
const loadAnalytics = () => import('../features/analytics/pages/analytics-pages');

/**
 * A bulk page of the request flow. The flow (and the batch schemas it reads) loads with the page:
 * imported here it would put them, and zod, in the sign-in page's download (e2e/page-weight.test.ts).
 */
function batchPage<M extends Record<string, unknown>>(
  flow:
    | 'REQUEST_BATCH_FLOW'
    | 'PAYOUT_BATCH_FLOW'
    | 'STUDENT_IMPORT_FLOW'
    | 'STUDENT_BILLING_FLOW'
    | 'PROGRAM_BILLING_FLOW'
    | 'PATIENT_BILLING_FLOW'
    | 'PATIENT_IMPORT_FLOW',
  load: () => Promise<M>,
  name: keyof M & string,
) {
  return page<Record<string, unknown>>(async () => {
    const [module, flows] = await Promise.all([load(), import('../features/batches/batch-flows')]);
    const Page = module[name] as ComponentType<Record<string, unknown>>;
    return { [name]: () => <Page flow={flows[flow]} /> };
  }, name);
}

/** A page of the student import (ADR 036): the same batch pages, the `students` kind's words and routes. */
function studentImportPage<M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string) {
  return batchPage('STUDENT_IMPORT_FLOW', load, name);
}

/** A page of student billing (ADR 036): the batch pages with the `student-billing` kind's words and routes. */
function studentBillingPage<M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string) {
  return batchPage('STUDENT_BILLING_FLOW', load, name);
}

/** A page of the patient import (ADR 037): the same batch pages, the `patients` kind's words and routes. */
function patientImportPage<M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string) {
  return batchPage('PATIENT_IMPORT_FLOW', load, name);
}

/** A page of patient billing (ADR 037): the batch pages with the `patient-billing` kind's words and routes. */
function patientBillingPage<M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string) {
  return batchPage('PATIENT_BILLING_FLOW', load, name);
}

function requestBatchPage<M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string) {
  return batchPage('REQUEST_BATCH_FLOW', load, name);
}

/** A bulk page of the payouts flow (ADR 035): the same pages, the payouts kind's words and routes. */
function payoutBatchPage<M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string) {
  return batchPage('PAYOUT_BATCH_FLOW', load, name);
}

export const businessRoutes: RouteObject[] = [
  { index: true, element: <Navigate to={paths.business.home} replace /> },
  { path: 'home', ...page(() => import('../features/business/pages/home-page'), 'HomePage') },
  { path: 'user/profile', ...page(() => import('../features/profile/pages/user-profile-page'), 'UserProfilePage') },
  { path: 'profile', ...page(() => import('../features/business/pages/create-business-page'), 'CreateBusinessPage') },
  { path: 'settings/profile', ...page(() => import('../features/settings/pages/settings-profile-page'), 'SettingsProfilePage') },
  { path: 'settings/security', ...page(() => import('../features/settings/pages/security-page'), 'SecurityPage') },
  { path: 'setup', ...page(() => import('../features/business/pages/setup-overview-page'), 'SetupOverviewPage') },
  { path: 'setup/profile', ...page(() => import('../features/business/pages/setup-profile-page'), 'SetupProfilePage') },
  { path: 'owner', ...page(() => import('../features/business/pages/owners-page'), 'OwnersPage') },
  { path: 'setup/address', ...page(() => import('../features/business/pages/address-page'), 'AddressPage') },
  { path: 'setup/config', ...page(() => import('../features/business/pages/config-page'), 'ConfigPage') },
  { path: 'setup/automations', ...page(() => import('../features/business/pages/automations-page'), 'AutomationsPage') },
  { path: 'setup/payments', ...page(() => import('../features/business/pages/payments-setup-page'), 'PaymentsSetupPage') },
  { path: 'setup/payment/add-bank-account', ...page(() => import('../features/business/pages/add-bank-account-page'), 'AddBankAccountPage') },
  { path: 'setup/payment/link-account', ...page(() => import('../features/business/pages/link-account-page'), 'LinkAccountPage') },
  { path: 'setup/payment/profile', ...page(() => import('../features/business/pages/payment-profile-page'), 'PaymentProfilePage') },
  { path: 'setup/team', ...page(() => import('../features/team/pages/team-page'), 'TeamPage') },
  { path: 'setup/audit', ...page(() => import('../features/team/pages/audit-log-page'), 'AuditLogPage') },
  { path: 'setup/integrations', ...page(() => import('../features/integrations/pages/integrations-page'), 'IntegrationsPage') },
  { path: 'payment', ...page(() => import('../features/payment-requests/pages/payments-landing-page'), 'PaymentsLandingPage') },
  { path: 'payment/request', ...page(() => import('../features/payment-requests/pages/request-form-page'), 'RequestFormPage') },
  {
    path: 'payment/transactions/history',
    ...page(() => import('../features/payment-requests/pages/transactions-page'), 'TransactionsPage', { view: 'history' }),
  },
  {
    path: 'payment/transactions/draft',
    ...page(() => import('../features/payment-requests/pages/transactions-page'), 'TransactionsPage', { view: 'draft' }),
  },
  { path: 'payment/refunds', ...page(() => import('../features/refunds/pages/refunds-page'), 'RefundsPage') },
  { path: 'payment/disputes', ...page(() => import('../features/disputes/pages/disputes-page'), 'DisputesPage') },
  { path: 'payment/request/bulkrtp', ...requestBatchPage(loadBatches, 'BatchesPage') },
  {
    path: 'payment/request/import',
    ...requestBatchPage(loadBatchUpload, 'BatchUploadPage'),
  },
  {
    path: 'payment/request/bulkimport',
    ...requestBatchPage(loadBatchMap, 'BatchMapPage'),
  },
  {
    path: 'payment/request/bulkreview',
    ...requestBatchPage(loadBatchReview, 'BatchReviewPage'),
  },
  { path: 'payment/invoices', ...page(() => import('../features/invoices/pages/invoices-landing-page'), 'InvoicesLandingPage') },
  { path: 'payment/invoices/draft', ...page(() => import('../features/invoices/pages/invoice-form-page'), 'InvoiceFormPage') },
  { path: 'payment/invoices/list', ...page(() => import('../features/invoices/pages/invoices-list-page'), 'InvoicesListPage') },
  { path: 'payment/invoices/details', ...page(() => import('../features/invoices/pages/invoice-details-page'), 'InvoiceDetailsPage') },
  { path: 'payment/payers', ...page(() => import('../features/payers/pages/payers-page'), 'PayersPage') },
  { path: 'payment/payers/add', ...page(() => import('../features/payers/pages/payer-form-page'), 'PayerFormPage') },
  { path: 'payment/payers/import', ...page(() => import('../features/payers/pages/import-payers-page'), 'ImportPayersPage') },
  { path: 'payment/payers/transactions', ...page(() => import('./routes/payer-transactions-route'), 'PayerTransactionsRoute') },
  { path: 'payment/qrcode', ...page(() => import('../features/qr-codes/pages/qr-codes-page'), 'QrCodesPage') },
  { path: 'payment/qrcode/manage', ...page(() => import('../features/qr-codes/pages/qr-code-form-page'), 'QrCodeFormPage') },
  { path: 'payment/qrcode/download', ...page(() => import('../features/qr-codes/pages/qr-code-download-page'), 'QrCodeDownloadPage') },
  { path: 'payment/qrcode/transactions', ...page(() => import('./routes/qr-code-transactions-route'), 'QrCodeTransactionsRoute') },
  { path: 'payouts', ...page(() => import('../features/payouts/pages/payouts-dashboard-page'), 'PayoutsDashboardPage') },
  { path: 'payouts/payment/request', ...page(() => import('../features/payouts/pages/payout-form-page'), 'PayoutFormPage') },
  {
    path: 'payouts/payment/request/payoutsreview',
    ...page(() => import('../features/payouts/pages/payouts-review-page'), 'PayoutsReviewPage'),
  },
  {
    path: 'payouts/payment/transactions',
    ...page(() => import('../features/payouts/pages/payouts-transactions-page'), 'PayoutsTransactionsPage'),
  },
  { path: 'payouts/receivers', ...page(() => import('../features/receivers/pages/receivers-page'), 'ReceiversPage') },
  { path: 'payouts/qrcode', ...page(() => import('../features/events/pages/events-page'), 'EventsPage') },
  { path: 'payouts/qrcode/check-ins', ...page(() => import('./routes/event-check-ins-route'), 'EventCheckInsRoute') },
  { path: 'entity/billingcycle', ...page(() => import('../features/billing-cycles/pages/billing-cycles-page'), 'BillingCyclesPage') },
  { path: 'entity/program', ...page(() => import('../features/programs/pages/programs-page'), 'ProgramsPage') },
  { path: 'entity/program/manage', ...page(() => import('../features/programs/pages/program-form-page'), 'ProgramFormPage') },
  { path: 'entity/program/students/list', ...page(() => import('../features/programs/pages/program-students-page'), 'ProgramStudentsPage') },
  { path: 'entity/program/students/enroll', ...page(() => import('../features/programs/pages/program-enroll-page'), 'ProgramEnrollPage') },
  { path: 'entity/students', ...page(() => import('./routes/students-route'), 'StudentsRoute') },
  { path: 'entity/students/add', ...page(() => import('../features/students/pages/student-form-page'), 'StudentFormPage') },
  { path: 'entity/students/edit', ...page(() => import('../features/students/pages/student-form-page'), 'StudentFormPage') },
  { path: 'entity/students/import', ...studentImportPage(loadBatchUpload, 'BatchUploadPage') },
  { path: 'entity/students/import/history', ...studentImportPage(loadBatches, 'BatchesPage') },
  { path: 'entity/students/import/map', ...studentImportPage(loadBatchMap, 'BatchMapPage') },
  { path: 'entity/students/import/review', ...studentImportPage(loadBatchReview, 'BatchReviewPage') },
  { path: 'payouts/payment/request/bulkrtp', ...payoutBatchPage(loadBatches, 'BatchesPage') },
  {
    path: 'payouts/payment/request/bulkrtp/upload',
    ...payoutBatchPage(loadBatchUpload, 'BatchUploadPage'),
  },
  {
    path: 'payouts/payment/request/bulkrtp/map',
    ...payoutBatchPage(loadBatchMap, 'BatchMapPage'),
  },
  {
    path: 'payouts/payment/request/bulkreview',
    ...payoutBatchPage(loadBatchReview, 'BatchReviewPage'),
  },
  { path: 'entity/program/billing', ...page(() => import('../features/student-billing/pages/program-billing-page'), 'ProgramBillingPage') },
  {
    path: 'entity/program/billing/review',
    ...batchPage('PROGRAM_BILLING_FLOW', loadBatchReview, 'BatchReviewPage'),
  },
  { path: 'entity/billing/bulkstudents', ...page(() => import('../features/student-billing/pages/bulk-students-page'), 'BulkStudentsPage') },
  { path: 'entity/billing/bulkstudents/history', ...studentBillingPage(loadBatches, 'BatchesPage') },
  { path: 'entity/billing/bulkstudents/upload', ...studentBillingPage(loadBatchUpload, 'BatchUploadPage') },
  { path: 'entity/billing/bulkstudents/map', ...studentBillingPage(loadBatchMap, 'BatchMapPage') },
  { path: 'entity/billing/reviewbulkrequest', ...studentBillingPage(loadBatchReview, 'BatchReviewPage') },
  { path: 'healthcare-clients', ...page(() => import('../features/patients/pages/patients-page'), 'PatientsPage') },
  { path: 'healthcare-clients/add', ...page(() => import('../features/patients/pages/patient-form-page'), 'PatientFormPage') },
  { path: 'healthcare-clients/edit', ...page(() => import('../features/patients/pages/patient-form-page'), 'PatientFormPage') },
  { path: 'healthcare-clients/import', ...patientImportPage(loadBatchUpload, 'BatchUploadPage') },
  { path: 'healthcare-clients/import/history', ...patientImportPage(loadBatches, 'BatchesPage') },
  { path: 'healthcare-clients/import/map', ...patientImportPage(loadBatchMap, 'BatchMapPage') },
  { path: 'healthcare-clients/import/review', ...patientImportPage(loadBatchReview, 'BatchReviewPage') },
  { path: 'entity/billing/healthcare-clients/bulk', ...patientBillingPage(loadBatches, 'BatchesPage') },
  {
    path: 'entity/billing/healthcare-clients/bulk/upload',
    ...patientBillingPage(loadBatchUpload, 'BatchUploadPage'),
  },
  {
    path: 'entity/billing/healthcare-clients/bulk/map',
    ...patientBillingPage(loadBatchMap, 'BatchMapPage'),
  },
  {
    path: 'entity/billing/healthcare-clients/review-bulk-request',
    ...patientBillingPage(loadBatchReview, 'BatchReviewPage'),
  },
  {
    path: 'healthcare-clients/payment/request',
    ...page(() => import('../features/patient-statements/pages/patient-statement-page'), 'PatientStatementPage'),
  },
  { path: 'entity/students/payment/request', ...page(() => import('../features/student-requests/pages/student-request-page'), 'StudentRequestPage') },
  { path: 'entity/billing', ...page(() => import('../features/student-requests/pages/billing-landing-page'), 'BillingLandingPage') },
  { path: 'entity/billing/students', ...page(() => import('../features/student-requests/pages/student-request-page'), 'StudentRequestPage') },
  {
    path: 'entity/billing/transactions',
    ...page(() => import('./routes/billing-transactions-route'), 'BillingTransactionsRoute'),
  },
  { path: 'billing/students', ...page(() => import('../features/student-requests/pages/student-balances-page'), 'StudentBalancesPage') },
  // Analytics (issue 23): the charts and their styles load with these pages only.
  { path: 'analytics', ...page(loadAnalytics, 'AnalyticsPage') },
  { path: 'analytics/billing', ...page(loadAnalytics, 'BillingReportsPage') },
  { path: 'analytics/billing/daily', ...page(() => import('./routes/daily-report-route'), 'DailyReportRoute') },
  { path: 'analytics/billing/monthly', ...page(loadAnalytics, 'MonthlyReportPage') },
  { path: 'analytics/billing/custom', ...page(loadAnalytics, 'CustomReportPage') },
  { path: '*', element: <NotFoundPage /> },
];
