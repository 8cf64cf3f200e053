import { TextInput } from '@mantine/core';

interface Props {
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  label?: string;
  description?: string;
}

/** The 6-digit code from the e-mail; pasting the code or typing it both work. */
export function CodeInput({ value, onChange, error, label = 'Confirmation code', description = 'The 6 digits from the e-mail we sent you' }: Props) {
  return (
    <TextInput
      label={label}
      description={description}
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value.replace(/\D/g, '').slice(0, 6))}
      error={error}
      styles={{ input: { letterSpacing: '0.4em', fontSize: 20, fontFamily: 'monospace' } }}
    />
  );
}
