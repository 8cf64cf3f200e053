import { Alert, Button, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { useParams } from 'react-router';
import { formatDay, type CheckInOutcome, type FieldErrors, type PublicCheckInPage } from '@tay/contract';
import { PublicBusinessHeader, PublicProblem } from '../../../components/public/public-page-parts';
import { LoadError } from '../../../components/ui/load-error';
import { PageLoader } from '../../../components/ui/page-loader';
import { wrapAnywhere } from '../../../components/ui/wrap-anywhere';
import { ApiError } from '../../../lib/api-client';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useCheckIn, useCheckInPage } from '../api/events-api';

/** /checkin/:token — what an event's QR code opens: check in with an e-mail address (no sign-in). */
export function CheckInPage() {
  const { token = '' } = useParams();
  const page = useCheckInPage(token);
  useDocumentTitle(page.data ? `Check in: ${page.data.eventName}` : 'Check in');
  if (page.data) return <CheckInView token={token} data={page.data} />;
  if (page.isPending) return <PageLoader label="Loading the event" />;
  if (page.error instanceof ApiError && page.error.status === 404) {
    return <PublicProblem title="We can’t find this event">{page.error.message}</PublicProblem>;
  }
  return <LoadError title="This check-in page could not be loaded" error={page.error} onRetry={() => void page.refetch()} />;
}

function CheckInView({ token, data }: { token: string; data: PublicCheckInPage }) {
  const [outcome, setOutcome] = useState<CheckInOutcome | null>(null);
  return (
    <Stack gap="lg">
      <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md">
        <Stack gap="xs">
          <PublicBusinessHeader name={data.businessName} logoUrl={data.businessLogoUrl}>
            event check-in
          </PublicBusinessHeader>
          <Title order={1} fz={28} style={wrapAnywhere}>
            {data.eventName}
          </Title>
          <Text c="dimmed">
            {formatDay(data.eventDate)}
            {data.place ? ` · ${data.place}` : ''}
          </Text>
        </Stack>
      </Paper>
      {outcome ? (
        <Alert color="teal" icon={<IconCircleCheck />} title={outcome.result === 'already' ? 'You’re already checked in' : 'You’re checked in'}>
          {outcome.message}
        </Alert>
      ) : data.status === 'open' ? (
        <CheckInForm token={token} onDone={setOutcome} />
      ) : (
        <Alert
          color="gray"
          icon={<IconAlertCircle />}
          title={
            data.status === 'disabled' || data.status === 'closed'
              ? 'Check-ins are closed'
              : data.status === 'full'
                ? 'This event is full'
                : 'Check-ins are not available'
          }
        >
          {data.statusMessage}
        </Alert>
      )}
    </Stack>
  );
}

/** The e-mail first; the names only when the business does not know the e-mail yet (the API answers 422 naming them). */
export function CheckInForm({ token, onDone }: { token: string; onDone: (outcome: CheckInOutcome) => void }) {
  const [email, setEmail] = useState('');
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [askNames, setAskNames] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const checkIn = useCheckIn(token);

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!email.trim()) return setErrors({ email: 'Enter your e-mail address.' });
    checkIn.mutate(
      { email, ...(askNames ? { firstName, lastName } : {}) },
      {
        onSuccess: onDone,
        onError: (error) => {
          if (error instanceof ApiError && error.status === 422 && error.fields) {
            setAskNames(true);
            // The first time the form asks, it says why rather than showing empty fields as wrong.
            setErrors(askNames ? error.fields : {});
          } else if (error instanceof ApiError && error.fields) setErrors(error.fields);
          else setErrors({ form: error.message });
        },
      },
    );
  };

  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput
            label="Your e-mail address"
            type="email"
            autoComplete="email"
            required
            value={email}
            error={errors.email}
            onChange={(e) => {
              setEmail(e.currentTarget.value);
              setErrors(({ email: _e, ...rest }) => rest);
            }}
          />
          {askNames && (
            <>
              <Text size="sm">
                We don’t know this e-mail address yet: add your name, and we’ll e-mail you a link to add your bank account so you can be paid.
              </Text>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput
                  label="First name"
                  autoComplete="given-name"
                  required
                  value={firstName}
                  error={errors.firstName}
                  onChange={(e) => setFirstName(e.currentTarget.value)}
                />
                <TextInput
                  label="Last name"
                  autoComplete="family-name"
                  required
                  value={lastName}
                  error={errors.lastName}
                  onChange={(e) => setLastName(e.currentTarget.value)}
                />
              </SimpleGrid>
            </>
          )}
          {errors.form && (
            <Alert color="red" icon={<IconAlertCircle />}>
              {errors.form}
            </Alert>
          )}
          <Button type="submit" size="md" fullWidth loading={checkIn.isPending}>
            Check in
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}
