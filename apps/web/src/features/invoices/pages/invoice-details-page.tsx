import { ScrollRegion } from '../../../components/ui/scroll-region';
import { Anchor, Button, CopyButton, Divider, Grid, Group, Loader, Paper, Stack, Table, Text, Timeline, Title } from '@mantine/core';
import { IconArrowLeft, IconCheck, IconCopy, IconDownload, IconReceiptRefund } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import {
  formatDay,
  formatMoney,
  getHref,
  INVOICE_TERMS_LABELS,
  INVOICE_TIMELINE_LABELS,
  paths,
  refundEndpoints,
  REQUEST_CHANNEL_LABELS,
  type InvoiceDetail,
} from '@tay/contract';
import { paymentRefundable, RefundModal } from '../../../components/payments/refund-modal';
import { useEndpointAccess } from '../../../lib/endpoint-access';
import { InvoiceLinesTable, InvoiceTotals } from '../../../components/invoices/invoice-lines';
import { LoadError } from '../../../components/ui/load-error';
import { PageLoader } from '../../../components/ui/page-loader';
import { wrapAnywhere } from '../../../components/ui/wrap-anywhere';
import { useBusinessTime } from '../../../lib/business-time';
import { invoicePaths } from '../../../lib/invoice-paths';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useInvoiceDetail } from '../api/invoices-api';
import { DANGEROUS_ACTIONS, INVOICE_ACTION_LABELS, permittedInvoiceActions, useInvoiceActions } from '../components/invoice-actions';
import { InvoiceStateBadge } from '../components/invoice-state-badge';
import { PaymentsTable } from '../../../components/payments/payments-table';

// With the numbers texts went to, formatted by libphonenumber: loaded with the messages, not the page.
const RequestEmails = lazy(() => import('../../../components/messages/request-emails').then((m) => ({ default: m.RequestEmails })));

function eventLabel(event: string): string {
  return (INVOICE_TIMELINE_LABELS as Record<string, string | undefined>)[event] ?? event;
}

/**
 * /business/payment/invoices/details?invoiceid=: the invoice as its payer sees it, where it stands
 * (state, overdue), what can be done about it (the actions of its state, as in the list), its
 * payments, the messages sent and how they were delivered, its pay link and its timeline. The
 * entity templates' variant (`entity=true`) shows the same page until they have invoices of their own.
 */
