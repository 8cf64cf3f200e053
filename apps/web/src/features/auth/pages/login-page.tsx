import { Alert, Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { IconMailCheck } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { IDENTITY_EMPTY_MESSAGES, paths } from '@tay/contract';
import { describeFailure, identity, type SecondFactorPending, type SignInData } from '../../../lib/identity';
import { sessionKey } from '../../../lib/session';
import { AuthCard } from '../components/auth-card';
import { CodeInput } from '../../../components/ui/code-input';
import { FormFailure } from '../components/form-failure';
import { EMAIL_ADDRESS } from '../email-address';

type Values = { email: string; password: string };
type Errors = Partial<Record<keyof Values, string>>;

/** The form's checks, by hand: this page is in the app's first bundle, which carries neither the schemas nor a form library. */
function validate({ email, password }: Values): Errors {
  const errors: Errors = {};
  const address = email.trim();
  if (!address) errors.email = IDENTITY_EMPTY_MESSAGES.username;
  else if (!EMAIL_ADDRESS.test(address)) errors.email = 'Enter your e-mail address, like name@example.com.';
  if (!password) errors.password = IDENTITY_EMPTY_MESSAGES.password;
  return errors;
}

/** Someone has been guessing this account's password: signing in needs the e-mailed code too. */
interface CodeStep {
  email: string;
  message: string;
}

const normalised = (email: string) => email.trim().toLowerCase();

// Only someone whose authenticator app is on needs it: kept out of the sign-in page's first bundle.
const SecondFactorStep = lazy(() => import('../components/second-factor-step'));

export function LoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const state = (location.state ?? {}) as { from?: string; email?: string };
  const [failure, setFailure] = useState<ReturnType<typeof describeFailure> | null>(null);
  const [resending, setResending] = useState(false);
  const [values, setValues] = useState<Values>({ email: state.email ?? '', password: '' });
  const [errors, setErrors] = useState<Errors>({});
  // After the first attempt, the fields are checked again as they change.
  const [attempted, setAttempted] = useState(false);
  const [isSubmitting, setSubmitting] = useState(false);
  const [codeStep, setCodeStep] = useState<CodeStep | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | undefined>();
  const [askingForCode, setAskingForCode] = useState(false);
  const [secondFactor, setSecondFactor] = useState<SecondFactorPending['secondFactor'] | null>(null);
  const emailInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);
  // The code belongs to the address it was e-mailed to; another address starts over.
  const activeCodeStep = codeStep && codeStep.email === normalised(values.email) ? codeStep : null;

  const change = (field: keyof Values) => (event: ChangeEvent<HTMLInputElement>) => {
    const next = { ...values, [field]: event.currentTarget.value };
    setValues(next);
    if (attempted) setErrors(validate(next));
  };

  const signIn = async (withCode?: string) => {
    const email = values.email.trim();
    const result = await identity.signIn(email, values.password, withCode);
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
    if ('secondFactor' in result.data) {
      setFailure(null);
      setSecondFactor(result.data.secondFactor);
      return;
    }
    signedIn(result.data);
  };

  const signedIn = (data: SignInData) => {
    queryClient.setQueryData(sessionKey, data.user);
    if (data.challenge === 'NEW_PASSWORD_REQUIRED') void navigate(paths.newPassword, { replace: true });
    else void navigate(state.from ?? paths.business.setup, { replace: true });
  };

  /** Checks the fields; false (with the first wrong field focused) when they are not right. */
  const fieldsAreValid = (): boolean => {
    setAttempted(true);
    const found = validate(values);
    setErrors(found);
    if (found.email || found.password) {
      (found.email ? emailInput : passwordInput).current?.focus();
      return false;
    }
    return true;
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (isSubmitting || !fieldsAreValid()) return;
    let withCode: string | undefined;
    if (activeCodeStep) {
      const problem = !code ? 'Enter the 6-digit code from the e-mail.' : code.length !== 6 ? 'Enter all 6 digits of the code.' : undefined;
      setCodeError(problem);
      if (problem) return;
      withCode = code;
    }
    setSubmitting(true);
    try {
      setFailure(null);
      await signIn(withCode);
    } finally {
      setSubmitting(false);
    }
  };

  const askForNewCode = async () => {
    if (!fieldsAreValid()) return;
    setFailure(null);
    setAskingForCode(true);
    setCode('');
    setCodeError(undefined);
    try {
      await signIn();
    } finally {
      setAskingForCode(false);
    }
  };

  const resendCode = async () => {
    const { email, password } = values;
    setResending(true);
    await identity.resendSignUp(email);
    setResending(false);
    void navigate(paths.signupConfirmation, { state: { email: email.trim().toLowerCase(), password } });
  };

  if (secondFactor) {
    return (
      <Suspense>
        <SecondFactorStep
          pending={secondFactor}
          password={values.password}
          onSignedIn={signedIn}
          onStartOver={(why) => {
            setSecondFactor(null);
            setFailure(why ?? null);
            setValues((v) => ({ ...v, password: '' }));
          }}
        />
      </Suspense>
    );
  }

  return (
    <AuthCard title="Sign in to Tay" description="Use the e-mail address and password of your business account.">
      <form onSubmit={(event) => void onSubmit(event)} noValidate>
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
          <TextInput
            ref={emailInput}
            label="E-mail address"
            type="email"
            autoComplete="username"
            error={errors.email}
            value={values.email}
            onChange={change('email')}
          />
          <PasswordInput
            ref={passwordInput}
            label="Password"
            autoComplete="current-password"
            error={errors.password}
            value={values.password}
            onChange={change('password')}
          />
          {activeCodeStep && (
            <>
              <Alert color="blue" icon={<IconMailCheck />} title="Check your e-mail" role="status">
                <Text size="sm">{activeCodeStep.message}</Text>
              </Alert>
              <CodeInput label="Sign-in code" description="The 6 digits from the newest e-mail from Tay" value={code} onChange={setCode} error={codeError} />
            </>
          )}
          <Group justify="space-between">
            <Anchor component={Link} to={paths.forgotPassword} size="sm">
              Forgot your password?
            </Anchor>
          </Group>
          <Button type="submit" loading={isSubmitting} fullWidth>
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
