import { invoiceDetailsHref } from '../../../lib/invoice-paths';
import { LinkBadge } from './link-badge';

/** The invoice a request collects, as a small badge that opens the invoice's details. */
export function InvoiceBadge({ invoiceId, number }: { invoiceId: string; number: string }) {
  return (
    <LinkBadge to={invoiceDetailsHref(invoiceId)} color="grape" monospace label={`Invoice ${number}`}>
      {number}
    </LinkBadge>
  );
}
