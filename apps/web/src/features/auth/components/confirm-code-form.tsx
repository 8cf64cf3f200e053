import { Anchor, Button, Group, PasswordInput, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { IDENTITY_EMPTY_MESSAGES, paths } from '@tay/contract';
import { describeFailure, identity } from '../../../lib/identity';
import { sessionKey } from '../../../lib/session';
import { CodeInput } from '../../../components/ui/code-input';
import { FormFailure } from './form-failure';

interface Props {
  email: string;
  /** The password typed at sign-up, when this page still has it; otherwise it is asked for. */
  password?: string | undefined;
}

/**
 * Enter the e-mailed code (and, after a reload or in another browser, the password) to confirm a
 * sign-up. The code with the password signs the person in: on to the profile they complete
 * first. Should the server open no session, /signup/verified asks them to sign in.
 */
export function ConfirmCodeForm({ email, password: knownPassword }: Props) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [code, setCode] = useState('');
  const [password, setPassword] = useState(knownPassword ?? '');
  const [errors, setErrors] = useState<{ code?: string; password?: string }>({});
  const [failure, setFailure] = useState<ReturnType<typeof describeFailure> | null>(null);
  const [busy, setBusy] = useState(false);
  const [resending, setResending] = useState(false);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const next: typeof errors = {};
    if (!code.trim()) next.code = IDENTITY_EMPTY_MESSAGES.code;
    else if (code.length !== 6) next.code = 'Enter all 6 digits of the code.';
    if (!password) next.password = IDENTITY_EMPTY_MESSAGES.password;
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    setBusy(true);
    setFailure(null);
    const result = await identity.confirmSignUp(email, code, password);
    setBusy(false);
    if (result.status !== true) {
      setFailure(describeFailure(result));
      return;
    }
    const { session } = result.data;
    if (!session) {
      void navigate(paths.signupVerified, { state: { email }, replace: true });
      return;
    }
    queryClient.setQueryData(sessionKey, session.user);
    void navigate(paths.business.userProfile, { replace: true });
  };

  const resend = async () => {
    setResending(true);
    await identity.resendSignUp(email);
    setResending(false);
    setCode('');
    void navigate(paths.signupConfirmation, { state: { email, password: password || knownPassword, resent: true } });
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <Stack gap="md">
        {failure && (
          <FormFailure title={failure.title} message={failure.message}>
            {failure.code === 'CONFIRMATION_PASSWORD_MISMATCH' && (
              <Anchor href={paths.signup} size="sm" c="red.9" fw={600}>
                Sign up again
              </Anchor>
            )}
          </FormFailure>
        )}
        <CodeInput value={code} onChange={setCode} error={errors.code} />
        {!knownPassword && (
          <PasswordInput
            label="Password"
            description="The password you chose when you signed up"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={errors.password}
          />
        )}
        <Button type="submit" loading={busy} fullWidth>
          Confirm my e-mail address
        </Button>
        <Group justify="center" gap={6}>
          <Text size="sm" c="dimmed">
            No e-mail after a minute? Check your spam folder, or
          </Text>
          <Button variant="subtle" size="compact-sm" loading={resending} onClick={() => void resend()}>
            send a new code
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
