import { Anchor, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { IconCircleCheck, IconPrinter } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { formatMoney, PAYER_PAGE_PROBLEMS } from '@tay/contract';
import { LoadError } from '../../../components/ui/load-error';
import { PageLoader } from '../../../components/ui/page-loader';
import { wrapAnywhere } from '../../../components/ui/wrap-anywhere';
import { useLeaveFirstScreen } from '../../../lib/first-screen';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { formatZonedDateTime } from '../../../lib/zoned-time';
import { useReceipt } from '../api/pay-api';

/** /pay/:token/receipt/:paymentId — the payer's receipt, printable. */
export function ReceiptPage() {
  const { token = '', paymentId = '' } = useParams();
  const receipt = useReceipt(token, paymentId);
  useDocumentTitle('Payment receipt');
  useLeaveFirstScreen(!receipt.isPending);
  if (receipt.isPending) return <PageLoader label="Loading the receipt" />;
  if (receipt.error || !receipt.data) return <LoadError title={PAYER_PAGE_PROBLEMS.receipt} error={receipt.error} onRetry={() => void receipt.refetch()} />;
  const r = receipt.data;
  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md">
      <Stack gap="md">
        <Group wrap="nowrap">
          <IconCircleCheck size={32} color="var(--mantine-color-teal-6)" aria-hidden="true" />
          <div style={{ ...wrapAnywhere, minWidth: 0, flex: 1 }}>
            <Title order={1} fz="xl">
              Receipt
            </Title>
            <Text c="dimmed" size="sm">
              {r.businessName} · {r.referenceNumber}
            </Text>
          </div>
        </Group>
        {/* On a phone (and on paper) the labels take a narrower column, so the values have room. */}
        <Table variant="vertical" withTableBorder>
          <Table.Tbody>
            <Table.Tr>
              <Table.Th w={{ base: 120, sm: 180 }}>Amount paid</Table.Th>
              <Table.Td>{formatMoney(r.amountCents)}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>Paid with</Table.Th>
              <Table.Td>{r.methodLabel}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>Date</Table.Th>
              <Table.Td>{formatZonedDateTime(r.paidAt, r.timeZone)}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>Status</Table.Th>
              <Table.Td>{r.paymentState}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>Request total</Table.Th>
              <Table.Td>{formatMoney(r.requestAmountCents)}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>Still to pay</Table.Th>
              <Table.Td>{formatMoney(r.remainingCents)}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>Receipt number</Table.Th>
              <Table.Td ff="monospace" style={wrapAnywhere}>
                {r.paymentId}
              </Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
        <Group justify="space-between">
          <Anchor component={Link} to={`/pay/${encodeURIComponent(token)}`}>
            Back to the request
          </Anchor>
          <Button variant="default" leftSection={<IconPrinter size={16} />} onClick={() => window.print()}>
            Print or save as PDF
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
