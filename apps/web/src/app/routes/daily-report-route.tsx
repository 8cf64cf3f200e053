import { DailyReportPage } from '../../features/analytics/pages/daily-report-page';
import { RequestsTable } from '../../features/payment-requests/components/requests-table';

/**
 * /business/analytics/billing/daily: the day's report (analytics feature) over the requests it
 * bills, those first sent that day (payments feature; ADR 039).
 */
export function DailyReportRoute() {
  return (
    <DailyReportPage
      transactions={(day) => (
        <RequestsTable view="history" caption={`Requests billed on ${day.label}`} days={{ from: day.date, to: day.date, label: day.label, by: 'sent' }} />
      )}
    />
  );
}
