import { Grid, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import type { FieldErrors, PartyTemplate } from '@tay/contract';
import { localToday } from '../../lib/local-day';

/** The party's own fields every template asks for: its id, first and last name. */
export interface PartyNames {
  id: string;
  firstName: string;
  lastName: string;
}

/**
 * The party's identity on its form (ADR 048): the template's own id (Student id, MRN) and the
 * names, with the template's own fields beside the id (`beside`: a grade, a date of birth) and
 * after the names (`after`).
 */
export function PartyIdentityFields({
  template,
  idKey,
  limits,
  value,
  onChange,
  errors,
  beside,
  after,
}: {
  template: PartyTemplate;
  /** The id's field key in the API's body and errors (`studentNumber`, `mrn`). */
  idKey: string;
  limits: { id: number; firstName: number; lastName: number };
  value: PartyNames;
  onChange: (changes: Partial<PartyNames>) => void;
  errors: FieldErrors;
  beside?: ReactNode;
  after?: ReactNode;
}) {
  const half = { base: 12, sm: 6 };
  return (
    <Grid>
      <Grid.Col span={half}>
        <TextInput
          label={template.idLabel}
          description={template.idDescription}
          required
          autoComplete="off"
          maxLength={limits.id}
          value={value.id}
          onChange={(e) => onChange({ id: e.currentTarget.value })}
          error={errors[idKey]}
        />
      </Grid.Col>
      {beside && <Grid.Col span={half}>{beside}</Grid.Col>}
      <Grid.Col span={half}>
        <TextInput
          label="First name"
          required
          autoComplete="off"
          maxLength={limits.firstName}
          value={value.firstName}
          onChange={(e) => onChange({ firstName: e.currentTarget.value })}
          error={errors.firstName}
        />
      </Grid.Col>
      <Grid.Col span={half}>
        <TextInput
          label="Last name"
          required
          autoComplete="off"
          maxLength={limits.lastName}
          value={value.lastName}
          onChange={(e) => onChange({ lastName: e.currentTarget.value })}
          error={errors.lastName}
        />
      </Grid.Col>
      {after && <Grid.Col span={half}>{after}</Grid.Col>}
    </Grid>
  );
}

/** The date of birth: a date field that stops at today (and at 1900 where the template needs it). */
export function BirthDateField({
  value,
  onChange,
  error,
  description,
  required = false,
}: {
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
  description: string;
  required?: boolean;
}) {
  return (
    <TextInput
      label="Date of birth"
      description={description}
      type="date"
      required={required}
      {...(required ? { min: '1900-01-01' } : {})}
      max={localToday()}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      error={error}
    />
  );
}

/**
 * What a party's form does with the API's answer: a toast that says who was saved and who is
 * billed, then back to the list; a refusal is a toast and the form's errors (`refused`).
 */
export function usePartySaved<T>(template: PartyTemplate, editing: boolean, describe: (saved: T) => string, refused: (error: Error) => void) {
  const navigate = useNavigate();
  const title = template.party.title;
  return {
    onSuccess: (saved: T) => {
      notifications.show({ color: 'teal', title: editing ? `${title} saved` : `${title} added`, message: describe(saved) });
      void navigate(template.pages.list);
    },
    onError: (error: Error) => {
      refused(error);
      notifications.show({ color: 'red', title: editing ? `${title} not saved` : `${title} not added`, message: error.message });
    },
  };
}
