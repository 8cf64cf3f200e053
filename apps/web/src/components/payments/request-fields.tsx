import { Button, Grid, Group, Radio, Stack, Switch, TextInput, Textarea } from '@mantine/core';
import { useState } from 'react';
import { MAX_AMOUNT_CENTS, NO_MOBILE_MESSAGE, parseMoney, type PaymentRequestInput, REQUEST_CHANNEL_LABELS, type RequestChannel } from '@tay/contract';
import { MoneyInput } from '../ui/money-input';
import { formatPhone } from '../../lib/phone';
import { zonedInputToIso } from '../../lib/send-at';
import { dayInDays, localToday } from '../../lib/local-day';
import { textFieldsOf } from '../../lib/form-fields';

/**
 * The fields of a request to pay beside its payer — how it is sent, the amount, memo, reference,
 * dates, partial payment and send time — and its Send now / Schedule / Save as draft buttons:
 * the single request's form and the request for one student (ADR 036) share them.
 */

export type RequestMode = PaymentRequestInput['mode'];
export type RequestFieldErrors = Partial<
  Record<'payerId' | 'channel' | 'amountCents' | 'dueDate' | 'expiresOn' | 'sendAt' | 'memo' | 'reference', string> & Record<string, string>
>;

export interface RequestFieldValues {
  channel: RequestChannel;
  amount: string;
  memo: string;
  reference: string;
  dueDate: string;
  expiresOn: string;
  allowPartial: boolean;
  sendAt: string;
}

export const dateInDays = dayInDays;
export const today = localToday;

/** A new request's first values: e-mailed, due in two weeks. */
export const newRequestValues = (): RequestFieldValues => ({
  channel: 'email',
  amount: '',
  memo: '',
  reference: '',
  dueDate: dateInDays(14),
  expiresOn: '',
  allowPartial: false,
  sendAt: '',
});

/** The fields' values and errors, with one setter for any field. */
export function useRequestFields(initial: RequestFieldValues) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<RequestFieldErrors>({});
  const set = <K extends keyof RequestFieldValues>(key: K, value: RequestFieldValues[K]) => setValues((v) => ({ ...v, [key]: value }));
  return { values, set, errors, setErrors };
}

/**
 * The fields checked as the API checks them, each refusal on its field; the body's fields (all
 * but the payer) when none is refused.
 */
export function checkRequestFields(
  v: RequestFieldValues,
  mode: RequestMode,
  timeZone: string,
): { errors: RequestFieldErrors; fields: Omit<PaymentRequestInput, 'payerId' | 'channel'> | null } {
  const errors: RequestFieldErrors = {};
  const cents = parseMoney(v.amount);
  if (cents === null) errors.amountCents = 'Enter an amount like 125.00.';
  else if (cents <= 0) errors.amountCents = 'Enter an amount above $0.00.';
  else if (cents > MAX_AMOUNT_CENTS) errors.amountCents = 'The amount is above the $10,000,000.00 limit.';
  if (!v.dueDate) errors.dueDate = 'Choose the due date.';
  else if (v.dueDate < today()) errors.dueDate = 'Choose today or a later date.';
  if (v.expiresOn && v.expiresOn < v.dueDate) errors.expiresOn = 'The expiry cannot be before the due date.';
  const sendAtIso = zonedInputToIso(v.sendAt, timeZone);
  if (mode === 'schedule') {
    if (!v.sendAt) errors.sendAt = 'Choose when to send it.';
    else if (!sendAtIso) errors.sendAt = `Enter a date and time that exists in ${timeZone}, like 2026-05-01 09:00.`;
    else if (new Date(sendAtIso).getTime() <= Date.now()) errors.sendAt = 'Choose a time in the future.';
  }
  if (Object.keys(errors).length > 0) return { errors, fields: null };
  return {
    errors,
    fields: {
      amountCents: cents!,
      memo: v.memo,
      reference: v.reference,
      dueDate: v.dueDate,
      expiresOn: v.expiresOn || null,
      allowPartial: v.allowPartial,
      mode,
      sendAt: mode === 'schedule' ? sendAtIso : null,
    },
  };
}

/**
 * E-mail or text message. `to` is whom it goes to: their e-mail, and their mobile number (null
 * when known to have none, undefined when not known); null before anyone is chosen.
 */
