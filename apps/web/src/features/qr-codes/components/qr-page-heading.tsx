import { Anchor, Group, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { paths, type QrCodeDisplayStatus } from '@tay/contract';
import { QrStatusBadge } from './qr-status-badge';

/** The heading of a QR code's page: the way back to the codes, the title with the code's status, a line under it, and the page's actions. */
export function QrPageHeading({
  title,
  status,
  line,
  actions,
}: {
  title: string;
  status?: QrCodeDisplayStatus | undefined;
  line: ReactNode;
  actions: ReactNode;
}) {
  return (
    <Group justify="space-between" align="flex-end">
      <div>
        <Anchor component={Link} to={paths.payments.qrCodes} size="sm">
          QR codes
        </Anchor>
        <Group gap="sm" align="center">
          <Title order={1}>{title}</Title>
          {status && <QrStatusBadge status={status} />}
        </Group>
        <Text c="dimmed" size="sm">
          {line}
        </Text>
      </div>
      <Group>{actions}</Group>
    </Group>
  );
}
