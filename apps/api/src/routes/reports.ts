import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { Kysely } from 'kysely';
import { reportEndpoints as e } from '@tay/contract';
import type { DB } from '../db/schema';
import { billingReportCsv, billingReportFileName } from '../domain/reports/billing-csv';
import { renderBillingPdf } from '../domain/reports/billing-pdf';
import { billingReport, type BillingReportInput } from '../domain/reports/billing-report';
import { reportOverview } from '../domain/reports/overview';
import { sendCsv } from '../http/csv-reply';
import { endpointMounter, success } from '../http/mount';

const csv = (reply: FastifyReply, input: BillingReportInput) => sendCsv(reply, billingReportCsv(input), billingReportFileName(input.query, 'csv'));

/**
 * Analytics (`packages/contract/src/reports/endpoints.ts`, ADR 039): the overview and the billing
 * report over the business's calendar days, as JSON, CSV (`billing.csv`, or `billing` asked for
 * with `Accept: text/csv`) and PDF. Every figure reads the rollup the money's own transactions keep.
 */
export const reportRoutes: FastifyPluginAsync<{ db: Kysely<DB> }> = async (app, { db }) => {
  const mount = endpointMounter(app, db);

  mount(e.overview, async ({ business }) => success(await reportOverview({ db, business })));

  mount(e.billing, async ({ business, query, request, reply }) =>
    (request.headers.accept ?? '').includes('text/csv') ? csv(reply, { db, business, query }) : success(await billingReport({ db, business, query })),
  );

  mount(e.billingCsv, async ({ business, query, reply }) => csv(reply, { db, business, query }));

  mount(e.billingPdf, async ({ business, query, reply }) => {
    const pdf = await renderBillingPdf(await billingReport({ db, business, query }), business.name);
    return reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', `inline; filename="${billingReportFileName(query, 'pdf')}"`)
      .header('cache-control', 'no-store')
      .send(Buffer.from(pdf));
  });
};
