import { TextInput, type TextInputProps } from '@mantine/core';

type MoneyInputProps = Omit<TextInputProps, 'onChange' | 'leftSection' | 'inputMode' | 'value'> & {
  /** The text as typed ("1,234.50"); read it with the contract's `parseMoney`. */
  value: string;
  onValueChange: (value: string) => void;
};

/**
 * A dollar amount, as every form and payer page takes one: text (so "1,234.50" and "$12" read as
 * typed, with no rounding by the browser), a "$" before it, and the decimal keypad on phones.
 */
export function MoneyInput({ onValueChange, ...props }: MoneyInputProps) {
  return <TextInput inputMode="decimal" leftSection="$" placeholder="0.00" {...props} onChange={(e) => onValueChange(e.currentTarget.value)} />;
}
