import { getHref, paths } from '@tay/contract';

const base = paths.payments.invoices;

/**
 * The invoices' pages, under `paths.payments.invoices`: the router, the navigation, the
 * transaction history's invoice links and the invoice screens build their links from here.
 */
export const invoicePaths = {
  /** Outstanding, overdue and paid figures, and the latest invoices. */
  landing: base,
  /** Query: `invoiceid` edits a draft or scheduled invoice; `copy` (an invoice id) starts from another. */
  draft: `${base}/draft`,
  list: `${base}/list`,
  /** Query: `invoiceid`; the entity templates add `entity=true`. */
  details: `${base}/details`,
} as const;

export const invoiceDetailsHref = (invoiceId: string) => getHref(invoicePaths.details, undefined, { invoiceid: invoiceId });
export const editInvoiceHref = (invoiceId: string) => getHref(invoicePaths.draft, undefined, { invoiceid: invoiceId });
export const copyInvoiceHref = (invoiceId: string) => getHref(invoicePaths.draft, undefined, { copy: invoiceId });
