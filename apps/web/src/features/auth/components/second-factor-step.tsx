import { Anchor, Button, Checkbox, Group, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { describeFailure, type SecondFactorPending, type SignInData } from '../../../lib/identity';
import { secondFactor } from '../../../lib/second-factor';
import { CodeInput } from '../../../components/ui/code-input';
import { AuthCard } from './auth-card';
import { FormFailure } from './form-failure';

/**
 * The sign-in's second step (ADR 052): the 6 digits the authenticator app shows, or one of the
 * recovery codes kept at enrolment, and "Trust this device for 30 days". Each code works once; after
 * five wrong ones the API asks to wait, and this says so.
 */
export default function SecondFactorStep({
  pending,
  password,
  onSignedIn,
  onStartOver,
}: {
  pending: SecondFactorPending['secondFactor'];
  /** The password just accepted: sent again with a trusted device's token, which skips the code. */
  password: string;
  onSignedIn: (data: SignInData) => void;
  /** Back to the password; `why` says what ended this step (the pending sign-in lapsed). */
  onStartOver: (why?: ReturnType<typeof describeFailure>) => void;
}) {
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [trust, setTrust] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [failure, setFailure] = useState<ReturnType<typeof describeFailure> | null>(null);
  const [busy, setBusy] = useState(false);
  // A device the person trusted within 30 days signs in without the code.
  const [checkingTrust, setCheckingTrust] = useState(true);
  useEffect(() => {
    let live = true;
    void secondFactor.signInTrusted(pending.email, password).then((signedIn) => {
      if (!live) return;
      if (signedIn) onSignedIn(signedIn);
      else setCheckingTrust(false);
    });
    return () => {
      live = false;
    };
    // Once, for the sign-in this step belongs to.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pending.pendingToken]);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const typed = code.trim();
    const problem = !typed
      ? recovery
        ? 'Enter one of your recovery codes.'
        : 'Enter the 6 digits your authenticator app shows.'
      : !recovery && typed.length !== 6
        ? 'Enter all 6 digits of the code.'
        : undefined;
    setError(problem);
    if (problem || busy) return;
    setBusy(true);
    setFailure(null);
    const result = await secondFactor.verify(pending, typed, { recovery, trustDevice: trust });
    setBusy(false);
    if (result.status !== true) {
      const described = describeFailure(result);
      // The pending sign-in has lapsed (10 minutes) or was completed: the password is asked again.
      if (described.code === 'INVALID_TWO_FACTOR_COOKIE') onStartOver(described);
      else setFailure(described);
      return;
    }
    onSignedIn(result.data);
  };

  return (
    <AuthCard title="Sign in to Tay" description="Your account asks for a second factor.">
      <form onSubmit={(event) => void submit(event)} noValidate aria-label="Second factor">
        <Stack gap="md">
          {failure && <FormFailure title={failure.title} message={failure.message} />}
          <Text size="sm">
            {recovery
              ? 'Enter one of the recovery codes you saved when you turned on the authenticator app. Each works once.'
              : `Open your authenticator app and enter the code for Tay (${pending.email}).`}
          </Text>
          {recovery ? (
            <TextInput
              label="Recovery code"
              autoComplete="off"
              spellCheck={false}
              value={code}
              onChange={(event) => setCode(event.currentTarget.value)}
              error={error}
              data-autofocus
            />
          ) : (
            <CodeInput label="Authentication code" description="The 6 digits your authenticator app shows now" value={code} onChange={setCode} error={error} />
          )}
          <Checkbox label="Trust this device for 30 days" checked={trust} onChange={(event) => setTrust(event.currentTarget.checked)} />
          <Button type="submit" loading={busy || checkingTrust} fullWidth>
            Verify and sign in
          </Button>
          <Group justify="space-between">
            <Anchor
              component="button"
              type="button"
              size="sm"
              onClick={() => {
                setRecovery((r) => !r);
                setCode('');
                setError(undefined);
              }}
            >
              {recovery ? 'Use the authenticator app' : 'Use a recovery code'}
            </Anchor>
            <Anchor component="button" type="button" size="sm" onClick={() => onStartOver()}>
              Start over
            </Anchor>
          </Group>
        </Stack>
      </form>
    </AuthCard>
  );
}
