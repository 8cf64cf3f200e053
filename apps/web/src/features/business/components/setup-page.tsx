import { Anchor, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { FormEventHandler, ReactNode } from 'react';
import { Link } from 'react-router';
import { paths, type Access, type Business } from '@tay/contract';
import { LoadError } from '../../../components/ui/load-error';
import { PageLoader } from '../../../components/ui/page-loader';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { ReadOnlyNotice, useReadOnly } from './read-only-notice';

interface Props {
  title: string;
  description: ReactNode;
  /** The business being set up: its loading and error states are the page's. */
  business: UseQueryResult<Business>;
  /** Say when the details are locked (under review or disabled); on by default. */
  lockNotice?: boolean;
  /** What the page changes needs: the business's details (`business:write`) or its settlement account (`business:owner`). */
  access?: Access;
  children: ReactNode;
  back?: { to: string; label: string };
}

/** The frame of every setup page: a way back to the overview, a title, one line of purpose. */
export function SetupPage({ title, description, business, lockNotice = true, access = 'business:write', children, back }: Props) {
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
      {business.error ? (
        <LoadError title="We could not load your business" error={business.error} onRetry={() => void business.refetch()} />
      ) : business.isPending ? (
        <PageLoader />
      ) : (
        <Paper withBorder radius="md" p="lg">
          {lockNotice && <ReadOnlyNotice business={business.data} access={access} />}
          {children}
        </Paper>
      )}
    </Stack>
  );
}

/** A setup form: every field is disabled while the business's details are locked. */
export function SetupForm({
  business,
  onSubmit,
  children,
}: {
  business: Business | undefined;
  onSubmit: FormEventHandler<HTMLFormElement>;
  children: ReactNode;
}) {
  const readOnly = useReadOnly(business);
  return (
    <form onSubmit={onSubmit} noValidate>
      <fieldset disabled={readOnly} style={{ border: 0, padding: 0, margin: 0 }}>
        {children}
      </fieldset>
    </form>
  );
}