export function InvoiceDetailsPage() {
  const [params] = useSearchParams();
  const invoiceId = params.get('invoiceid');
  const navigate = useNavigate();
  const detail = useInvoiceDetail(invoiceId);
  const clock = useBusinessTime();
  const { run, canWrite } = useInvoiceActions({ onDeleted: () => void navigate(invoicePaths.list) });
  // Refunds are the owners' and admins' (MONEY_RULES.refund): the API decides, the button shows only to them.
  const canRefund = useEndpointAccess(refundEndpoints.create).allowed;
  const [refunding, setRefunding] = useState(false);
  useDocumentTitle(detail.data ? `Invoice ${detail.data.number}` : 'Invoice');

  const back = (
    <Anchor component={Link} to={invoicePaths.list} size="sm">
      <Group gap={4} component="span">
        <IconArrowLeft size={14} aria-hidden="true" />
        All invoices
      </Group>
    </Anchor>
  );
  if (!invoiceId) {
    return (
      <Stack gap="sm">
        {back}
        <Title order={1}>No invoice chosen</Title>
        <Text c="dimmed">Open an invoice from the list to see it here.</Text>
      </Stack>
    );
  }
  if (detail.error) {
    return (
      <Stack gap="sm">
        {back}
        <LoadError title="We could not load this invoice" error={detail.error} onRetry={() => void detail.refetch()} />
      </Stack>
    );
  }
  if (!detail.data) return <PageLoader />;
  const inv = detail.data;
  const actions = permittedInvoiceActions(inv.actions, canWrite).filter((a) => a !== 'View/Download');
  const refundable = inv.payments.reduce((sum, p) => sum + paymentRefundable(p), 0);

  return (
    <Stack gap="lg" maw={1000}>
      {back}
      <Group justify="space-between" align="flex-start">
        <div style={wrapAnywhere}>
          <Group gap="sm" align="center">
            <Title order={1}>Invoice {inv.number}</Title>
            <InvoiceStateBadge state={inv.invoiceState} overdue={inv.overdue} />
          </Group>
          <Text c="dimmed" size="sm">
            {inv.payerName} · {formatMoney(inv.totalCents)} · due {formatDay(inv.dueDate)}
          </Text>
        </div>
        <Group gap="xs" role="group" aria-label="Invoice actions">
          {actions.map((action) => (
            <Button
              key={action}
              size="sm"
              variant={DANGEROUS_ACTIONS.has(action) ? 'outline' : 'light'}
              color={DANGEROUS_ACTIONS.has(action) ? 'red' : undefined}
              onClick={() => run(action, inv)}
            >
              {INVOICE_ACTION_LABELS[action]}
            </Button>
          ))}
          {canRefund && inv.transactionId && refundable > 0 && (
            <Button size="sm" variant="light" color="orange" leftSection={<IconReceiptRefund size={16} />} onClick={() => setRefunding(true)}>
              Refund
            </Button>
          )}
          <Button size="sm" variant="default" leftSection={<IconDownload size={16} />} onClick={() => run('View/Download', inv)}>
            Download PDF
          </Button>
        </Group>
      </Group>
      <RefundModal requestId={refunding ? inv.transactionId : null} onClose={() => setRefunding(false)} />

      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <InvoiceDocument invoice={inv} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <InvoiceFacts invoice={inv} />
        </Grid.Col>
      </Grid>

      <section aria-labelledby="invoice-payments">
        <Divider label={<span id="invoice-payments">Payments</span>} labelPosition="left" mb="sm" />
        {inv.payments.length === 0 ? (
          <PaymentsTable payments={inv.payments} />
        ) : (
          <ScrollRegion label="Payments, scrolls sideways" minWidth={520}>
            <PaymentsTable payments={inv.payments} />
          </ScrollRegion>
        )}
      </section>

      <section aria-labelledby="invoice-messages">
        <Divider label={<span id="invoice-messages">Messages</span>} labelPosition="left" mb="sm" />
        <Suspense fallback={<Loader size="sm" role="status" aria-label="Loading the messages" />}>
          <ScrollRegion label="Messages, scrolls sideways" minWidth={480}>
            <RequestEmails emails={inv.emails} what="invoice" />
          </ScrollRegion>
        </Suspense>
      </section>

      <section aria-labelledby="invoice-timeline">
        <Divider label={<span id="invoice-timeline">Timeline</span>} labelPosition="left" mb="sm" />
        {inv.timeline.length === 0 ? (
          <Text size="sm" c="dimmed">
            Nothing has happened yet.
          </Text>
        ) : (
          <Timeline active={inv.timeline.length - 1} bulletSize={18} lineWidth={2}>
            {inv.timeline.map((e, index) => (
              <Timeline.Item key={`${e.at}-${index}`} title={eventLabel(e.event)}>
                <Text size="xs" c="dimmed" style={wrapAnywhere}>
                  {clock.dateTime(e.at)} · {e.actor}
                </Text>
                {e.detail && (
                  <Text size="sm" style={wrapAnywhere}>
                    {e.detail}
                  </Text>
                )}
              </Timeline.Item>
            ))}
          </Timeline>
        )}
      </section>
    </Stack>
  );
}

