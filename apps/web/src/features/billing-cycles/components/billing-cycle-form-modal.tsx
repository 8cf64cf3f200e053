import { ActionIcon, Alert, Button, Group, Modal, MultiSelect, NumberInput, Radio, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { BillingCycleInput, formatDay, formatMoney, type BillingCycle, type BillingSchedule, type FieldErrors } from '@tay/contract';
import { ApiError } from '../../../lib/api-client';
import { useActivePrograms, useSaveBillingCycle } from '../api/billing-cycles-api';

interface PeriodValues {
  start: string;
  end: string;
  label: string;
}

export interface CycleFormValues {
  name: string;
  schedule: BillingSchedule;
  dayOfMonth: string;
  periods: PeriodValues[];
  programIds: string[];
  autoSubmit: boolean;
}

const EMPTY_PERIOD: PeriodValues = { start: '', end: '', label: '' };

const valuesOf = (cycle: BillingCycle | null): CycleFormValues =>
  cycle
    ? {
        name: cycle.name,
        schedule: cycle.schedule,
        dayOfMonth: cycle.dayOfMonth === null ? '1' : String(cycle.dayOfMonth),
        periods: cycle.periods.length ? cycle.periods.map((p) => ({ ...p })) : [{ ...EMPTY_PERIOD }],
        programIds: cycle.programs.map((p) => p.programId),
        autoSubmit: cycle.autoSubmit,
      }
    : { name: '', schedule: 'monthly', dayOfMonth: '1', periods: [{ ...EMPTY_PERIOD }], programIds: [], autoSubmit: false };

/** The form's values as the contract's body, every problem named by its field as the API names it ("periods.1.start"). */
export function checkBillingCycle(values: CycleFormValues): { ok: true; body: BillingCycleInput } | { ok: false; errors: FieldErrors } {
  const monthly = values.schedule === 'monthly';
  const day = values.dayOfMonth.trim() === '' ? null : Number(values.dayOfMonth);
  const body: BillingCycleInput = {
    name: values.name,
    schedule: values.schedule,
    dayOfMonth: monthly ? day : null,
    ...(monthly ? {} : { periods: values.periods.map((p) => ({ start: p.start, end: p.end, label: p.label })) }),
    programIds: values.programIds,
    autoSubmit: values.autoSubmit,
  };
  const parsed = BillingCycleInput.safeParse(body);
  if (parsed.success) return { ok: true, body };
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) errors[issue.path.map(String).join('.')] ??= issue.message;
  return { ok: false, errors };
}

const SCHEDULE_HINTS: Record<BillingSchedule, string> = {
  monthly: 'Runs on a day of every month and bills that calendar month.',
  term: 'Runs at the start of each term and bills the term.',
  custom: 'Runs at the start of each period you list and bills that period.',
};

