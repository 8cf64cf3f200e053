import { Alert, Anchor, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { EndpointAccess } from '../../lib/endpoint-access';
import { useDocumentTitle } from '../../lib/use-document-title';
import { AccessAlert } from './access-alert';
import { LoadError } from './load-error';
import { PageLoader } from './page-loader';

/** The way back from a page to its list: "← Programs". */
export function BackLink({ to, label }: { to: string; label: string }) {
  return (
    <Anchor component={Link} to={to} size="sm">
      ← {label}
    </Anchor>
  );
}

/** What an edit page reads before its form can open: the record, and how a failure is named ("this student"). */
export interface FormPageLoad {
  query: { data: unknown; error: unknown; refetch: () => unknown };
  what: string;
}

export interface FormPageProps {
  /** The heading and, unless `documentTitle` says otherwise, the browser tab's title. */
  title: string;
  documentTitle?: string;
  back: { to: string; label: string };
  description?: ReactNode;
  maw?: number;
  /** An edit page's record: until it is read, a loader under the heading, or why it could not be. */
  load?: FormPageLoad | undefined;
  children: ReactNode;
}

/**
 * The one scaffold of a create or edit page: the way back, the heading and its line, then the
 * form once what it edits is read (a loader meanwhile, the failure with Try again).
 */
export function FormPage({ title, documentTitle, back, description, maw, load, children }: FormPageProps) {
  useDocumentTitle(documentTitle ?? title);
  return (
    <Stack gap="md" maw={maw}>
      <div>
        <BackLink {...back} />
        <Title order={1}>{title}</Title>
        {description && (
          <Text c="dimmed" size="sm">
            {description}
          </Text>
        )}
      </div>
      {load?.query.error ? (
        <LoadError title={`We could not load ${load.what}`} error={load.query.error} onRetry={() => void load.query.refetch()} />
      ) : load && !load.query.data ? (
        <PageLoader />
      ) : (
        children
      )}
    </Stack>
  );
}

export interface EntityFormProps {
  /** The form's name for screen readers ("Add a student"). */
  label: string;
  onSubmit: () => void;
  /** Whether the person may save (`useEndpointAccess`): why not is said above the form, and Save is off. */
  access: EndpointAccess;
  /** What went wrong that no field shows, above the fields. */
  problem?: string | null | undefined;
  problemTitle?: string;
  submitLabel: string;
  pending: boolean;
  /** Where Cancel goes. */
  cancelTo: string;
  children: ReactNode;
}

/**
 * The one form of a create or edit page: why changes are off, the problem no field shows, the
 * fields, then Save and Cancel. Submitting runs `onSubmit` (the browser's own checks are off: the
 * page names what is missing by the API's field keys).
 */
export function EntityForm({ label, onSubmit, access, problem, problemTitle, submitLabel, pending, cancelTo, children }: EntityFormProps) {
  return (
    <>
      <AccessAlert access={access} />
      <Paper withBorder radius="md" p="lg">
        <form
          noValidate
          aria-label={label}
          onSubmit={(event) => {
            event.preventDefault();
            onSubmit();
          }}
        >
          <Stack gap="md">
            {problem && (
              <Alert color="red" role="alert" {...(problemTitle ? { title: problemTitle } : {})}>
                {problem}
              </Alert>
            )}
            {children}
            <Group>
              <Button type="submit" disabled={!access.allowed} loading={pending}>
                {submitLabel}
              </Button>
              <Button variant="default" component={Link} to={cancelTo}>
                Cancel
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </>
  );
}
