import { Button, Stack, ThemeIcon } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { paths } from '@tay/contract';
import { AuthCard } from '../components/auth-card';

/**
 * Reached when a sign-up was confirmed but no session came with it (docs/product.md §2, §4): on
 * to sign in. A confirmation with the code and the password normally signs the person in and
 * goes straight to their profile instead.
 */
export function SignupVerifiedPage() {
  const state = (useLocation().state ?? {}) as { email?: string };
  return (
    <AuthCard title="Your e-mail address is confirmed" description="Your Tay account is ready. Sign in to set up your profile and your business.">
      <Stack align="center" gap="lg">
        <ThemeIcon size={64} radius="xl" color="teal" variant="light" aria-hidden="true">
          <IconCircleCheck size={40} />
        </ThemeIcon>
        <Button component={Link} to={paths.login} state={{ email: state.email }} fullWidth>
          Sign in
        </Button>
      </Stack>
    </AuthCard>
  );
}
