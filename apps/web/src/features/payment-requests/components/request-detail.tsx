import { Anchor, Button, CopyButton, Divider, Drawer, Group, Loader, Paper, Stack, Table, Text, Timeline, Title } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import {
  formatDay,
  formatMoney,
  getHref,
  payerPaths,
  paths,
  REQUEST_CHANNEL_LABELS,
  type PaymentRequest,
  type RequestAction,
  type RequestState,
  type RequestTimelineEvent,
  paymentRequestEndpoints,
  refundableCents,
  refundEndpoints,
} from '@tay/contract';
import { LoadError } from '../../../components/ui/load-error';
import { PageLoader } from '../../../components/ui/page-loader';
import { wrapAnywhere } from '../../../components/ui/wrap-anywhere';
import { useEndpointAccess } from '../../../lib/endpoint-access';
import { editInvoiceHref, invoiceDetailsHref } from '../../../lib/invoice-paths';
import { qrCodeTransactionsHref } from '../../../lib/qr-code-paths';
import { useRequestDetail } from '../api/payment-requests-api';
import { useBusinessTime } from '../../../lib/business-time';
import { RequestStatusBadges } from '../../../components/ui/request-state-badge';
import { ACTION_LABELS, requestGuidance } from '../request-guidance';
import { PaymentsTable } from '../../../components/payments/payments-table';
import { StatementLines } from '../../../components/payments/statement-lines';

// With the numbers texts went to, formatted by libphonenumber: loaded when a request is opened,
// not with the history list.
const RequestEmails = lazy(() => import('../../../components/messages/request-emails').then((m) => ({ default: m.RequestEmails })));
/** Every name the API writes to a timeline has a label; the type makes a new one impossible to miss. */
const EVENT_LABELS: Record<RequestTimelineEvent, string> = {
  create: 'Created',
  edit: 'Edited',
  send: 'Sent to the payer',
  schedule: 'Scheduled',
  scheduledSend: 'Sent (scheduled)',
  resend: 'Sent again',
  withdraw: 'Withdrawn',
  cancel: 'Cancelled',
  payerPays: 'Payer started a payment',
  paymentSettles: 'Payment settled',
  paymentFails: 'Payment failed',
  paymentReturned: 'Payment returned by the bank',
  payerDeclines: 'Payer declined',
  expire: 'Expired',
  reminder: 'Reminder sent',
  sendHeld: 'Not sent (held)',
  paymentProcessed: 'Payment received',
  refund: 'Refunded',
  refundFailed: 'Refund failed',
  disputeOpened: 'Disputed',
  disputeAnswered: 'Dispute answered',
  disputeClosed: 'Dispute closed',
  viewed: 'Opened by the payer',
};

function eventLabel(event: string): string {
  return (EVENT_LABELS as Record<string, string | undefined>)[event] ?? event;
}

/**
 * A request's details, its payments, and its timeline of every state change (who, when, what),
 * with what the business can do about it: the same actions as its row. A payment through a QR code
 * says which code, and what the payer gave; it was sent to no one, so it has no channel or due
 * date to show, and may have no payer record to link to.
 */
