import { Button, Grid, MultiSelect, NumberInput, Select, Stack, Switch, Textarea } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { notifications } from '@mantine/notifications';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import { DEFAULT_CONFIRM_ABOVE_CENTS, formatMoney, MAX_AMOUNT_CENTS, parseMoney, REMINDER_OFFSETS } from '@tay/contract';
import { MoneyInput } from '../../../components/ui/money-input';
import { useBusiness, useUpdateBusiness } from '../api/business-api';
import { applyFieldErrors } from '../components/api-field-errors';
import { SetupForm, SetupPage } from '../components/setup-page';
import { suggestedTimeZone } from '../components/setup-steps';
import { useGoToNextStep } from '../components/use-next-step';

const schema = z.object({
  timeZone: z.string().min(1, 'Choose a time zone.'),
  defaultExpiryDays: z.number({ error: 'Enter a number of days.' }).int().min(1, 'At least 1 day.').max(365, 'At most 365 days.'),
  reminderSchedule: z.array(z.string()).max(10),
  invoiceTerms: z.string().max(2000),
  confirmAbove: limit('the confirmation limit'),
  amountCeiling: limit('the highest amount'),
  allowNegativeBalance: z.boolean(),
});

/** An amount limit as typed: $1.00 to $10,000,000.00. */
function limit(label: string) {
  return z.string().refine((text) => {
    const cents = parseMoney(text);
    return cents !== null && cents >= 100 && cents <= MAX_AMOUNT_CENTS;
  }, `Enter ${label} as an amount from $1.00 to $10,000,000.00.`);
}

const dollars = (cents: number) => formatMoney(cents).replace('$', '');
type Values = z.infer<typeof schema>;

const TIME_ZONES = Intl.supportedValuesOf('timeZone');

function offsetLabel(days: number): string {
  if (days === 0) return 'On the due date';
  const n = Math.abs(days);
  return `${n} day${n === 1 ? '' : 's'} ${days < 0 ? 'before' : 'after'} the due date`;
}

/** /business/setup/config: time zone, default request expiry, reminder schedule, invoice terms. */
export function ConfigPage() {
  const business = useBusiness();
  const update = useUpdateBusiness();
  const goNext = useGoToNextStep('config');
  const c = business.data?.config;
  // Until the business saves its configuration, the zone of its address's state is offered.
  const suggested = business.data ? suggestedTimeZone(business.data) : null;
  const timeZone = suggested?.timeZone ?? c?.timeZone ?? 'America/New_York';
  const zones = TIME_ZONES.includes(timeZone) ? TIME_ZONES : [timeZone, ...TIME_ZONES];
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    values: {
      timeZone,
      defaultExpiryDays: c?.defaultExpiryDays ?? 30,
      reminderSchedule: (c?.reminderSchedule ?? []).map(String),
      invoiceTerms: c?.invoiceTerms ?? '',
      confirmAbove: dollars(c?.confirmAboveCents ?? DEFAULT_CONFIRM_ABOVE_CENTS),
      amountCeiling: dollars(c?.amountCeilingCents ?? MAX_AMOUNT_CENTS),
      allowNegativeBalance: c?.allowNegativeBalance ?? false,
    },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit((v) =>
    update.mutate(
      {
        config: {
          timeZone: v.timeZone,
          defaultExpiryDays: v.defaultExpiryDays,
          reminderSchedule: v.reminderSchedule.map(Number).sort((a, b) => a - b),
          invoiceTerms: v.invoiceTerms.trim() === '' ? null : v.invoiceTerms,
          confirmAboveCents: parseMoney(v.confirmAbove)!,
          amountCeilingCents: parseMoney(v.amountCeiling)!,
          allowNegativeBalance: v.allowNegativeBalance,
        },
      },
      {
        onSuccess: (saved) => {
          notifications.show({ color: 'teal', title: 'Configuration saved', message: 'New requests follow these settings.' });
          void goNext(saved);
        },
        onError: (error) => {
          applyFieldErrors(error, form.setError, 'config');
          notifications.show({ color: 'red', title: 'Configuration not saved', message: error.message });
        },
      },
    ),
  );

  return (
    <SetupPage
      title="Configuration"
      description="How requests to pay behave: your time zone, when they expire, and when payers are reminded."
      business={business}
    >
      <SetupForm business={business.data} onSubmit={onSubmit}>
        <Stack gap="md">
          <Grid>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <Controller
                control={form.control}
                name="timeZone"
                render={({ field }) => (
                  <Select
                    label="Time zone"
                    description={
                      suggested?.from
                        ? `Suggested from your address in ${suggested.from}; reports, due dates and scheduled sends use it`
                        : 'Reports, due dates and scheduled sends use it'
                    }
                    searchable
                    data={zones}
                    value={field.value}
                    onChange={(v) => field.onChange(v ?? '')}
                    error={errors.timeZone?.message}
                  />
                )}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <Controller
                control={form.control}
                name="defaultExpiryDays"
                render={({ field }) => (
                  <NumberInput
                    label="Requests expire after (days)"
                    description="Unless a request sets its own expiry"
                    min={1}
                    max={365}
                    allowDecimal={false}
                    value={field.value}
                    onChange={(v) => field.onChange(typeof v === 'number' ? v : Number.NaN)}
                    error={errors.defaultExpiryDays?.message}
                  />
                )}
              />
            </Grid.Col>
            <Grid.Col span={12}>
              <Controller
                control={form.control}
                name="reminderSchedule"
                render={({ field }) => (
                  <MultiSelect
                    label="Reminder schedule"
                    description="When unpaid requests are reminded, if automatic reminders are on"
                    data={REMINDER_OFFSETS.map((d) => ({ value: String(d), label: offsetLabel(d) }))}
                    value={field.value}
                    onChange={field.onChange}
                    error={errors.reminderSchedule?.message}
                  />
                )}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <Controller
                control={form.control}
                name="confirmAbove"
                render={({ field }) => (
                  <MoneyInput
                    label="Confirm amounts above"
                    description="A request, invoice or payout above this asks to confirm its amount, repeated in words"
                    value={field.value}
                    onValueChange={field.onChange}
                    error={errors.confirmAbove?.message}
                  />
                )}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <Controller
                control={form.control}
                name="amountCeiling"
                render={({ field }) => (
                  <MoneyInput
                    label="Highest amount"
                    description="A request, invoice or payout above this is refused"
                    value={field.value}
                    onValueChange={field.onChange}
                    error={errors.amountCeiling?.message}
                  />
                )}
              />
            </Grid.Col>
            <Grid.Col span={12}>
              <Controller
                control={form.control}
                name="allowNegativeBalance"
                render={({ field }) => (
                  <Switch
                    label="Allow refunds beyond the balance"
                    description="A refund your balance cannot cover goes through and your available balance goes below $0.00; no payout is approved until payments bring it back. Off: such a refund is refused, naming the shortfall."
                    checked={field.value}
                    onChange={(event) => field.onChange(event.currentTarget.checked)}
                  />
                )}
              />
            </Grid.Col>
            <Grid.Col span={12}>
              <Textarea
                label="Invoice terms"
                description="Printed on invoices; optional"
                autosize
                minRows={3}
                error={errors.invoiceTerms?.message}
                {...form.register('invoiceTerms')}
              />
            </Grid.Col>
          </Grid>
          <Button type="submit" loading={update.isPending} w="fit-content">
            Save configuration
          </Button>
        </Stack>
      </SetupForm>
    </SetupPage>
  );
}
