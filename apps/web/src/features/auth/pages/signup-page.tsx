import { Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { z } from 'zod';
import { IDENTITY_EMPTY_MESSAGES, paths } from '@tay/contract';
import { describeFailure, identity } from '../../../lib/identity';
import { AuthCard } from '../components/auth-card';
import { ConfirmCodeForm } from '../components/confirm-code-form';
import { FormFailure } from '../components/form-failure';
import { NewPasswordFields, newPasswordSchema } from '../components/new-password-fields';

const schema = z
  .object({ email: z.string().trim().min(1, IDENTITY_EMPTY_MESSAGES.username).email('Enter your e-mail address, like name@example.com.') })
  .and(newPasswordSchema);
type Values = z.infer<typeof schema>;

/** Sign-up (docs/product.md §4): e-mail and password, then the e-mailed 6-digit code on the same page. */
export function SignupPage() {
  const [sentTo, setSentTo] = useState<{ email: string; password: string } | null>(null);
  const [failure, setFailure] = useState<ReturnType<typeof describeFailure> | null>(null);
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: { email: '', password: '', confirmPassword: '' } });

  const onSubmit = form.handleSubmit(async ({ email, password }) => {
    setFailure(null);
    const result = await identity.signUp(email, password);
    if (result.status === true) setSentTo({ email: result.data.email, password });
    else setFailure(describeFailure(result));
  });

  if (sentTo) {
    return (
      <AuthCard
        title="Check your e-mail"
        description={
          <>
            We sent a 6-digit code to <strong>{sentTo.email}</strong>. Enter it to confirm your address. The code works for 10 minutes.
          </>
        }
      >
        <ConfirmCodeForm email={sentTo.email} password={sentTo.password} />
      </AuthCard>
    );
  }

  const { errors, isSubmitting } = form.formState;
  return (
    <AuthCard title="Create your Tay account" description="Your e-mail address is your username. We will send you a code to confirm it.">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          {failure && <FormFailure title={failure.title} message={failure.message} />}
          <TextInput label="E-mail address" type="email" autoComplete="email" error={errors.email?.message} {...form.register('email')} />
          <NewPasswordFields register={form.register as never} errors={errors} />
          <Button type="submit" loading={isSubmitting} fullWidth>
            Create account
          </Button>
          <Text size="sm" ta="center">
            Already have an account?{' '}
            <Anchor component={Link} to={paths.login}>
              Sign in
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthCard>
  );
}
