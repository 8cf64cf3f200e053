import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import { invoiceEndpoints as e } from '@tay/contract';
import type { DB } from '../db/schema';
import { getInvoice } from '../domain/invoices/get-invoice';
import { runInvoiceCommand, sendInvoice, type InvoiceCommand } from '../domain/invoices/invoice-actions';
import { invoicePdf, invoicePdfName } from '../domain/invoices/invoice-document';
import { exportInvoices, invoiceSummary, listInvoices } from '../domain/invoices/list-invoices';
import { createInvoice, deleteInvoiceDraft, selectInvoice, updateInvoice } from '../domain/invoices/save-invoice';
import type { RequestContext } from '../domain/payment-requests/request-context';
import { sendCsv } from '../http/csv-reply';
import { endpointMounter, success } from '../http/mount';
import { sendCommandScope } from '../lib/idempotency';

/**
 * The invoices area (`packages/contract/src/invoices/endpoints.ts`, ADR 033). Sending and resending
 * honour an `Idempotency-Key` (ADR 024): one key space per business for invoice commands, and the
 * key names the invoice and command it ran.
 */
export const invoiceRoutes: FastifyPluginAsync<{ ctx: RequestContext; db: Kysely<DB> }> = async (app, { ctx, db }) => {
  const mount = endpointMounter(app, db);

  mount(e.list, async ({ business, query }) => success(await listInvoices({ db, businessId: business.id, timeZone: business.timeZone, query })));

  mount(e.exportCsv, async ({ business, query, reply }) =>
    sendCsv(
      reply,
      exportInvoices({ db, businessId: business.id, timeZone: business.timeZone, query }),
      `invoices-${new Date().toISOString().slice(0, 10)}.csv`,
    ),
  );

  mount(e.summary, async ({ business }) => success(await invoiceSummary({ db, businessId: business.id, timeZone: business.timeZone })));

  mount(e.create, async ({ business, actor, body, reply }) => reply.status(201).send(success(await createInvoice(ctx, { business, user: actor, body }))));

  mount(e.get, async ({ business, params }) => success(await getInvoice({ ...ctx, db }, { business, invoiceId: params.invoiceId })));

  mount(e.update, async ({ business, actor, params, body }) => success(await updateInvoice(ctx, { business, invoiceId: params.invoiceId, user: actor, body })));

  mount(
    e.send,
    async ({ business, actor, params, body }) =>
      success(
        await sendInvoice(ctx, {
          business,
          invoiceId: params.invoiceId,
          user: actor,
          sendAt: body.sendAt ?? null,
          confirmedAmountCents: body.confirmedAmountCents ?? null,
        }),
      ),
    {
      idempotent: {
        scope: (business) => sendCommandScope(business.id),
        request: ({ params, body }) => ({ command: 'send', invoiceId: params.invoiceId, sendAt: body.sendAt ?? null }),
      },
    },
  );

  const commands = { resend: e.resend, withdraw: e.withdraw, cancel: e.cancel } as const satisfies Record<InvoiceCommand, unknown>;
  for (const [command, endpoint] of Object.entries(commands) as [InvoiceCommand, (typeof commands)[InvoiceCommand]][]) {
    mount(
      endpoint,
      async ({ business, actor, params }) => success(await runInvoiceCommand(ctx, { business, invoiceId: params.invoiceId, user: actor, command })),
      command === 'resend'
        ? { idempotent: { scope: (business) => sendCommandScope(business.id), request: ({ params }) => ({ command, invoiceId: params.invoiceId }) } }
        : {},
    );
  }

  mount(e.deleteDraft, async ({ business, actor, params, reply }) => {
    await deleteInvoiceDraft(ctx, { business, invoiceId: params.invoiceId, user: actor });
    return reply.status(204).send();
  });

  mount(e.pdf, async ({ business, params, reply }) => {
    const detail = await getInvoice({ ...ctx, db }, { business, invoiceId: params.invoiceId });
    const row = await selectInvoice(db, business.id, params.invoiceId);
    const pdf = await invoicePdf(db, row, detail.payLink);
    return reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', `inline; filename="${invoicePdfName(row.number)}"`)
      .header('cache-control', 'no-store')
      .send(Buffer.from(pdf));
  });
};
