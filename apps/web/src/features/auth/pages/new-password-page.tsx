import { Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate } from 'react-router';
import { IDENTITY_EMPTY_MESSAGES, paths } from '@tay/contract';
import { describeFailure, identity } from '../../../lib/identity';
import { useSession } from '../../../lib/session';
import { AuthCard } from '../components/auth-card';
import { CodeInput } from '../../../components/ui/code-input';
import { FormFailure } from '../components/form-failure';
import { NewPasswordFields, newPasswordSchema } from '../components/new-password-fields';

type Values = { password: string; confirmPassword: string };

/**
 * New password, for both flows (docs/product.md §4): the forgot-password code with a new password, and the
 * new-password-required challenge of a signed-in person with a temporary password.
 */
export function NewPasswordPage() {
  const session = useSession();
  const challenge = session.status === 'authenticated' && session.user?.mustChangePassword === true;
  return challenge ? <ChallengeForm /> : <ResetForm />;
}

function ChallengeForm() {
  const session = useSession();
  const [failure, setFailure] = useState<ReturnType<typeof describeFailure> | null>(null);
  const form = useForm<Values>({ resolver: zodResolver(newPasswordSchema), defaultValues: { password: '', confirmPassword: '' } });

  const onSubmit = form.handleSubmit(async ({ password }) => {
    setFailure(null);
    const result = await identity.completeNewPassword(password);
    if (result.status !== true) {
      setFailure(describeFailure(result));
      return;
    }
    notifications.show({ color: 'teal', title: 'Password set', message: 'Your new password is ready to use.' });
    await session.refresh();
  });

  return (
    <AuthCard
      title="Choose your password"
      description={
        <>
          You signed in with a temporary password
          {session.user ? (
            <>
              {' '}
              for <strong>{session.user.email}</strong>
            </>
          ) : null}
          . Choose your own password to continue.
        </>
      }
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          {failure && <FormFailure title={failure.title} message={failure.message} />}
          <NewPasswordFields register={form.register} errors={form.formState.errors} label="New password" />
          <Button type="submit" loading={form.formState.isSubmitting} fullWidth>
            Set password and continue
          </Button>
          <Button variant="subtle" color="gray" onClick={() => void session.signOut()}>
            Sign out
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}

function ResetForm() {
  const navigate = useNavigate();
  const state = (useLocation().state ?? {}) as { email?: string };
  const [email, setEmail] = useState(state.email ?? '');
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string>();
  const [emailError, setEmailError] = useState<string>();
  const [failure, setFailure] = useState<ReturnType<typeof describeFailure> | null>(null);
  const form = useForm<Values>({ resolver: zodResolver(newPasswordSchema), defaultValues: { password: '', confirmPassword: '' } });

  const onSubmit = form.handleSubmit(async ({ password }) => {
    setEmailError(email.trim() ? undefined : IDENTITY_EMPTY_MESSAGES.username);
    setCodeError(code ? (code.length === 6 ? undefined : 'Enter all 6 digits of the code.') : IDENTITY_EMPTY_MESSAGES.code);
    if (!email.trim() || code.length !== 6) return;
    setFailure(null);
    const result = await identity.forgotPasswordSubmit(email, code, password);
    if (result.status !== true) {
      setFailure(describeFailure(result));
      return;
    }
    notifications.show({
      color: 'teal',
      title: 'Password changed',
      message: 'Sign in with your new password. You were signed out everywhere else.',
    });
    void navigate(paths.login, { replace: true, state: { email: email.trim().toLowerCase() } });
  });

  return (
    <AuthCard
      title="Choose a new password"
      description={
        state.email ? (
          <>
            If <strong>{state.email}</strong> has a Tay account, a 6-digit code is on its way. Enter it with your new password.
          </>
        ) : (
          'Enter the code from the password reset e-mail and your new password.'
        )
      }
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          {failure && <FormFailure title={failure.title} message={failure.message} />}
          {!state.email && (
            <TextInput
              label="E-mail address"
              type="email"
              autoComplete="username"
              value={email}
              error={emailError}
              onChange={(e) => setEmail(e.currentTarget.value)}
            />
          )}
          <CodeInput value={code} onChange={setCode} error={codeError} />
          <NewPasswordFields register={form.register} errors={form.formState.errors} label="New password" />
          <Button type="submit" loading={form.formState.isSubmitting} fullWidth>
            Change password
          </Button>
          <Text size="sm" ta="center">
            No code?{' '}
            <Anchor component={Link} to={paths.forgotPassword}>
              Ask for a new one
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthCard>
  );
}
