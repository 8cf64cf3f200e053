import { Grid, SegmentedControl, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { FieldErrors } from '@tay/contract';
import { toE164 } from '../../lib/phone';
import { PayerPicker, type PickedPayer } from './payer-picker';

/**
 * Who pays for someone a business bills through another person (a student's guardian, a
 * patient's guarantor): one of its payers, or the details of a new one. An e-mail one of the
 * business's payers already has is that payer on the server, never a copy.
 */
export interface PayerChoice {
  mode: 'existing' | 'new';
  picked: PickedPayer | null;
  firstName: string;
  lastName: string;
  email: string;
  mobile: string;
}

export function payerChoice(mode: PayerChoice['mode'], picked: PickedPayer | null = null): PayerChoice {
  return { mode, picked, firstName: '', lastName: '', email: '', mobile: '' };
}

/** The choice as the API takes it, with the problems found before sending it under `${prefix}.<field>`. */
export function payerChoiceBody(
  choice: PayerChoice,
  prefix: string,
  { withNames, missing }: { withNames: boolean; missing: string },
): { body: { payerId: string } | { firstName?: string; lastName?: string; email: string; mobile: string | null }; errors: FieldErrors } {
  const errors: FieldErrors = {};
  if (choice.mode === 'existing') {
    if (!choice.picked) errors[`${prefix}.payerId`] = missing;
    return { body: { payerId: choice.picked?.payerId ?? '' }, errors };
  }
  const mobile = choice.mobile.trim() ? toE164(choice.mobile) : null;
  if (choice.mobile.trim() && !mobile) errors[`${prefix}.mobile`] = 'Enter a valid mobile number, like (415) 555-0123.';
  const contact = { email: choice.email, mobile };
  return { body: withNames ? { firstName: choice.firstName, lastName: choice.lastName, ...contact } : contact, errors };
}

interface PayerChoiceFieldsProps {
  value: PayerChoice;
  onChange: (next: PayerChoice) => void;
  /** The error of one field (`payerId`, `firstName`, `lastName`, `email`, `mobile`). */
  error: (field: string) => string | undefined;
  /** Starts each label: "First guardian: e-mail", "Guarantor: payer". */
  who: string;
  /** The switch's accessible name, and its two options in the order shown. */
  modeLabel: string;
  options: { value: PayerChoice['mode']; label: string }[];
  /** A new payer's names are asked for (not when the person billed pays for themself). */
  withNames?: boolean;
  emailLabel?: string;
  emailDescription?: string;
  emailMaxLength: number;
  mobileLabel?: string;
}

/** Below the small breakpoint (a phone) the two options are stacked: side by side they are cut off. */
const PHONE = '(max-width: 47.99em)';

/** A two-option switch's layout: across the form's width, its options one above the other on a phone. */
export function useSwitchLayout(): { fullWidth: true; orientation: 'vertical' | 'horizontal' } {
  const phone = useMediaQuery(PHONE, undefined, { getInitialValueInEffect: false });
  return { fullWidth: true, orientation: phone ? 'vertical' : 'horizontal' };
}

/** The switch between one of the business's payers and a new one, and the fields of each. */
export function PayerChoiceFields({
  value,
  onChange,
  error,
  who,
  modeLabel,
  options,
  withNames = true,
  emailLabel = `${who}: e-mail`,
  emailDescription = 'If one of your payers has this e-mail, they are used (never a copy).',
  emailMaxLength,
  mobileLabel = `${who}: mobile number`,
}: PayerChoiceFieldsProps) {
  const set = (changes: Partial<PayerChoice>) => onChange({ ...value, ...changes });
  const layout = useSwitchLayout();
  return (
    <>
      <SegmentedControl {...layout} aria-label={modeLabel} value={value.mode} onChange={(mode) => set({ mode: mode as PayerChoice['mode'] })} data={options} />
      {value.mode === 'existing' ? (
        <PayerPicker label={`${who}: payer`} value={value.picked} onChange={(picked) => set({ picked })} error={error('payerId')} />
      ) : (
        <Grid>
          {withNames && (
            <>
              <Grid.Col span={{ base: 12, sm: 6 }}>
                <TextInput
                  label={`${who}: first name`}
                  required
                  autoComplete="off"
                  maxLength={100}
                  value={value.firstName}
                  onChange={(e) => set({ firstName: e.currentTarget.value })}
                  error={error('firstName')}
                />
              </Grid.Col>
              <Grid.Col span={{ base: 12, sm: 6 }}>
                <TextInput
                  label={`${who}: last name`}
                  required
                  autoComplete="off"
                  maxLength={100}
                  value={value.lastName}
                  onChange={(e) => set({ lastName: e.currentTarget.value })}
                  error={error('lastName')}
                />
              </Grid.Col>
            </>
          )}
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <TextInput
              label={emailLabel}
              description={emailDescription}
              type="email"
              required
              autoComplete="off"
              maxLength={emailMaxLength}
              value={value.email}
              onChange={(e) => set({ email: e.currentTarget.value })}
              error={error('email')}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <TextInput
              label={mobileLabel}
              description="Optional"
              type="tel"
              autoComplete="off"
              maxLength={24}
              value={value.mobile}
              onChange={(e) => set({ mobile: e.currentTarget.value })}
              error={error('mobile')}
            />
          </Grid.Col>
        </Grid>
      )}
    </>
  );
}
