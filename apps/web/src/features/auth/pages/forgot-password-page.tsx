import { Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { z } from 'zod';
import { IDENTITY_EMPTY_MESSAGES, paths } from '@tay/contract';
import { describeFailure, identity } from '../../../lib/identity';
import { AuthCard } from '../components/auth-card';
import { FormFailure } from '../components/form-failure';

const schema = z.object({
  email: z.string().trim().min(1, IDENTITY_EMPTY_MESSAGES.username).email('Enter your e-mail address, like name@example.com.'),
});

/** Forgot password, step 1 (docs/product.md §4): ask for a code by e-mail. Step 2 is /new-password. */
export function ForgotPasswordPage() {
  const navigate = useNavigate();
  const [failure, setFailure] = useState<ReturnType<typeof describeFailure> | null>(null);
  const form = useForm<z.infer<typeof schema>>({ resolver: zodResolver(schema), defaultValues: { email: '' } });

  const onSubmit = form.handleSubmit(async ({ email }) => {
    setFailure(null);
    const result = await identity.forgotPassword(email);
    if (result.status === true) void navigate(paths.newPassword, { state: { email: email.trim().toLowerCase(), mode: 'reset' } });
    else setFailure(describeFailure(result));
  });

  return (
    <AuthCard title="Reset your password" description="Enter the e-mail address of your account and we will send you a code to choose a new password.">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          {failure && <FormFailure title={failure.title} message={failure.message} />}
          <TextInput label="E-mail address" type="email" autoComplete="username" error={form.formState.errors.email?.message} {...form.register('email')} />
          <Button type="submit" loading={form.formState.isSubmitting} fullWidth>
            Send me a code
          </Button>
          <Text size="sm" ta="center">
            Remembered it?{' '}
            <Anchor component={Link} to={paths.login}>
              Back to sign in
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthCard>
  );
}
