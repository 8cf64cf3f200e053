import { Alert, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { PARTY_TEMPLATES, paths, STUDENT_FIELD_LIMITS, StudentInput, type FieldErrors, type Student, studentEndpoints } from '@tay/contract';
import { BirthDateField, PartyIdentityFields, usePartySaved } from '../../../components/parties/party-form-parts';
import { PayerChoiceFields, payerChoice, payerChoiceBody, type PayerChoice } from '../../../components/payers/payer-choice';
import { EntityForm, FormPage } from '../../../components/ui/form-page';
import { useEndpointAccess } from '../../../lib/endpoint-access';
import { useFormErrors } from '../../../lib/form-errors';
import { useSaveStudent, useStudent } from '../api/students-api';
import { localToday } from '../../../lib/local-day';

interface Draft {
  studentNumber: string;
  firstName: string;
  lastName: string;
  grade: string;
  dateOfBirth: string;
  guardians: PayerChoice[];
}

const EMPTY: Draft = { studentNumber: '', firstName: '', lastName: '', grade: '', dateOfBirth: '', guardians: [payerChoice('existing')] };

function draftOf(student: Student): Draft {
  return {
    studentNumber: student.studentNumber,
    firstName: student.firstName,
    lastName: student.lastName,
    grade: student.grade,
    dateOfBirth: student.dateOfBirth ?? '',
    guardians: student.guardians.map((g) => payerChoice('existing', { payerId: g.payerId, displayName: g.name, email: g.email, mobileNumber: g.mobile })),
  };
}

/** The body the API takes, and the problems found before sending it, by the API's field keys. */
function toBody(draft: Draft): { body: StudentInput; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const body: StudentInput = {
    studentNumber: draft.studentNumber,
    firstName: draft.firstName,
    lastName: draft.lastName,
    grade: draft.grade,
    dateOfBirth: draft.dateOfBirth || null,
    guardians: draft.guardians.map((g, i) => {
      const choice = payerChoiceBody(g, `guardians.${i}`, { withNames: true, missing: 'Choose one of your payers, or enter a new guardian.' });
      Object.assign(errors, choice.errors);
      return choice.body as StudentInput['guardians'][number];
    }),
  };
  const parsed = StudentInput.safeParse(body);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = issue.path.join('.');
      if (key.endsWith('.payerId') && errors[key]) continue;
      errors[key] ??= issue.message;
    }
  }
  if (draft.dateOfBirth && !errors.dateOfBirth && draft.dateOfBirth > localToday()) errors.dateOfBirth = 'The date of birth cannot be in the future.';
  return { body, errors };
}

function GuardianFields({
  index,
  guardian,
  errors,
  onChange,
  onRemove,
}: {
  index: number;
  guardian: PayerChoice;
  errors: FieldErrors;
  onChange: (next: PayerChoice) => void;
  onRemove?: () => void;
}) {
  const which = index === 0 ? 'First guardian' : 'Second guardian';
  const error = (field: string) => errors[`guardians.${index}.${field}`];
  return (
    <Paper withBorder radius="md" p="md" role="group" aria-labelledby={`guardian-${index}-title`}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Text id={`guardian-${index}-title`} fw={600}>
            {which}
            {index === 0 ? ' (billed for the student)' : ' (may be sent a copy of each request)'}
          </Text>
          {onRemove && (
            <Button variant="subtle" color="red" size="xs" onClick={onRemove}>
              Remove the second guardian
            </Button>
          )}
        </Group>
        <PayerChoiceFields
          value={guardian}
          onChange={onChange}
          error={error}
          who={which}
          modeLabel={`${which}: an existing payer or a new one`}
          options={[
            { value: 'existing', label: 'One of your payers' },
            { value: 'new', label: 'A new guardian' },
          ]}
          emailMaxLength={STUDENT_FIELD_LIMITS.email}
        />
      </Stack>
    </Paper>
  );
}

