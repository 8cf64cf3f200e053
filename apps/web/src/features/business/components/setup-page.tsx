import { Anchor, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '@tay/contract';
import { LoadError } from '../../../components/ui/load-error';
import { PageLoader } from '../../../components/ui/page-loader';
import { useDocumentTitle } from '../../../lib/use-document-title';

interface Props {
  title: string;
  description: ReactNode;
  loading?: boolean;
  error?: unknown;
  onRetry?: () => void;
  children: ReactNode;
  back?: { to: string; label: string };
}

/** The frame of every setup page: a way back to the overview, a title, one line of purpose. */
export function SetupPage({ title, description, loading, error, onRetry, children, back }: Props) {
  useDocumentTitle(title);
  const link = back ?? { to: paths.business.setup, label: 'Back to setup' };
  return (
    <Stack gap="md">
      <Anchor component={Link} to={link.to} size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} aria-hidden="true" />
          {link.label}
        </Group>
      </Anchor>
      <div>
        <Title order={1}>{title}</Title>
        <Text c="dimmed">{description}</Text>
      </div>
      {error ? (
        <LoadError title="We could not load your business" error={error} {...(onRetry ? { onRetry } : {})} />
      ) : loading ? (
        <PageLoader />
      ) : (
        <Paper withBorder radius="md" p="lg">
          {children}
        </Paper>
      )}
    </Stack>
  );
}
