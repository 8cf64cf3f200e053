import { Badge } from '@mantine/core';
import { Link } from 'react-router';
import { invoiceDetailsHref } from '../../../lib/invoice-paths';

/** The invoice a request collects, as a small badge that opens the invoice's details. */
export function InvoiceBadge({ invoiceId, number }: { invoiceId: string; number: string }) {
  return (
    <Badge
      component={Link}
      to={invoiceDetailsHref(invoiceId)}
      variant="light"
      color="grape"
      radius="sm"
      ff="monospace"
      style={{ cursor: 'pointer', textTransform: 'none' }}
      aria-label={`Invoice ${number}`}
    >
      {number}
    </Badge>
  );
}