function StudentForm({ student }: { student: Student | null }) {
  const save = useSaveStudent();
  const access = useEndpointAccess(studentEndpoints.create);
  const [draft, setDraft] = useState<Draft>(() => (student ? draftOf(student) : EMPTY));
  const { errors, setErrors, problem, setProblem, refused } = useFormErrors();
  const editing = student !== null;
  const saved = usePartySaved<Student>(
    PARTY_TEMPLATES.student,
    editing,
    (s) => `${s.name} (${s.studentNumber}), billed to ${s.guardians[0]?.name ?? 'their guardian'}.`,
    refused,
  );

  const set = (changes: Partial<Draft>) => setDraft((d) => ({ ...d, ...changes }));
  const setGuardian = (index: number, next: PayerChoice) => setDraft((d) => ({ ...d, guardians: d.guardians.map((g, i) => (i === index ? next : g)) }));

  const onSubmit = () => {
    const { body, errors: found } = toBody(draft);
    setErrors(found);
    setProblem(null);
    if (Object.keys(found).length > 0) return;
    save.mutate({ body, studentId: student?.studentId ?? null }, saved);
  };

  return (
    <EntityForm
      label={editing ? 'Edit student' : 'Add a student'}
      onSubmit={onSubmit}
      access={access}
      problem={problem}
      submitLabel={editing ? 'Save student' : 'Add student'}
      pending={save.isPending}
      cancelTo={paths.entity.students}
    >
      {errors.guardians && (
        <Alert color="red" role="alert">
          {errors.guardians}
        </Alert>
      )}
      <PartyIdentityFields
        template={PARTY_TEMPLATES.student}
        idKey="studentNumber"
        limits={{ id: STUDENT_FIELD_LIMITS.studentNumber, firstName: STUDENT_FIELD_LIMITS.firstName, lastName: STUDENT_FIELD_LIMITS.lastName }}
        value={{ id: draft.studentNumber, firstName: draft.firstName, lastName: draft.lastName }}
        onChange={({ id, ...names }) => set({ ...names, ...(id === undefined ? {} : { studentNumber: id }) })}
        errors={errors}
        beside={
          <TextInput
            label="Grade or group"
            description="Optional: Year 7, Grade 5, U12 Blue"
            autoComplete="off"
            maxLength={STUDENT_FIELD_LIMITS.grade}
            value={draft.grade}
            onChange={(e) => set({ grade: e.currentTarget.value })}
            error={errors.grade}
          />
        }
        after={<BirthDateField description="Optional" value={draft.dateOfBirth} onChange={(dateOfBirth) => set({ dateOfBirth })} error={errors.dateOfBirth} />}
      />
      <Title order={2} size="h4">
        Guardians
      </Title>
      {draft.guardians.map((g, i) => (
        <GuardianFields
          key={i}
          index={i}
          guardian={g}
          errors={errors}
          onChange={(next) => setGuardian(i, next)}
          {...(i === 1 ? { onRemove: () => set({ guardians: draft.guardians.slice(0, 1) }) } : {})}
        />
      ))}
      {draft.guardians.length < 2 && (
        <Group>
          <Button variant="default" onClick={() => set({ guardians: [...draft.guardians, payerChoice('existing')] })}>
            Add a second guardian
          </Button>
        </Group>
      )}
    </EntityForm>
  );
}

/** /business/entity/students/add, and edit with `?studentId=`: the student and their one or two guardians. */
export function StudentFormPage() {
  const [params] = useSearchParams();
  const studentId = params.get('studentId');
  const student = useStudent(studentId);
  return (
    <FormPage
      title={studentId ? 'Edit student' : 'Add a student'}
      back={{ to: paths.entity.students, label: 'Manage Students' }}
      description="A guardian is one of your payers: the first is billed for the student. A new guardian becomes a payer when you save."
      load={studentId ? { query: student, what: 'this student' } : undefined}
    >
      <StudentForm key={student.data?.studentId ?? 'new'} student={student.data ?? null} />
    </FormPage>
  );
}