/** The invoice as the payer reads it (and its PDF prints it): who bills whom, the lines and the figures. */
function InvoiceDocument({ invoice: inv }: { invoice: InvoiceDetail }) {
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }} component="article" aria-label={`Invoice ${inv.number} as the payer sees it`}>
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="md">
          {/* Who bills whom: names and an e-mail as long as they were typed. */}
          <div style={wrapAnywhere}>
            <Text fw={700} fz="lg">
              {inv.businessName}
            </Text>
            <Text size="xs" c="dimmed" tt="uppercase" fw={600} mt="sm">
              Bill to
            </Text>
            <Text size="sm">{inv.payerName}</Text>
            <Text size="sm" c="dimmed">
              {inv.payerEmail}
            </Text>
          </div>
          <Table variant="vertical" withRowBorders={false} verticalSpacing={2} w="auto">
            <Table.Tbody>
              <Table.Tr>
                <Table.Th scope="row" bg="transparent">
                  Invoice
                </Table.Th>
                <Table.Td ff="monospace">{inv.number}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th scope="row" bg="transparent">
                  Issued
                </Table.Th>
                <Table.Td>{formatDay(inv.issueDate)}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th scope="row" bg="transparent">
                  Due
                </Table.Th>
                <Table.Td>{formatDay(inv.dueDate)}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th scope="row" bg="transparent">
                  Terms
                </Table.Th>
                <Table.Td>{INVOICE_TERMS_LABELS[inv.terms]}</Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
        </Group>
        <InvoiceLinesTable items={inv.items} showTax />
        <Group justify="flex-end">
          <div style={{ width: '100%', maxWidth: 320 }}>
            <InvoiceTotals figures={inv} />
          </div>
        </Group>
        {inv.memo && (
          <div>
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              Memo
            </Text>
            <Text size="sm" style={{ ...wrapAnywhere, whiteSpace: 'pre-line' }}>
              {inv.memo}
            </Text>
          </div>
        )}
        {inv.footer && (
          <Text size="xs" c="dimmed" style={{ ...wrapAnywhere, whiteSpace: 'pre-line' }}>
            {inv.footer}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

/** How the invoice goes out and where its money comes through: channel, send times, pay link, its payment request. */
function InvoiceFacts({ invoice: inv }: { invoice: InvoiceDetail }) {
  const clock = useBusinessTime();
  return (
    <Stack gap="md">
      <Table variant="vertical" withTableBorder aria-label="Sending and payment">
        <Table.Tbody>
          <Table.Tr>
            <Table.Th w={130}>Sent by</Table.Th>
            <Table.Td>{REQUEST_CHANNEL_LABELS[inv.channel]}</Table.Td>
          </Table.Tr>
          {inv.sendAt && inv.invoiceState === 'Scheduled' && (
            <Table.Tr>
              <Table.Th>Scheduled for</Table.Th>
              <Table.Td>{clock.dateTime(inv.sendAt)}</Table.Td>
            </Table.Tr>
          )}
          {inv.sentAt && (
            <Table.Tr>
              <Table.Th>Sent</Table.Th>
              <Table.Td>{clock.dateTime(inv.sentAt)}</Table.Td>
            </Table.Tr>
          )}
          <Table.Tr>
            <Table.Th>Partial payment</Table.Th>
            <Table.Td>{inv.allowPartial ? 'Allowed' : 'Not allowed'}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>Paid</Table.Th>
            <Table.Td>
              {formatMoney(inv.amountPaidCents)} of {formatMoney(inv.totalCents)}
            </Table.Td>
          </Table.Tr>
          {inv.paidAt && (
            <Table.Tr>
              <Table.Th>Paid in full</Table.Th>
              <Table.Td>{clock.dateTime(inv.paidAt)}</Table.Td>
            </Table.Tr>
          )}
        </Table.Tbody>
      </Table>
      {inv.payLink && (
        <Stack gap={4}>
          <Text size="sm" fw={600}>
            Pay link
          </Text>
          <Text size="xs" c="dimmed" style={wrapAnywhere}>
            {inv.payLink}
          </Text>
          <CopyButton value={inv.payLink}>
            {({ copied, copy }) => (
              <Button size="xs" variant="light" leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />} onClick={copy} w="fit-content">
                {copied ? 'Copied' : 'Copy link'}
              </Button>
            )}
          </CopyButton>
        </Stack>
      )}
      {inv.transactionId && (
        <Anchor component={Link} to={getHref(paths.payments.history, undefined, { transid: inv.transactionId })} size="sm">
          View its payment request in the transaction history
        </Anchor>
      )}
    </Stack>
  );
}
