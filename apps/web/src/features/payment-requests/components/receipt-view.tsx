import { Button, Group, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconPrinter } from '@tabler/icons-react';
import { useState } from 'react';
import { formatMoney } from '@tay/contract';
import { LoadError } from '../../../components/ui/load-error';
import { PageLoader } from '../../../components/ui/page-loader';
import { formatZonedDateTime } from '../../../lib/zoned-time';
import { useBusinessId } from '../../../lib/session';
import { downloadReceiptPdf, useRequestReceipt } from '../api/payment-requests-api';

/**
 * The business's receipt of a request (the "View/Download receipt" row action of Paid and
 * PartiallyPaid requests): every processed payment, on the business's clock, with a PDF download.
 */
export function ReceiptModal({ requestId, onClose }: { requestId: string | null; onClose: () => void }) {
  const businessId = useBusinessId();
  const receipt = useRequestReceipt(requestId);
  const [downloading, setDownloading] = useState(false);
  const r = receipt.data;

  const download = async () => {
    if (!businessId || !requestId) return;
    setDownloading(true);
    try {
      await downloadReceiptPdf(businessId, requestId);
    } catch (error) {
      notifications.show({ color: 'red', title: 'The receipt was not downloaded', message: error instanceof Error ? error.message : 'Please try again.' });
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Modal opened={Boolean(requestId)} onClose={onClose} size="lg" title={r ? `Receipt ${r.referenceNumber}` : 'Receipt'}>
      {receipt.error ? (
        <LoadError title="This receipt could not be loaded" error={receipt.error} onRetry={() => void receipt.refetch()} />
      ) : !r ? (
        <PageLoader label="Loading the receipt" />
      ) : (
        <Stack gap="md">
          <div>
            <Title order={2} fz="lg">
              {r.businessName}
            </Title>
            <Text size="sm" c="dimmed">
              {/* A payer through a QR code may have given no e-mail. */}
              {r.payerName}
              {r.payerEmail && ` · ${r.payerEmail}`}
            </Text>
            {r.memo && <Text size="sm">{r.memo}</Text>}
          </div>
          <Table striped withTableBorder>
            <Table.Caption style={{ captionSide: 'top', textAlign: 'left' }}>Payments (times in {r.timeZone})</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Date</Table.Th>
                <Table.Th>Paid with</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th ta="right">Amount</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {r.payments.map((p) => (
                <Table.Tr key={p.paymentId}>
                  <Table.Td>{formatZonedDateTime(p.paidAt, r.timeZone)}</Table.Td>
                  <Table.Td>{p.methodLabel}</Table.Td>
                  <Table.Td>{p.paymentState}</Table.Td>
                  <Table.Td ta="right">{formatMoney(p.amountCents)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Table variant="vertical" withTableBorder>
            <Table.Tbody>
              <Table.Tr>
                <Table.Th w={180}>Request total</Table.Th>
                <Table.Td>{formatMoney(r.requestAmountCents)}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Paid</Table.Th>
                <Table.Td>{formatMoney(r.amountPaidCents)}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Still to pay</Table.Th>
                <Table.Td>{formatMoney(r.remainingCents)}</Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
          <Group justify="flex-end">
            <Button variant="default" leftSection={<IconPrinter size={16} />} onClick={() => window.print()}>
              Print
            </Button>
            <Button leftSection={<IconDownload size={16} />} loading={downloading} onClick={() => void download()}>
              Download PDF
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