export function ChannelField({
  value,
  onChange,
  error,
  to,
  who = 'the payer',
}: {
  value: RequestChannel;
  onChange: (next: RequestChannel) => void;
  error?: string | undefined;
  to: { email: string; mobileNumber?: string | null | undefined } | null;
  who?: string;
}) {
  return (
    <Radio.Group<RequestChannel>
      label="Send by"
      description="How the payer gets the link, resends and reminders. Receipts always go by e-mail."
      value={value}
      onChange={onChange}
      error={error}
    >
      <Stack gap="xs" mt={6}>
        <Radio value="email" label={REQUEST_CHANNEL_LABELS.email} description={to ? `E-mailed to ${to.email}` : `E-mailed to ${who}`} />
        <Radio
          value="sms"
          label={REQUEST_CHANNEL_LABELS.sms}
          disabled={to?.mobileNumber === null}
          description={
            to?.mobileNumber === null ? NO_MOBILE_MESSAGE : to?.mobileNumber ? `Texted to ${formatPhone(to.mobileNumber)}` : `Texted to ${who}’s mobile number`
          }
        />
      </Stack>
    </Radio.Group>
  );
}

/** Amount, reference, memo, due date, expiry, partial payment and the send time. */
export function RequestDetailsFields({
  values,
  set,
  errors,
  timeZone,
  withAmount = true,
  partial = { label: 'Allow partial payment', description: 'The payer may pay part now and the rest later' },
}: {
  values: RequestFieldValues;
  set: <K extends keyof RequestFieldValues>(key: K, value: RequestFieldValues[K]) => void;
  errors: RequestFieldErrors;
  timeZone: string;
  /** Without the amount field: a patient's statement (ADR 037) is the total of its lines. */
  withAmount?: boolean;
  /** The partial-payment switch's words (a statement's is its payment plan). */
  partial?: { label: string; description: string };
}) {
  const field = textFieldsOf(values, errors, set);
  return (
    <Grid>
      {withAmount && (
        <Grid.Col span={{ base: 12, sm: 6 }}>
          <MoneyInput label="Amount (USD)" value={values.amount} onValueChange={(v) => set('amount', v)} error={errors.amountCents} />
        </Grid.Col>
      )}
      <Grid.Col span={{ base: 12, sm: 6 }}>
        <TextInput label="Your reference" description="Optional: an invoice or account number" {...field('reference')} maxLength={64} />
      </Grid.Col>
      <Grid.Col span={12}>
        <Textarea label="Memo" description="What it is for; the payer sees it" autosize minRows={2} maxLength={500} {...field('memo')} />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6 }}>
        <TextInput label="Due date" type="date" min={today()} {...field('dueDate')} />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6 }}>
        <TextInput label="Expires on" description="Optional: the business default applies otherwise" type="date" min={values.dueDate} {...field('expiresOn')} />
      </Grid.Col>
      <Grid.Col span={12}>
        <Switch
          label={partial.label}
          description={partial.description}
          checked={values.allowPartial}
          onChange={(e) => set('allowPartial', e.currentTarget.checked)}
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6 }}>
        <TextInput
          label="Send later (optional)"
          description={`Pick a time in ${timeZone}, the business’s time zone, then choose Schedule`}
          type="datetime-local"
          {...field('sendAt')}
        />
      </Grid.Col>
    </Grid>
  );
}

/** Send now (the form's submit), Schedule, and Save as draft (not for a scheduled request being edited). */
export function RequestSubmitButtons({
  disabled,
  pendingMode,
  withDraft = true,
  onSubmit,
}: {
  disabled: boolean;
  pendingMode: RequestMode | null;
  withDraft?: boolean;
  onSubmit: (mode: RequestMode) => void;
}) {
  return (
    <Group>
      <Button type="submit" disabled={disabled} loading={pendingMode === 'send'}>
        Send now
      </Button>
      <Button variant="light" onClick={() => onSubmit('schedule')} disabled={disabled} loading={pendingMode === 'schedule'}>
        Schedule
      </Button>
      {withDraft && (
        <Button variant="default" onClick={() => onSubmit('draft')} disabled={disabled} loading={pendingMode === 'draft'}>
          Save as draft
        </Button>
      )}
    </Group>
  );
}
