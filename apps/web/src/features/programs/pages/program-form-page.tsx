import { Alert, Group, NumberInput, Radio, SimpleGrid, Switch, Text, TextInput, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import {
  formatMoney,
  parseMoney,
  paths,
  PROGRAM_FIELD_LIMITS,
  PROGRAM_FREQUENCY_LABELS,
  ProgramFrequency,
  ProgramInput,
  type FieldErrors,
  type Program,
  programEndpoints,
} from '@tay/contract';
import { EntityForm, FormPage } from '../../../components/ui/form-page';
import { MoneyInput } from '../../../components/ui/money-input';
import { useEndpointAccess } from '../../../lib/endpoint-access';
import { serverFieldErrors } from '../../../lib/form-errors';
import { useProgram, useSaveProgram } from '../api/programs-api';
import { textFieldsOf } from '../../../lib/form-fields';

export interface ProgramFormValues {
  name: string;
  description: string;
  fee: string;
  frequency: ProgramFrequency;
  startDate: string;
  endDate: string;
  capacity: string;
  prorate: boolean;
}

export const emptyProgramValues = (): ProgramFormValues => ({
  name: '',
  description: '',
  fee: '',
  frequency: 'monthly',
  startDate: '',
  endDate: '',
  capacity: '',
  prorate: false,
});

const valuesOf = (p: Program): ProgramFormValues => ({
  name: p.name,
  description: p.description,
  fee: (p.feeCents / 100).toFixed(2),
  frequency: p.frequency,
  startDate: p.startDate,
  endDate: p.endDate ?? '',
  capacity: p.capacity === null ? '' : String(p.capacity),
  prorate: p.prorate,
});

/** The form's values as the API takes them, checked by the contract: every problem named by its field (the API answers the same). */
export function checkProgram(values: ProgramFormValues): { ok: true; body: ProgramInput } | { ok: false; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const feeCents = values.fee.trim() === '' ? undefined : parseMoney(values.fee);
  if (feeCents === null) errors.feeCents = 'Enter the fee as an amount, such as 120.00.';
  const capacity = values.capacity.trim() === '' ? null : Number(values.capacity);
  const body = {
    name: values.name,
    description: values.description,
    feeCents,
    frequency: values.frequency,
    startDate: values.startDate,
    endDate: values.endDate || null,
    capacity: capacity !== null && Number.isNaN(capacity) ? values.capacity : capacity,
    prorate: values.prorate,
  };
  const parsed = ProgramInput.safeParse(body);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? 'form');
      errors[key] ??= issue.message;
    }
  }
  // The contract checks the dates' order only once every field is valid; the form says it at once.
  if (values.endDate && values.startDate && values.endDate < values.startDate) errors.endDate ??= 'The end date cannot be before the start date.';
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, body: body as ProgramInput };
}

/** /business/entity/program/manage — a new program, or `?programId=` edits one. */
export function ProgramFormPage() {
  const [params] = useSearchParams();
  const programId = params.get('programId');
  const source = useProgram(programId);
  const editing = programId ? (source.data ?? null) : null;
  return (
    <FormPage
      title={editing ? `Edit ${editing.name}` : programId ? 'Edit program' : 'New program'}
      back={{ to: paths.entity.programs, label: 'Programs' }}
      maw={760}
      load={programId ? { query: source, what: 'this program' } : undefined}
    >
      <ProgramForm key={programId ?? 'new'} editing={editing} />
    </FormPage>
  );
}

function ProgramForm({ editing }: { editing: Program | null }) {
  const navigate = useNavigate();
  const access = useEndpointAccess(programEndpoints.create);
  const save = useSaveProgram();
  const [values, setValues] = useState<ProgramFormValues>(editing ? valuesOf(editing) : emptyProgramValues());
  const [errors, setErrors] = useState<FieldErrors>({});
  const disabled = !access.allowed;

  const set = <K extends keyof ProgramFormValues>(key: K, value: ProgramFormValues[K], field: string = key) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors(({ [field]: _cleared, ...rest }) => rest);
  };
  const field = textFieldsOf(values, errors, set);

  const submit = () => {
    const checked = checkProgram(values);
    if (!checked.ok) return setErrors(checked.errors);
    save.mutate(
      { body: checked.body, programId: editing?.programId ?? null },
      {
        onSuccess: (saved) => {
          const feeChanged = editing && editing.feeCents !== saved.feeCents;
          notifications.show({
            color: 'teal',
            title: editing ? 'Program saved' : 'Program added',
            message: feeChanged
              ? `${saved.name} now costs ${formatMoney(saved.feeCents)}, from the next billing on; requests already made keep their amount.`
              : `${saved.name} is ${editing ? 'up to date' : 'ready for enrollments'}.`,
          });
          void navigate(paths.entity.programs);
        },
        onError: (error) => {
          const fields = serverFieldErrors(error);
          if (fields) setErrors(fields);
          else notifications.show({ color: 'red', title: 'The program was not saved', message: error.message });
        },
      },
    );
  };

  return (
    <EntityForm
      label={editing ? 'Edit program' : 'New program'}
      onSubmit={submit}
      access={access}
      submitLabel={editing ? 'Save' : 'Add program'}
      pending={save.isPending}
      cancelTo={paths.entity.programs}
    >
      <TextInput label="Name" required maxLength={PROGRAM_FIELD_LIMITS.name} {...field('name')} disabled={disabled} />
      <Textarea label="Description" autosize minRows={2} maxLength={PROGRAM_FIELD_LIMITS.description} {...field('description')} disabled={disabled} />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <MoneyInput
          label="Fee"
          required
          value={values.fee}
          error={errors.feeCents}
          disabled={disabled}
          description={editing ? 'A new fee applies from the next billing on.' : 'Billed each period.'}
          onValueChange={(v) => set('fee', v, 'feeCents')}
        />
        <NumberInput
          label="Capacity"
          description="Places; empty for no limit"
          min={1}
          allowDecimal={false}
          allowNegative={false}
          value={values.capacity}
          error={errors.capacity}
          disabled={disabled}
          onChange={(v) => set('capacity', v === '' ? '' : String(v))}
        />
      </SimpleGrid>
      <Radio.Group label="Frequency" required value={values.frequency} error={errors.frequency} onChange={(v) => set('frequency', v as ProgramFrequency)}>
        <Group mt={4}>
          {ProgramFrequency.options.map((f) => (
            <Radio key={f} value={f} label={PROGRAM_FREQUENCY_LABELS[f]} disabled={disabled} />
          ))}
        </Group>
      </Radio.Group>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="Start date" type="date" required {...field('startDate')} disabled={disabled} />
        <TextInput label="End date" type="date" description="Empty for no end" {...field('endDate')} disabled={disabled} />
      </SimpleGrid>
      <Switch
        label="Prorate"
        description="An enrollment that starts or ends inside a period is billed for its share of the days."
        checked={values.prorate}
        disabled={disabled}
        onChange={(e) => set('prorate', e.currentTarget.checked)}
      />
      {editing && editing.enrolledCount > 0 && (
        <Alert color="blue" variant="light">
          <Text size="sm">
            {editing.enrolledCount} {editing.enrolledCount === 1 ? 'student is' : 'students are'} enrolled: the capacity cannot go below that.
          </Text>
        </Alert>
      )}
      {errors.form && (
        <Text c="red" size="sm">
          {errors.form}
        </Text>
      )}
    </EntityForm>
  );
}