/** Create or edit a billing cycle: its schedule, the programs it bills, and whether a run submits at once. */
function CycleForm({ cycle, onClose }: { cycle: BillingCycle | null; onClose: () => void }) {
  const [values, setValues] = useState<CycleFormValues>(valuesOf(cycle));
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useSaveBillingCycle();
  const programs = useActivePrograms();

  const set = <K extends keyof CycleFormValues>(key: K, value: CycleFormValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((current) => Object.fromEntries(Object.entries(current).filter(([field]) => field !== key && !field.startsWith(`${key}.`))));
  };
  const setPeriod = (index: number, key: keyof PeriodValues, value: string) =>
    set(
      'periods',
      values.periods.map((p, i) => (i === index ? { ...p, [key]: value } : p)),
    );
  const addPeriod = () =>
    set('periods', [...values.periods, { ...EMPTY_PERIOD, label: values.schedule === 'term' ? `Term ${values.periods.length + 1}` : '' }]);
  const removePeriod = (index: number) =>
    set(
      'periods',
      values.periods.filter((_, i) => i !== index),
    );

  // Programs to choose from: the active ones, and those the cycle bills already (even if disabled since).
  const options = [
    ...(programs.data?.items ?? []).map((p) => ({ value: p.programId, label: `${p.name} (${formatMoney(p.feeCents)})` })),
    ...(cycle?.programs ?? [])
      .filter((p) => !(programs.data?.items ?? []).some((a) => a.programId === p.programId))
      .map((p) => ({ value: p.programId, label: `${p.name} (${p.status === 'active' ? 'active' : 'disabled'})` })),
  ];

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const checked = checkBillingCycle(values);
    if (!checked.ok) return setErrors(checked.errors);
    save.mutate(
      { body: checked.body, cycleId: cycle?.cycleId ?? null },
      {
        onSuccess: (saved) => {
          notifications.show({
            color: 'teal',
            title: cycle ? 'Billing cycle saved' : 'Billing cycle created',
            message: saved.nextRunOn
              ? `“${saved.name}” next runs on ${formatDay(saved.nextRunOn)}${saved.nextPeriod ? ` and bills ${saved.nextPeriod.label}` : ''}.`
              : `“${saved.name}” has no period left to run.`,
          });
          onClose();
        },
        onError: (error) => {
          if (error instanceof ApiError && error.fields) setErrors(error.fields);
          else notifications.show({ color: 'red', title: 'The billing cycle was not saved', message: error.message });
        },
      },
    );
  };

  const periodsError = errors.periods;
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput label="Name" required maxLength={100} value={values.name} error={errors.name} onChange={(e) => set('name', e.currentTarget.value)} />
        <Radio.Group
          label="Schedule"
          description={SCHEDULE_HINTS[values.schedule]}
          required
          value={values.schedule}
          error={errors.schedule}
          onChange={(value) => set('schedule', value as BillingSchedule)}
        >
          <Group mt="xs">
            <Radio value="monthly" label="Monthly" />
            <Radio value="term" label="Per term" />
            <Radio value="custom" label="Custom dates" />
          </Group>
        </Radio.Group>
        {values.schedule === 'monthly' ? (
          <NumberInput
            label="Day of the month"
            description="1 to 28: the run on that day bills the whole month."
            required
            min={1}
            max={28}
            allowDecimal={false}
            allowNegative={false}
            value={values.dayOfMonth}
            error={errors.dayOfMonth}
            onChange={(value) => set('dayOfMonth', String(value))}
            w={{ base: '100%', sm: 220 }}
          />
        ) : (
          <Stack gap="xs">
            <Text size="sm" fw={500}>
              {values.schedule === 'term' ? 'Terms' : 'Periods'}{' '}
              <Text span c="dimmed" size="xs">
                (in order, without overlaps; each runs at midnight of its first day)
              </Text>
            </Text>
            {periodsError && (
              <Text size="sm" c="red" role="alert">
                {periodsError}
              </Text>
            )}
            {values.periods.map((period, index) => (
              <SimpleGrid key={index} cols={{ base: 1, sm: 4 }} spacing="xs" verticalSpacing={4}>
                <TextInput
                  label={`Name of period ${index + 1}`}
                  placeholder={values.schedule === 'term' ? 'Term 1 2026–27' : 'Summer camp'}
                  maxLength={60}
                  value={period.label}
                  error={errors[`periods.${index}.label`]}
                  onChange={(e) => setPeriod(index, 'label', e.currentTarget.value)}
                />
                <TextInput
                  label={`Start of period ${index + 1}`}
                  type="date"
                  value={period.start}
                  error={errors[`periods.${index}.start`]}
                  onChange={(e) => setPeriod(index, 'start', e.currentTarget.value)}
                />
                <TextInput
                  label={`End of period ${index + 1}`}
                  type="date"
                  value={period.end}
                  error={errors[`periods.${index}.end`]}
                  onChange={(e) => setPeriod(index, 'end', e.currentTarget.value)}
                />
                <Group align="flex-end" pb={4}>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`Remove period ${index + 1}`}
                    disabled={values.periods.length === 1}
                    onClick={() => removePeriod(index)}
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                </Group>
              </SimpleGrid>
            ))}
            <Group>
              <Button variant="light" size="compact-sm" leftSection={<IconPlus size={14} />} onClick={addPeriod} disabled={values.periods.length >= 60}>
                Add {values.schedule === 'term' ? 'term' : 'period'}
              </Button>
            </Group>
          </Stack>
        )}
        <MultiSelect
          label="Programs"
          description="Each run bills every active enrollment of these programs for its period."
          placeholder={values.programIds.length ? undefined : 'Choose programs'}
          required
          searchable
          data={options}
          value={values.programIds}
          error={errors.programIds}
          onChange={(ids) => set('programIds', ids)}
          nothingFoundMessage={programs.isPending ? 'Loading programs…' : 'No active program matches'}
        />
        {programs.isSuccess && programs.data.items.length === 0 && !cycle && (
          <Alert color="yellow" variant="light">
            There is no active program yet. Add a program first, then the cycle that bills it.
          </Alert>
        )}
        <Switch
          label="Submit each run at once"
          description="Off: each run's requests wait in review, where you can adjust or skip a student before sending."
          checked={values.autoSubmit}
          onChange={(e) => set('autoSubmit', e.currentTarget.checked)}
        />
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            {cycle ? 'Save' : 'Create billing cycle'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The form mounts afresh each time the modal opens, so it starts from the cycle (or empty). */
export function BillingCycleFormModal({ opened, cycle, onClose }: { opened: boolean; cycle: BillingCycle | null; onClose: () => void }) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={cycle ? `Edit “${cycle.name}”` : 'New billing cycle'}
      size="xl"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {opened && <CycleForm key={cycle?.cycleId ?? 'new'} cycle={cycle} onClose={onClose} />}
    </Modal>
  );
}
