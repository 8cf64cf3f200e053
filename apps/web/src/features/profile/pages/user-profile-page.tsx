import { Alert, Button, Checkbox, Grid, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { notifications } from '@mantine/notifications';
import { IconInfoCircle } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { z } from 'zod';
import { paths, userEndpoints } from '@tay/contract';
import { ApiError } from '../../../lib/api-client';
import { callEndpoint } from '../../../lib/endpoint-client';
import { formatPhone, toE164 } from '../../../lib/phone';
import { useSession } from '../../../lib/session';
import { useDocumentTitle } from '../../../lib/use-document-title';

const schema = z.object({
  firstName: z.string().trim().min(1, 'Enter your first name.').max(100),
  lastName: z.string().trim().min(1, 'Enter your last name.').max(100),
  mobileNumber: z
    .string()
    .trim()
    .min(1, 'Enter your mobile number.')
    .refine((v) => toE164(v) !== null, 'Enter a valid mobile number, like (415) 555-0123 or +44 20 7946 0958.'),
  enrollNotificationViaEmail: z.boolean(),
  enrollNotificationViaMobileNumber: z.boolean(),
});
type Values = z.infer<typeof schema>;

/** /business/user/profile: the person's details; saving them completes the profile (docs/product.md §4). */
export function UserProfilePage() {
  useDocumentTitle('Your profile');
  const session = useSession();
  const user = session.currentUser;
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    values: {
      firstName: user?.firstName ?? '',
      lastName: user?.lastName ?? '',
      mobileNumber: formatPhone(user?.mobileNumber),
      enrollNotificationViaEmail: user?.enrollNotificationViaEmail ?? true,
      enrollNotificationViaMobileNumber: user?.enrollNotificationViaMobileNumber ?? false,
    },
  });

  const save = useMutation({
    mutationFn: async (values: Values) => {
      await callEndpoint(userEndpoints.updateProfile, {
        body: { firstName: values.firstName, lastName: values.lastName, mobileNumber: toE164(values.mobileNumber) ?? values.mobileNumber },
      });
      await callEndpoint(userEndpoints.enrollReminder, {
        body: {
          enrollNotificationViaEmail: values.enrollNotificationViaEmail,
          enrollNotificationViaMobileNumber: values.enrollNotificationViaMobileNumber,
        },
      });
    },
    onSuccess: async () => {
      notifications.show({ color: 'teal', title: 'Profile saved', message: 'Your details are up to date.' });
      await session.refresh();
    },
    onError: (error) => {
      if (error instanceof ApiError && error.fields) {
        for (const [field, message] of Object.entries(error.fields)) form.setError(field as keyof Values, { message });
      }
      notifications.show({ color: 'red', title: 'Profile not saved', message: error.message });
    },
  });

  const { errors } = form.formState;
  const incomplete = user?.userState !== 'complete';
  const hasBusiness = (user?.businesses.length ?? 0) > 0;

  return (
    <Stack gap="lg" maw={880} mx="auto">
      <div>
        <Title order={1}>Your profile</Title>
        <Text c="dimmed">Signed in as {user?.name}</Text>
      </div>
      {incomplete && (
        <Alert icon={<IconInfoCircle />} color="blue" title="Tell us who you are">
          Complete your profile to continue. Next, you will set up your business.
        </Alert>
      )}
      <Paper withBorder p="lg" radius="md" component="form" onSubmit={form.handleSubmit((v) => save.mutate(v))} noValidate>
        <Stack gap="md">
          <Grid>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput label="First name" autoComplete="given-name" error={errors.firstName?.message} {...form.register('firstName')} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput label="Last name" autoComplete="family-name" error={errors.lastName?.message} {...form.register('lastName')} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput
                label="Mobile number"
                description="US numbers without a country code are fine"
                type="tel"
                autoComplete="tel"
                error={errors.mobileNumber?.message}
                {...form.register('mobileNumber')}
              />
            </Grid.Col>
          </Grid>
          <div>
            <Text fw={500} size="sm" mb={6}>
              Notifications
            </Text>
            <Stack gap="xs">
              <Checkbox label="Send me notifications by e-mail" {...form.register('enrollNotificationViaEmail')} />
              <Checkbox label="Send me notifications by text message" {...form.register('enrollNotificationViaMobileNumber')} />
            </Stack>
          </div>
          <Group justify="space-between">
            <Button type="submit" loading={save.isPending}>
              Save profile
            </Button>
            {!incomplete && !hasBusiness && (
              <Button component={Link} to={paths.business.profile} variant="light">
                Next: create your business
              </Button>
            )}
            {!incomplete && hasBusiness && (
              <Button component={Link} to={paths.business.home} variant="light">
                Go to your business
              </Button>
            )}
          </Group>
        </Stack>
      </Paper>
    </Stack>
  );
}
