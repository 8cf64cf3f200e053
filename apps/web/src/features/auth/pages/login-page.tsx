import { Alert, Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { IconMailCheck } from '@tabler/icons-react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link, useLocation, useNavigate } from 'react-router';
import { z } from 'zod';
import { IDENTITY_EMPTY_MESSAGES, paths } from '@tay/contract';
import { describeFailure, identity } from '../../../lib/identity';
import { sessionKey } from '../../../lib/session';
import { AuthCard } from '../components/auth-card';
import { CodeInput } from '../components/code-input';
import { FormFailure } from '../components/form-failure';

const schema = z.object({
  email: z.string().trim().min(1, IDENTITY_EMPTY_MESSAGES.username).email('Enter your e-mail address, like name@example.com.'),
  password: z.string().min(1, IDENTITY_EMPTY_MESSAGES.password),
});
type Values = z.infer<typeof schema>;

/** Someone has been guessing this account's password: signing in needs the e-mailed code too. */
interface CodeStep {
  email: string;
  message: string;
}

const normalised = (email: string) => email.trim().toLowerCase();

export function LoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const state = (location.state ?? {}) as { from?: string; email?: string };
  const [failure, setFailure] = useState<ReturnType<typeof describeFailure> | null>(null);
  const [resending, setResending] = useState(false);
  const [codeStep, setCodeStep] = useState<CodeStep | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | undefined>();
  const [askingForCode, setAskingForCode] = useState(false);
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: { email: state.email ?? '', password: '' } });
  // The code belongs to the address it was e-mailed to; another address starts over.
  const typedEmail = useWatch({ control: form.control, name: 'email' });
  const activeCodeStep = codeStep && codeStep.email === normalised(typedEmail) ? codeStep : null;

  const signIn = async (email: string, password: string, withCode?: string) => {
    const result = await identity.signIn(email, password, withCode);
    if (result.status !== true) {
      const described = describeFailure(result);
      if (described.code === 'SIGN_IN_CODE_REQUIRED') {
        setCodeStep({ email: normalised(email), message: described.message });
        setFailure(null);
      } else {
        setFailure(described);
      }
      return;
    }
    queryClient.setQueryData(sessionKey, result.data.user);
    if (result.data.challenge === 'NEW_PASSWORD_REQUIRED') navigate(paths.newPassword, { replace: true });
    else navigate(state.from ?? paths.business.setup, { replace: true });
  };

  const onSubmit = form.handleSubmit(async ({ email, password }) => {
    setFailure(null);
    if (!activeCodeStep) return signIn(email, password);
    const problem = !code ? 'Enter the 6-digit code from the e-mail.' : code.length !== 6 ? 'Enter all 6 digits of the code.' : undefined;
    setCodeError(problem);
    if (!problem) await signIn(email, password, code);
  });

  const askForNewCode = form.handleSubmit(async ({ email, password }) => {
    setFailure(null);
    setAskingForCode(true);
    setCode('');
    setCodeError(undefined);
    await signIn(email, password);
    setAskingForCode(false);
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
          {activeCodeStep && (
            <>
              <Alert color="blue" icon={<IconMailCheck />} title="Check your e-mail" role="status">
                <Text size="sm">{activeCodeStep.message}</Text>
              </Alert>
              <CodeInput
                label="Sign-in code"
                description="The 6 digits from the newest e-mail from Tay"
                value={code}
                onChange={setCode}
                error={codeError}
              />
            </>
          )}
          <Group justify="space-between">
            <Anchor component={Link} to={paths.forgotPassword} size="sm">
              Forgot your password?
            </Anchor>
          </Group>
          <Button type="submit" loading={isSubmitting && !askingForCode} fullWidth>
            Sign in
          </Button>
          {activeCodeStep && (
            <Group justify="center" gap={6}>
              <Text size="sm" c="dimmed">
                No e-mail, or the code has expired?
              </Text>
              <Button variant="subtle" size="compact-sm" loading={askingForCode} onClick={() => void askForNewCode()}>
                E-mail me a new code
              </Button>
            </Group>
          )}
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
