import { Badge, Group, Paper, SegmentedControl, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import {
  formatDay,
  formatMoney,
  GUARANTOR_RELATIONSHIP_LABELS,
  PATIENT_FIELD_LIMITS,
  PATIENT_STATUS_LABELS,
  PARTY_TEMPLATES,
  paths,
  PatientInput,
  type FieldErrors,
  type GuarantorRelationship,
  type Patient,
  patientEndpoints,
} from '@tay/contract';
import { BirthDateField, PartyIdentityFields, usePartySaved } from '../../../components/parties/party-form-parts';
import { PayerChoiceFields, payerChoice, payerChoiceBody, useSwitchLayout, type PayerChoice } from '../../../components/payers/payer-choice';
import { EntityForm, FormPage } from '../../../components/ui/form-page';
import { useBusinessTime } from '../../../lib/business-time';
import { useEndpointAccess } from '../../../lib/endpoint-access';
import { useFormErrors } from '../../../lib/form-errors';
import { usePatientRecord, useSavePatient } from '../api/patients-api';
import { PatientRecordViews } from '../components/patient-record-views';
import { localToday } from '../../../lib/local-day';

type Payer = 'self' | 'other';

interface Draft {
  mrn: string;
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  payer: Payer;
  /** Who the other person is to the patient. */
  relationship: Exclude<GuarantorRelationship, 'self'> | null;
  /** One of the business's payers, or the details of a new one. */
  guarantor: PayerChoice;
}

const EMPTY: Draft = {
  mrn: '',
  firstName: '',
  lastName: '',
  dateOfBirth: '',
  payer: 'self',
  relationship: null,
  guarantor: payerChoice('new'),
};

const OTHER_RELATIONSHIPS = (['parent', 'spouse', 'child', 'other'] as const).map((r) => ({ value: r, label: GUARANTOR_RELATIONSHIP_LABELS[r] }));

function draftOf(patient: Patient): Draft {
  const g = patient.guarantor;
  return {
    ...EMPTY,
    mrn: patient.mrn,
    firstName: patient.firstName,
    lastName: patient.lastName,
    dateOfBirth: patient.dateOfBirth ?? '',
    payer: g.relationship === 'self' ? 'self' : 'other',
    relationship: g.relationship === 'self' ? null : g.relationship,
    guarantor: payerChoice('existing', { payerId: g.payerId, displayName: g.name, email: g.email, mobileNumber: g.mobile }),
  };
}

/** The body the API takes, and the problems found before sending it, by the API's field keys. */
function toBody(draft: Draft): { body: PatientInput; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const relationship: GuarantorRelationship = draft.payer === 'self' ? 'self' : (draft.relationship ?? 'other');
  if (draft.payer === 'other' && !draft.relationship) errors['guarantor.relationship'] = 'Choose who the guarantor is to the patient.';
  const choice = payerChoiceBody(draft.guarantor, 'guarantor', {
    withNames: draft.payer !== 'self',
    missing: 'Choose one of your payers, or enter a new one.',
  });
  Object.assign(errors, choice.errors);
  const guarantor = { relationship, ...choice.body } as PatientInput['guarantor'];
  const body: PatientInput = { mrn: draft.mrn, firstName: draft.firstName, lastName: draft.lastName, dateOfBirth: draft.dateOfBirth, guarantor };
  const parsed = PatientInput.safeParse(body);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = issue.path.join('.');
      if (key === 'guarantor.payerId' && errors[key]) continue;
      errors[key] ??= issue.message;
    }
  }
  if (draft.dateOfBirth && !errors.dateOfBirth && draft.dateOfBirth > localToday()) errors.dateOfBirth = 'The date of birth cannot be in the future.';
  return { body, errors };
}

function GuarantorFields({ draft, errors, set }: { draft: Draft; errors: FieldErrors; set: (changes: Partial<Draft>) => void }) {
  const self = draft.payer === 'self';
  const layout = useSwitchLayout();
  return (
    <Paper withBorder radius="md" p="md" role="group" aria-labelledby="guarantor-title">
      <Stack gap="sm">
        <div>
          <Text id="guarantor-title" fw={600}>
            Guarantor: who pays
          </Text>
          <Text size="sm" c="dimmed">
            The guarantor is one of your payers: statements for the patient go to them.
          </Text>
        </div>
        <SegmentedControl
          {...layout}
          aria-label="Who pays for the patient"
          value={draft.payer}
          onChange={(payer) => set({ payer: payer as Payer })}
          data={[
            { value: 'self', label: 'The patient pays (self)' },
            { value: 'other', label: 'Another person' },
          ]}
        />
        {!self && (
          <Select
            label="Who the guarantor is to the patient"
            placeholder="Choose"
            required
            data={OTHER_RELATIONSHIPS}
            value={draft.relationship}
            onChange={(value) => set({ relationship: (value as Draft['relationship']) ?? null })}
            error={errors['guarantor.relationship']}
            allowDeselect={false}
          />
        )}
        <PayerChoiceFields
          value={draft.guarantor}
          onChange={(guarantor) => set({ guarantor })}
          error={(field) => errors[`guarantor.${field}`]}
          who="Guarantor"
          modeLabel="An existing payer or a new one"
          options={[
            { value: 'new', label: self ? "The patient's e-mail" : 'A new payer' },
            { value: 'existing', label: 'One of your payers' },
          ]}
          withNames={!self}
          {...(self
            ? {
                emailLabel: "Patient's e-mail",
                emailDescription: 'The patient becomes a payer with their own names. If one of your payers has this e-mail, they are used (never a copy).',
                mobileLabel: "Patient's mobile number",
              }
            : {})}
          emailMaxLength={PATIENT_FIELD_LIMITS.email}
        />
      </Stack>
    </Paper>
  );
}

