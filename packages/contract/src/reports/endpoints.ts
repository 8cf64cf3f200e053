import { defineEndpoint, type NotApprovedMessages } from '../common/endpoint';
import { BusinessIdParams } from '../businesses/schemas';
import { BillingReportQuery, BillingReportResponse, ReportOverviewResponse } from './schemas';
import { AREA } from '../common/areas';

const base = '/api/businesses/:id/reports';
const tag = AREA.reports;
const notApproved: NotApprovedMessages = {
  pending: 'Analytics open once your business is approved.',
  disabled: 'This business is disabled, so its analytics are closed. Contact Tay support.',
};
const read = { access: 'business:read', rules: ['approved'], notApproved } as const;

export const reportEndpoints = {
  overview: defineEndpoint({
    method: 'GET',
    path: `${base}/overview`,
    summary: 'The analytics overview: this month against last, 90 days collected, methods, kinds, top payers, paid on time',
    tag,
    ...read,
    params: BusinessIdParams,
    response: ReportOverviewResponse,
  }),
  billing: defineEndpoint({
    method: 'GET',
    path: `${base}/billing`,
    summary: 'A billing report over a range of the business’s calendar days (at most two years), by day, week or month; `Accept: text/csv` gives the CSV',
    tag,
    ...read,
    params: BusinessIdParams,
    query: BillingReportQuery,
    response: BillingReportResponse,
  }),
  billingCsv: defineEndpoint({
    method: 'GET',
    path: `${base}/billing.csv`,
    summary: 'The billing report as CSV: exactly the rows and totals the report shows',
    tag,
    ...read,
    params: BusinessIdParams,
    query: BillingReportQuery,
    response: { description: 'One row per day, week or month, then the totals', contentTypes: ['text/csv'], text: true },
  }),
  billingPdf: defineEndpoint({
    method: 'GET',
    path: `${base}/billing.pdf`,
    summary: 'The billing report as a PDF: the figures, the table and the counts',
    tag,
    ...read,
    params: BusinessIdParams,
    query: BillingReportQuery,
    response: { description: 'The report, printable', contentTypes: ['application/pdf'] },
  }),
};
