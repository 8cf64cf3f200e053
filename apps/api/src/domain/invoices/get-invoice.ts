import type { Kysely } from 'kysely';
import type { InvoiceDetail, InvoiceTimelineEntry } from '@tay/contract';
import type { DB } from '../../db/schema';
import type { ScopedBusiness } from '../businesses/business-scope';
import { getRequest } from '../payment-requests/get-request';
import type { RequestContext } from '../payment-requests/request-context';
import { todayIn } from '../payment-requests/request-record';
import { selectInvoice, toInvoice } from './invoice-record';

/**
 * One invoice with what happened to it: its own events (created, edited) and, once sent, those of
 * the request that collects it (sent, viewed, reminded, paid…) in one timeline; its payments; the
 * messages sent with their delivery; the payer's link.
 */
export async function getInvoice(
  ctx: Pick<RequestContext, 'authSecret' | 'previousAuthSecrets' | 'publicUrl'> & { db: Kysely<DB> },
  { business, invoiceId }: { business: ScopedBusiness; invoiceId: string },
): Promise<InvoiceDetail> {
  const row = await selectInvoice(ctx.db, business.id, invoiceId);
  const [events, request] = await Promise.all([
    ctx.db
      .selectFrom('invoice_events')
      .select(['created_at', 'actor_label', 'event', 'detail'])
      .where('business_id', '=', business.id)
      .where('invoice_id', '=', invoiceId)
      .orderBy('id', 'asc')
      .execute(),
    row.request_id
      ? getRequest({
          db: ctx.db,
          businessId: business.id,
          requestId: row.request_id,
          authSecret: ctx.authSecret,
          previousAuthSecrets: ctx.previousAuthSecrets,
          publicUrl: ctx.publicUrl,
        })
      : Promise.resolve(null),
  ]);
  const timeline: InvoiceTimelineEntry[] = [
    ...events.map((e) => ({ at: e.created_at.toISOString(), actor: e.actor_label, event: e.event, detail: e.detail })),
    // The request's own "created" says nothing the invoice's does not.
    ...(request?.timeline ?? []).filter((e) => e.event !== 'create').map((e) => ({ at: e.at, actor: e.actor, event: e.event, detail: e.detail })),
  ].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  return {
    ...toInvoice(row, todayIn(business.timeZone)),
    businessName: business.name,
    timeline,
    payments: request?.payments ?? [],
    refundedCents: request?.refundedCents ?? 0,
    emails: request?.emails ?? [],
    payLink: request?.payLink || null,
  };
}
