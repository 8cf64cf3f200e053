import { Anchor, Group, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { payerPaths } from '@tay/contract';
import { useDocumentTitle } from '../../../lib/use-document-title';

/** Title, one line of purpose, a way back to the payers list, and actions on the right. */
export function PayersPageHeader({ title, description, back = true, actions }: { title: string; description: ReactNode; back?: boolean; actions?: ReactNode }) {
  useDocumentTitle(title);
  return (
    <div>
      {back && (
        <Anchor component={Link} to={payerPaths.list} size="sm">
          <Group gap={4}>
            <IconArrowLeft size={14} aria-hidden="true" />
            Back to payers
          </Group>
        </Anchor>
      )}
      <Group justify="space-between" align="flex-end" mt={back ? 'xs' : 0}>
        <div>
          <Title order={1}>{title}</Title>
          <Text c="dimmed" size="sm">
            {description}
          </Text>
        </div>
        {actions && <Group>{actions}</Group>}
      </Group>
    </div>
  );
}
