/** The analytics pages the router loads together (`apps/web/src/app/router.tsx`); the daily report comes through its route. */
export { AnalyticsPage } from './analytics-page';
export { BillingReportsPage } from './billing-reports-page';
export { CustomReportPage } from './custom-report-page';
export { MonthlyReportPage } from './monthly-report-page';