export function RequestDetailDrawer({
  requestId,
  onClose,
  onAction,
  onRefund,
}: {
  requestId: string | null;
  onClose: () => void;
  onAction: (action: RequestAction, request: PaymentRequest) => void;
  /** Opens the Refund dialog; without it the details offer no refund. */
  onRefund?: (request: PaymentRequest) => void;
}) {
  const detail = useRequestDetail(requestId);
  const clock = useBusinessTime();
  const canWrite = useEndpointAccess(paymentRequestEndpoints.create).allowed;
  const canRefund = useEndpointAccess(refundEndpoints.create).allowed;
  const r = detail.data;
  const refundable = r && onRefund && canRefund ? refundableCents(r) : 0;
  const viaQrCode = Boolean(r?.qrCodeId);
  const guidance = r ? requestGuidance(r.transactionState, r.payerName, canWrite, r.invoiceNumber, viaQrCode) : null;
  // A request that collects an invoice is edited through its invoice.
  const editInvoice = r?.invoiceId && canWrite && r.actions.includes('Edit') ? editInvoiceHref(r.invoiceId) : null;
  return (
    <Drawer opened={Boolean(requestId)} onClose={onClose} position="right" size="lg" title={r ? `Request ${r.referenceNumber}` : 'Request'}>
      {detail.error ? (
        <LoadError title="We could not load this request" error={detail.error} onRetry={() => void detail.refetch()} />
      ) : !r ? (
        <PageLoader />
      ) : (
        <Stack gap="md">
          <Group justify="space-between">
            {/* The payer's name and e-mail, a code's label, a student's name: as long as they were typed. */}
            <div style={wrapAnywhere}>
              <Title order={2} fz="xl">
                {formatMoney(r.amountCents)}
              </Title>
              <Text size="sm" c="dimmed">
                {r.payerId ? (
                  <Anchor component={Link} to={getHref(payerPaths.transactions, undefined, { payerId: r.payerId })} inherit underline="always">
                    {r.payerName}
                  </Anchor>
                ) : (
                  r.payerName
                )}
                {r.payerEmail && ` · ${r.payerEmail}`}
              </Text>
              {r.qrCodeId && (
                <Text size="sm">
                  Paid through QR code{' '}
                  <Anchor component={Link} to={qrCodeTransactionsHref(r.qrCodeId)}>
                    {r.qrCodeLabel ?? 'without a label'}
                  </Anchor>
                </Text>
              )}
              {/* A student's request (the student template, ADR 036): whom, which program, which period. */}
              {r.student && (
                <Text size="sm" aria-label="Student">
                  For{' '}
                  <Anchor
                    component={Link}
                    to={getHref(paths.entity.billingTransactions, undefined, { studentId: r.student.studentId, studentName: r.student.name })}
                  >
                    {r.student.name}
                  </Anchor>
                  {[r.program?.name, r.period].filter(Boolean).length > 0 && ` — ${[r.program?.name, r.period].filter(Boolean).join(', ')}`}
                </Text>
              )}
            </div>
            <RequestStatusBadges request={r} />
          </Group>
          {/* A patient's statement (the healthcare template, ADR 037): whose, and its lines. */}
          {r.clientId && (
            <Text size="sm" aria-label="Patient" style={wrapAnywhere}>
              Statement for{' '}
              <Anchor component={Link} to={getHref(paths.payments.history, undefined, { clientId: r.clientId, clientName: r.patientName ?? undefined })}>
                {r.patientName}
              </Anchor>
              {r.statement && ` — date of service ${formatDay(r.statement.dateOfService)}`}
            </Text>
          )}
          {r.statement && <StatementLines statement={r.statement} />}
          {guidance && (
            <Paper withBorder p="sm" radius="md" bg={`var(--mantine-color-${guidance.color}-light)`} aria-label="What you can do" role="region">
              <Text fw={600} size="sm">
                {guidance.title}
              </Text>
              <Text size="sm">{guidance.text}</Text>
              {(guidance.actions.length > 0 || editInvoice) && (
                <Group gap="xs" mt="sm">
                  {editInvoice && (
                    <Button size="xs" variant="light" component={Link} to={editInvoice}>
                      Edit the invoice
                    </Button>
                  )}
                  {guidance.actions.map((action) => (
                    <Button
                      key={action}
                      size="xs"
                      variant={action === 'Delete' || action === 'Withdraw' || action === 'Cancel' ? 'outline' : 'light'}
                      color={action === 'Delete' || action === 'Withdraw' || action === 'Cancel' ? 'red' : undefined}
                      onClick={() => onAction(action, r)}
                    >
                      {ACTION_LABELS[action]}
                    </Button>
                  ))}
                </Group>
              )}
            </Paper>
          )}
          <Table variant="vertical" withTableBorder>
            <Table.Tbody>
              {!viaQrCode && (
                <Table.Tr>
                  <Table.Th w={160}>Sent by</Table.Th>
                  <Table.Td>{REQUEST_CHANNEL_LABELS[r.channel]}</Table.Td>
                </Table.Tr>
              )}
              <Table.Tr>
                <Table.Th w={160}>Paid</Table.Th>
                <Table.Td>
                  {formatMoney(r.amountPaidCents)} of {formatMoney(r.amountCents)}
                </Table.Td>
              </Table.Tr>
              {r.refundedCents > 0 && (
                <Table.Tr>
                  <Table.Th>Refunded</Table.Th>
                  <Table.Td>{formatMoney(r.refundedCents)}</Table.Td>
                </Table.Tr>
              )}
              {!viaQrCode && (
                <Table.Tr>
                  <Table.Th>Due</Table.Th>
                  <Table.Td>{formatDay(r.dueDate)}</Table.Td>
                </Table.Tr>
              )}
              {/* A QR payment that failed can be tried again from its page until it expires. */}
              <Table.Tr>
                <Table.Th>Expires</Table.Th>
                <Table.Td>{formatDay(r.expiresOn)}</Table.Td>
              </Table.Tr>
              {r.payerPhone && (
                <Table.Tr>
                  <Table.Th>Payer’s phone</Table.Th>
                  <Table.Td>{r.payerPhone}</Table.Td>
                </Table.Tr>
              )}
              {r.payerNote && (
                <Table.Tr>
                  <Table.Th>Payer’s note</Table.Th>
                  <Table.Td style={{ ...wrapAnywhere, whiteSpace: 'pre-wrap' }}>{r.payerNote}</Table.Td>
                </Table.Tr>
              )}
              {r.memo && (
                <Table.Tr>
                  <Table.Th>Memo</Table.Th>
                  <Table.Td style={{ ...wrapAnywhere, whiteSpace: 'pre-line' }}>{r.memo}</Table.Td>
                </Table.Tr>
              )}
              {r.reference && (
                <Table.Tr>
                  <Table.Th>Your reference</Table.Th>
                  <Table.Td style={wrapAnywhere}>{r.reference}</Table.Td>
                </Table.Tr>
              )}
              {r.invoiceId && r.invoiceNumber && (
                <Table.Tr>
                  <Table.Th>Invoice</Table.Th>
                  <Table.Td>
                    <Anchor component={Link} to={invoiceDetailsHref(r.invoiceId)} ff="monospace">
                      {r.invoiceNumber}
                    </Anchor>
                  </Table.Td>
                </Table.Tr>
              )}
              {r.batch && (
                <Table.Tr>
                  <Table.Th>Bulk batch</Table.Th>
                  <Table.Td style={wrapAnywhere}>
                    <Anchor component={Link} to={`${paths.payments.bulkReview}?batchId=${encodeURIComponent(r.batch.batchId)}`}>
                      {r.batch.fileName}
                    </Anchor>
                  </Table.Td>
                </Table.Tr>
              )}
              {!viaQrCode && (
                <Table.Tr>
                  <Table.Th>Partial payment</Table.Th>
                  <Table.Td>{r.allowPartial ? 'Allowed' : 'Not allowed'}</Table.Td>
                </Table.Tr>
              )}
              {r.sendAt && (
                <Table.Tr>
                  <Table.Th>Scheduled for</Table.Th>
                  <Table.Td>
                    <ScheduledFor sendAt={r.sendAt} />
                  </Table.Td>
                </Table.Tr>
              )}
            </Table.Tbody>
          </Table>
          {r.payLink && (
            <Group gap="xs">
              <Text size="sm" c="dimmed">
                Payer link
              </Text>
              <CopyButton value={r.payLink}>
                {({ copied, copy }) => (
                  <Button size="xs" variant="light" leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />} onClick={copy}>
                    {copied ? 'Copied' : 'Copy link'}
                  </Button>
                )}
              </CopyButton>
            </Group>
          )}
          <Divider label="Payments" labelPosition="left" />
          <PaymentsTable payments={r.payments} />
          {refundable > 0 && (
            <Group>
              <Button size="xs" variant="outline" color="red" onClick={() => onRefund?.(r)}>
                Refund
              </Button>
              <Text size="xs" c="dimmed">
                Up to {formatMoney(refundable)} can be refunded.
              </Text>
            </Group>
          )}
          <Divider label="Messages" labelPosition="left" />
          <Suspense fallback={<Loader size="sm" role="status" aria-label="Loading the messages" />}>
            <RequestEmails emails={r.emails} />
          </Suspense>
          <Divider label="Timeline" labelPosition="left" />
          <Timeline active={r.timeline.length - 1} bulletSize={18} lineWidth={2}>
            {r.timeline.map((e, index) => (
              <Timeline.Item key={`${e.at}-${index}`} title={eventLabel(e.event)}>
                <Text size="xs" c="dimmed" style={wrapAnywhere}>
                  {clock.dateTime(e.at)} · {e.actor}
                  {e.toState && e.fromState !== e.toState ? ` · ${e.fromState ?? '—'} → ${e.toState as RequestState}` : ''}
                </Text>
                {e.detail && (
                  <Text size="sm" style={wrapAnywhere}>
                    {e.detail}
                  </Text>
                )}
              </Timeline.Item>
            ))}
          </Timeline>
        </Stack>
      )}
    </Drawer>
  );
}

/**
 * A scheduled send goes out by the business's clock (the form takes the time in its zone), so it
 * reads in that zone, named, whatever the viewer's own clock says.
 */
function ScheduledFor({ sendAt }: { sendAt: string }) {
  return <>{useBusinessTime().dateTime(sendAt)}</>;
}
