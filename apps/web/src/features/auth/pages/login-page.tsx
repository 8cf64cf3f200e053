import { Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate } from 'react-router';
import { z } from 'zod';
import { IDENTITY_EMPTY_MESSAGES, paths } from '@tay/contract';
import { describeFailure, identity } from '../../../lib/identity';
import { sessionKey } from '../../../lib/session';
import { AuthCard } from '../components/auth-card';
import { FormFailure } from '../components/form-failure';

const schema = z.object({
  email: z.string().trim().min(1, IDENTITY_EMPTY_MESSAGES.username).email('Enter your e-mail address, like name@example.com.'),
  password: z.string().min(1, IDENTITY_EMPTY_MESSAGES.password),
});
type Values = z.infer<typeof schema>;

export function LoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const state = (location.state ?? {}) as { from?: string; email?: string };
  const [failure, setFailure] = useState<ReturnType<typeof describeFailure> | null>(null);
  const [resending, setResending] = useState(false);
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: { email: state.email ?? '', password: '' } });

  const onSubmit = form.handleSubmit(async ({ email, password }) => {
    setFailure(null);
    const result = await identity.signIn(email, password);
    if (result.status !== true) {
      setFailure(describeFailure(result));
      return;
    }
    queryClient.setQueryData(sessionKey, result.data.user);
    if (result.data.challenge === 'NEW_PASSWORD_REQUIRED') navigate(paths.newPassword, { replace: true });
    else navigate(state.from ?? paths.business.setup, { replace: true });
  });

  const resendCode = async () => {
    const { email, password } = form.getValues();
    setResending(true);
    await identity.resendSignUp(email);
    setResending(false);
    navigate(paths.signupConfirmation, { state: { email: email.trim().toLowerCase(), password } });
  };

  const { errors, isSubmitting } = form.formState;
  return (
    <AuthCard title="Sign in to Tay" description="Use the e-mail address and password of your business account.">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          {failure && (
            <FormFailure title={failure.title} message={failure.message}>
              {failure.code === 'EMAIL_NOT_VERIFIED' && (
                <Button mt="sm" size="xs" variant="white" color="red" loading={resending} onClick={() => void resendCode()}>
                  Send me a new code
                </Button>
              )}
            </FormFailure>
          )}
          <TextInput label="E-mail address" type="email" autoComplete="username" error={errors.email?.message} {...form.register('email')} />
          <PasswordInput label="Password" autoComplete="current-password" error={errors.password?.message} {...form.register('password')} />
          <Group justify="space-between">
            <Anchor component={Link} to={paths.forgotPassword} size="sm">
              Forgot your password?
            </Anchor>
          </Group>
          <Button type="submit" loading={isSubmitting} fullWidth>
            Sign in
          </Button>
          <Text size="sm" ta="center">
            New to Tay?{' '}
            <Anchor component={Link} to={paths.signup}>
              Create an account
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthCard>
  );
}
