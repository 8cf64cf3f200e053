import { Alert, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { ReactNode } from 'react';
import { formatMoney, getHref, paths, type EntityType, type PaymentRequest } from '@tay/contract';
import { AccessAlert } from '../ui/access-alert';
import { ApiError } from '../../lib/api-client';
import type { EndpointAccess } from '../../lib/endpoint-access';
import { paymentsHeading } from '../../lib/template';
import type { RequestMode } from './request-fields';

/**
 * The frame of a single request's form, whatever the template (a request to a payer, a student's
 * request, a patient's statement): the template's Payments heading, the title and its line, why
 * changes are off, why the last save failed, the page's own notices, and the form, whose Enter
 * sends.
 */
export function RequestFormFrame({
  template,
  title,
  intro,
  access,
  failure,
  failureTitle = 'The request was not saved',
  notices,
  maw = 820,
  onSend,
  children,
}: {
  template: EntityType;
  title: string;
  intro?: ReactNode;
  access: EndpointAccess;
  failure: string | null;
  failureTitle?: string;
  notices?: ReactNode;
  maw?: number;
  onSend: () => void;
  children: ReactNode;
}) {
  return (
    <Stack gap="lg" maw={maw}>
      <div>
        <Text size="sm" c="dimmed">
          {paymentsHeading(template)}
        </Text>
        <Title order={1}>{title}</Title>
        {intro && (
          <Text c="dimmed" size="sm">
            {intro}
          </Text>
        )}
      </div>
      <AccessAlert access={access} />
      {failure && (
        <Alert color="red" title={failureTitle} role="alert">
          {failure}
        </Alert>
      )}
      {notices}
      <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="md">
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            onSend();
          }}
        >
          <Stack gap="md">{children}</Stack>
        </form>
      </Paper>
    </Stack>
  );
}

/**
 * What a single request's save does when it answers: a toast that says what happened to it
 * (`noun` sent, scheduled or saved as a draft, with `detail` of the saved request), then the
 * drafts (opened on it when `openDraft`) or the list the request now stands in (`listed`); a
 * refusal puts the API's field errors on the fields and its message above the form.
 */
export function requestSaveOutcome<E>({
  mode,
  noun,
  detail,
  listed,
  openDraft = false,
  navigate,
  setErrors,
  setFailure,
}: {
  mode: RequestMode;
  noun: 'Request' | 'Statement';
  detail: (saved: PaymentRequest) => string;
  listed: (saved: PaymentRequest) => string;
  openDraft?: boolean;
  navigate: (to: string) => unknown;
  setErrors: (errors: E) => void;
  setFailure: (message: string) => void;
}) {
  return {
    onSuccess: (saved: PaymentRequest) => {
      const what = mode === 'send' ? 'sent' : mode === 'schedule' ? 'scheduled' : 'saved as a draft';
      notifications.show({ color: 'teal', title: `${noun} ${what}`, message: `${saved.referenceNumber}: ${formatMoney(saved.amountCents)} ${detail(saved)}.` });
      const drafts = openDraft ? getHref(paths.payments.drafts, undefined, { transid: saved.transactionId }) : paths.payments.drafts;
      void navigate(mode === 'draft' ? drafts : listed(saved));
    },
    onError: (error: Error) => {
      if (error instanceof ApiError && error.fields) setErrors(error.fields as E);
      setFailure(error.message);
    },
  };
}
