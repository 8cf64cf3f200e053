import { Alert, Button, Grid, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { notifications } from '@mantine/notifications';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { formatDate } from '@tay/contract';
import { identity } from '../../../lib/identity';
import { formatPhone } from '../../../lib/phone';
import { useSession } from '../../../lib/session';
import { useDocumentTitle } from '../../../lib/use-document-title';

const schema = z
  .object({
    currentPassword: z.string().min(1, 'Password cannot be empty'),
    newPassword: z.string().min(8, 'Use at least 8 characters.').max(128, 'Use at most 128 characters.'),
    confirmPassword: z.string(),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { message: 'The passwords do not match.', path: ['confirmPassword'] })
  .refine((v) => v.newPassword !== v.currentPassword, { message: 'Choose a password different from the current one.', path: ['newPassword'] });
type Values = z.infer<typeof schema>;

function Detail({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text>{value || '—'}</Text>
    </div>
  );
}

/** /business/settings/profile: the person's details and change password. */
export function SettingsProfilePage() {
  useDocumentTitle('Profile settings');
  const { currentUser: user } = useSession();
  const [failed, setFailed] = useState(false);
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' } });

  const onSubmit = form.handleSubmit(async ({ currentPassword, newPassword }) => {
    setFailed(false);
    const result = await identity.changePassword(currentPassword, newPassword);
    if (result === 'Error') {
      setFailed(true);
      return;
    }
    form.reset();
    notifications.show({ color: 'teal', title: 'Password changed', message: 'Other devices signed in to your account were signed out.' });
  });
  const { errors, isSubmitting } = form.formState;

  return (
    <Stack gap="lg">
      <Title order={1}>Profile settings</Title>
      <Paper withBorder p="lg" radius="md">
        <Title order={2} fz="lg" mb="md">
          Your details
        </Title>
        <Grid>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <Detail label="E-mail (username)" value={user?.name ?? ''} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <Detail label="Name" value={[user?.firstName, user?.lastName].filter(Boolean).join(' ')} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <Detail label="Mobile number" value={formatPhone(user?.mobileNumber)} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <Detail label="Member since" value={user ? formatDate(user.createdAt) : ''} />
          </Grid.Col>
        </Grid>
      </Paper>
      <Paper withBorder p="lg" radius="md" component="form" onSubmit={onSubmit} noValidate maw={520}>
        <Stack gap="md">
          <Title order={2} fz="lg">
            Change password
          </Title>
          {failed && (
            <Alert color="red" icon={<IconAlertCircle />} title="Authentication Error" role="alert">
              We could not change your password. Check that your current password is right, and choose a new one of at least 8 characters that is not commonly
              used.
            </Alert>
          )}
          <PasswordInput
            label="Current password"
            autoComplete="current-password"
            error={errors.currentPassword?.message}
            {...form.register('currentPassword')}
          />
          <PasswordInput label="New password" autoComplete="new-password" error={errors.newPassword?.message} {...form.register('newPassword')} />
          <PasswordInput
            label="Confirm new password"
            autoComplete="new-password"
            error={errors.confirmPassword?.message}
            {...form.register('confirmPassword')}
          />
          <Button type="submit" loading={isSubmitting} w="fit-content">
            Change password
          </Button>
        </Stack>
      </Paper>
    </Stack>
  );
}
