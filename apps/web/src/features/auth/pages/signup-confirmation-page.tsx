import { Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { paths } from '@tay/contract';
import { AuthCard } from '../components/auth-card';
import { ConfirmCodeForm } from '../components/confirm-code-form';

/** Reached after the sign-up code is resent (docs/product.md §2); also where an unconfirmed sign-in leads. */
export function SignupConfirmationPage() {
  const state = (useLocation().state ?? {}) as { email?: string; password?: string; resent?: boolean };
  const [email, setEmail] = useState(state.email ?? '');
  const [chosen, setChosen] = useState(Boolean(state.email));

  if (!chosen) {
    return (
      <AuthCard title="Confirm your e-mail address" description="Enter the address you signed up with.">
        <Stack>
          <TextInput label="E-mail address" type="email" value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
          <Button disabled={!email.includes('@')} onClick={() => setChosen(true)}>
            Continue
          </Button>
        </Stack>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="We sent you a new code"
      description={
        <>
          A new 6-digit code is on its way to <strong>{email}</strong>; earlier codes no longer work.
        </>
      }
    >
      <ConfirmCodeForm key={email} email={email} password={state.password} />
      <Text size="sm" ta="center">
        Wrong address?{' '}
        <Anchor component={Link} to={paths.signup}>
          Sign up again
        </Anchor>
      </Text>
    </AuthCard>
  );
}