function PatientForm({ patient }: { patient: Patient | null }) {
  const save = useSavePatient();
  const access = useEndpointAccess(patientEndpoints.create);
  const [draft, setDraft] = useState<Draft>(() => (patient ? draftOf(patient) : EMPTY));
  const { errors, setErrors, problem, setProblem, refused } = useFormErrors();
  const editing = patient !== null;
  const saved = usePartySaved<Patient>(PARTY_TEMPLATES.healthCare, editing, (p) => `${p.name} (${p.mrn}), billed to ${p.guarantor.name}.`, refused);

  const set = (changes: Partial<Draft>) => setDraft((d) => ({ ...d, ...changes }));

  const onSubmit = () => {
    const { body, errors: found } = toBody(draft);
    setErrors(found);
    setProblem(null);
    if (Object.keys(found).length > 0) return;
    save.mutate({ body, clientId: patient?.clientId ?? null }, saved);
  };

  return (
    <EntityForm
      label={editing ? 'Edit patient' : 'Add a patient'}
      onSubmit={onSubmit}
      access={access}
      problem={problem}
      submitLabel={editing ? 'Save patient' : 'Add patient'}
      pending={save.isPending}
      cancelTo={paths.entity.healthcareClients}
    >
      <PartyIdentityFields
        template={PARTY_TEMPLATES.healthCare}
        idKey="mrn"
        limits={{ id: PATIENT_FIELD_LIMITS.mrn, firstName: PATIENT_FIELD_LIMITS.firstName, lastName: PATIENT_FIELD_LIMITS.lastName }}
        value={{ id: draft.mrn, firstName: draft.firstName, lastName: draft.lastName }}
        onChange={({ id, ...names }) => set({ ...names, ...(id === undefined ? {} : { mrn: id }) })}
        errors={errors}
        beside={
          <BirthDateField
            required
            description="Shown in full only here; lists show the year"
            value={draft.dateOfBirth}
            onChange={(dateOfBirth) => set({ dateOfBirth })}
            error={errors.dateOfBirth}
          />
        }
      />
      <GuarantorFields draft={draft} errors={errors} set={set} />
    </EntityForm>
  );
}

/** The record at a glance: what the practice holds of the patient, and their billing so far. */
function PatientSummary({ patient }: { patient: Patient }) {
  const clock = useBusinessTime();
  const facts: [string, string][] = [
    ['MRN', patient.mrn],
    ['Date of birth', patient.dateOfBirth ? formatDay(patient.dateOfBirth) : patient.dateOfBirthMasked],
    ['Guarantor', `${patient.guarantor.name} (${GUARANTOR_RELATIONSHIP_LABELS[patient.guarantor.relationship]}), ${patient.guarantor.email}`],
    ['Requests to pay', `${patient.requestsCount} (${patient.statementsCount} statements)`],
    ['Outstanding', formatMoney(patient.outstandingCents)],
    ...(patient.refundedCents > 0 ? [['Refunded', formatMoney(patient.refundedCents)] as [string, string]] : []),
    ['Added', clock.dateTime(patient.createdAt)],
  ];
  return (
    <Paper withBorder radius="md" p="lg" component="section" aria-labelledby="record-title">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4" id="record-title">
            {patient.name}
          </Title>
          <Badge color={patient.status === 'active' ? 'teal' : 'gray'} variant="light">
            {PATIENT_STATUS_LABELS[patient.status]}
          </Badge>
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="sm">
          {facts.map(([label, value]) => (
            <div key={label}>
              <Text size="xs" c="dimmed">
                {label}
              </Text>
              <Text size="sm">{value}</Text>
            </div>
          ))}
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}

/**
 * /business/healthcare-clients/add, and edit with `?clientId=`: the patient and who pays for them.
 * Opening a patient's record is an audited view: the page reads it once, and lists every view
 * of the record (who, what, when) under the form.
 */
export function PatientFormPage() {
  const [params] = useSearchParams();
  const clientId = params.get('clientId');
  const patient = usePatientRecord(clientId);
  return (
    <FormPage
      title={clientId ? 'Edit patient' : 'Add a patient'}
      back={{ to: paths.entity.healthcareClients, label: 'Manage Clients' }}
      description="The guarantor is who pays: the patient themself or another person. A new guarantor becomes one of your payers when you save."
      load={clientId ? { query: patient, what: 'this patient' } : undefined}
    >
      {patient.data && <PatientSummary patient={patient.data} />}
      <PatientForm key={patient.data?.clientId ?? 'new'} patient={patient.data ?? null} />
      {clientId && patient.data && <PatientRecordViews clientId={clientId} ready />}
    </FormPage>
  );
}
