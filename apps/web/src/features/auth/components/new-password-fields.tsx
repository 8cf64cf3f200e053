import { List, PasswordInput, Stack, Text } from '@mantine/core';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { z } from 'zod';

export const MIN_PASSWORD = 8;

/** A new password typed twice; the server also refuses common and easily guessed ones. */
export const newPasswordSchema = z
  .object({
    password: z
      .string()
      .min(1, 'Password cannot be empty')
      .min(MIN_PASSWORD, `Use at least ${MIN_PASSWORD} characters.`)
      .max(128, 'Use at most 128 characters.'),
    confirmPassword: z.string(),
  })
  .refine((v) => v.password === v.confirmPassword, { message: 'The passwords do not match.', path: ['confirmPassword'] });

interface Props {
  register: UseFormRegister<{ password: string; confirmPassword: string }>;
  errors: FieldErrors<{ password: string; confirmPassword: string }>;
  label?: string;
}

export function NewPasswordFields({ register, errors, label = 'Password' }: Props) {
  return (
    <Stack gap="xs">
      <PasswordInput label={label} autoComplete="new-password" error={errors.password?.message} {...register('password')} />
      <PasswordInput
        label={`Confirm ${label.toLowerCase()}`}
        autoComplete="new-password"
        error={errors.confirmPassword?.message}
        {...register('confirmPassword')}
      />
      <Text size="xs" c="dimmed" component="div">
        <List size="xs" spacing={0}>
          <List.Item>At least {MIN_PASSWORD} characters; long passphrases are welcome.</List.Item>
          <List.Item>Not a commonly used password, and not your e-mail address.</List.Item>
        </List>
      </Text>
    </Stack>
  );
}
