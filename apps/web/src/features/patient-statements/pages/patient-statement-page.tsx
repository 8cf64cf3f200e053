import { ActionIcon, Alert, Anchor, Button, Grid, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import {
  formatMoney,
  GUARANTOR_RELATIONSHIP_LABELS,
  getHref,
  MAX_AMOUNT_CENTS,
  parseMoney,
  paths,
  STATEMENT_LIMITS,
  statementLineErrors,
  type PatientStatementInput,
  type PaymentRequestDetail,
  patientStatementEndpoints,
} from '@tay/contract';
import { type PickedPatient, PatientPicker } from '../../../components/patients/patient-picker';
import {
  ChannelField,
  checkRequestFields,
  newRequestValues,
  RequestDetailsFields,
  type RequestFieldErrors,
  type RequestMode,
  RequestSubmitButtons,
  today,
  useRequestFields,
} from '../../../components/payments/request-fields';
import { RequestFormFrame, requestSaveOutcome } from '../../../components/payments/request-form-frame';
import { LoadError } from '../../../components/ui/load-error';
import { MoneyInput } from '../../../components/ui/money-input';
import { PageLoader } from '../../../components/ui/page-loader';
import { useBusinessTimeZone } from '../../../lib/business-time-zone';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useEndpointAccess } from '../../../lib/endpoint-access';
import { useCreatePatientStatement, usePatientForStatement, useStatementToCopy } from '../api/patient-statements-api';

/** A line as typed: amounts as text ("120.00"), the service date empty for the date of service. */
interface LineDraft {
  key: number;
  serviceDate: string;
  description: string;
  billed: string;
  insurancePaid: string;
  adjustment: string;
}

/** 12050 → "120.50", as a money field shows it. */
const moneyText = (cents: number) => (cents / 100).toFixed(2);

/** "" is $0.00 for the insurance and adjustment; anything else must read as money. */
const centsOf = (text: string, emptyIsZero: boolean): number | null => (text.trim() === '' ? (emptyIsZero ? 0 : null) : parseMoney(text));

/** A line's figures in cents, and its patient responsibility (billed − insurance paid − adjustment) when they all read. */
function figuresOf(line: LineDraft) {
  const billed = centsOf(line.billed, false);
  const insurancePaid = centsOf(line.insurancePaid, true);
  const adjustment = centsOf(line.adjustment, true);
  const responsibility = billed !== null && insurancePaid !== null && adjustment !== null ? billed - insurancePaid - adjustment : null;
  return { billed, insurancePaid, adjustment, responsibility };
}

/**
 * Request to Pay Single (/business/healthcare-clients/payment/request?entity=true; `?clientId=`
 * chooses the patient): a statement for one patient, billed to their guarantor. The date of
 * service, the lines (billed, insurance paid, adjustment; the patient responsibility worked out as
 * they are typed) and their totals, then the request's own fields; the amount due is the total.
 */
export function PatientStatementPage() {
  useDocumentTitle('Request to Pay Single Patient');
  const [params] = useSearchParams();
  const preset = params.get('clientId');
  const timeZone = useBusinessTimeZone();
  const [picked, setPicked] = useState<PickedPatient | null>(null);
  // The link's patient is read once (an audited view); a patient picked from the list needs no read.
  const linked = usePatientForStatement(preset && !picked ? preset : null);
  // `?copy=`: a new statement from another one's lines and fields (Copy in the history).
  const copyOf = params.get('copy');
  const source = useStatementToCopy(copyOf);
  if (timeZone.error) return <LoadError title="We could not load your business" error={timeZone.error} onRetry={() => void timeZone.refetch()} />;
  if (source.error) return <LoadError title="We could not load the statement to copy" error={source.error} onRetry={() => void source.refetch()} />;
  if (!timeZone.data || (copyOf && source.isPending)) return <PageLoader />;
  if (preset && !picked && linked.isPending) return <PageLoader />;
  const fromLink: PickedPatient | null = linked.data
    ? { clientId: linked.data.clientId, name: linked.data.name, mrn: linked.data.mrn, guarantor: linked.data.guarantor }
    : null;
  return (
    <PatientStatementForm
      timeZone={timeZone.data}
      patient={picked ?? fromLink}
      patientError={preset && !picked ? linked.error : null}
      onPick={setPicked}
      source={source.data?.statement ? source.data : null}
    />
  );
}

function PatientStatementForm({
  timeZone,
  patient,
  patientError,
  onPick,
  source,
}: {
  timeZone: string;
  patient: PickedPatient | null;
  patientError: Error | null;
  onPick: (p: PickedPatient | null) => void;
  /** The statement this one copies: its lines, date of service and fields (a new due date). */
  source: PaymentRequestDetail | null;
}) {
  const navigate = useNavigate();
  const access = useEndpointAccess(patientStatementEndpoints.create);
  const save = useCreatePatientStatement();
  const { values, set, errors, setErrors } = useRequestFields(
    source
      ? { ...newRequestValues(), channel: source.channel ?? 'email', memo: source.memo, reference: source.reference, allowPartial: source.allowPartial }
      : newRequestValues(),
  );
  const nextKey = useRef(100);
  const blank = (): LineDraft => ({ key: nextKey.current++, serviceDate: '', description: '', billed: '', insurancePaid: '', adjustment: '' });
  const [dateOfService, setDateOfService] = useState(source?.statement?.dateOfService ?? today());
  const [lines, setLines] = useState<LineDraft[]>(
    source?.statement
      ? source.statement.lines.map((l, i) => ({
          key: i,
          serviceDate: l.serviceDate,
          description: l.description,
          billed: moneyText(l.billedCents),
          insurancePaid: l.insurancePaidCents ? moneyText(l.insurancePaidCents) : '',
          adjustment: l.adjustmentCents ? moneyText(l.adjustmentCents) : '',
        }))
      : [{ key: 0, serviceDate: '', description: '', billed: '', insurancePaid: '', adjustment: '' }],
  );
  const [failure, setFailure] = useState<string | null>(null);

  const guarantor = patient?.guarantor ?? null;
  const figures = lines.map(figuresOf);
  const totals = figures.reduce<{ billed: number; insurancePaid: number; adjustment: number; responsibility: number }>(
    (t, f) => ({
      billed: t.billed + (f.billed ?? 0),
      insurancePaid: t.insurancePaid + (f.insurancePaid ?? 0),
      adjustment: t.adjustment + (f.adjustment ?? 0),
      responsibility: t.responsibility + (f.responsibility ?? 0),
    }),
    { billed: 0, insurancePaid: 0, adjustment: 0, responsibility: 0 },
  );

  const setLine = (key: number, changes: Partial<LineDraft>) => setLines((all) => all.map((l) => (l.key === key ? { ...l, ...changes } : l)));
  const removeLine = (key: number) => {
    setLines((all) => all.filter((l) => l.key !== key));
    // The errors were of lines by position: they no longer point at the right ones.
    setErrors(({ ...rest }) => Object.fromEntries(Object.entries(rest).filter(([k]) => !k.startsWith('lines'))));
  };

  /** The lines checked as the API checks them, each refusal on its line and field. */
  const checkLines = (): { errors: RequestFieldErrors; body: PatientStatementInput['lines'] | null } => {
    const found: RequestFieldErrors = {};
    lines.forEach((line, i) => {
      const f = figures[i]!;
      const at = (field: string, message: string) => (found[`lines.${i}.${field}`] = message);
      if (!line.description.trim()) at('description', 'Describe the service.');
      if (line.serviceDate && line.serviceDate > today()) at('serviceDate', 'Choose today or an earlier date.');
      if (f.billed === null) at('billed', 'Enter the billed amount, like 120.00.');
      if (f.insurancePaid === null) at('insurancePaid', 'Enter what insurance paid, like 80.00, or leave it empty.');
      if (f.adjustment === null) at('adjustment', 'Enter the adjustment, like 10.00, or leave it empty.');
      if (f.billed !== null && f.insurancePaid !== null && f.adjustment !== null) {
        const wrong = statementLineErrors({
          billedCents: f.billed,
          insurancePaidCents: f.insurancePaid,
          adjustmentCents: f.adjustment,
          responsibilityCents: null,
        });
        for (const [field, message] of Object.entries(wrong)) at(field, message);
      }
    });
    if (lines.length === 0) found.lines = 'Add at least one line to the statement.';
    else if (Object.keys(found).length === 0 && totals.responsibility <= 0) {
      found.lines = 'The patient owes nothing on this statement: its lines net to $0.00 after insurance and adjustments.';
    } else if (totals.responsibility > MAX_AMOUNT_CENTS) found.lines = 'The amount due is above the $10,000,000.00 limit.';
    if (Object.keys(found).length > 0) return { errors: found, body: null };
    return {
      errors: found,
      body: lines.map((line, i) => ({
        serviceDate: line.serviceDate || null,
        description: line.description.trim(),
        billedCents: figures[i]!.billed!,
        insurancePaidCents: figures[i]!.insurancePaid!,
        adjustmentCents: figures[i]!.adjustment!,
      })),
    };
  };

  const submit = (mode: RequestMode) => {
    if (!access.allowed) return;
    // The amount is the lines' total: checked with the lines, not as a field of its own.
    const checked = checkRequestFields({ ...values, amount: '1' }, mode, timeZone);
    const checkedLines = checkLines();
    const next: RequestFieldErrors = { ...checked.errors, ...checkedLines.errors };
    if (!patient) next.clientId = 'Choose a patient.';
    else if (guarantor && guarantor.status !== 'active') next.clientId = 'The patient’s guarantor is deactivated: activate the payer first.';
    if (!dateOfService) next.dateOfService = 'Choose the date of service.';
    else if (dateOfService > today()) next.dateOfService = 'Choose today or an earlier date.';
    setErrors(next);
    if (Object.keys(next).length > 0 || !checked.fields || !checkedLines.body || !patient) return;
    const { amountCents: _amount, ...fields } = checked.fields;
    const body: PatientStatementInput = {
      ...fields,
      channel: values.channel === 'sms' && guarantor?.mobile === null ? 'email' : values.channel,
      dateOfService,
      lines: checkedLines.body,
    };
    setFailure(null);
    save.mutate(
      { clientId: patient.clientId, body },
      requestSaveOutcome({
        mode,
        noun: 'Statement',
        detail: (saved) => `for ${patient.name}, billed to ${saved.payerName}`,
        listed: (saved) => getHref(paths.payments.history, undefined, { transid: saved.transactionId }),
        openDraft: true,
        navigate,
        setErrors,
        setFailure,
      }),
    );
  };

  const lineError = (i: number, ...fields: string[]) => fields.map((f) => errors[`lines.${i}.${f}`]).find(Boolean);

  return (
    <RequestFormFrame
      template="healthCare"
      title="Request to Pay Single Patient"
      intro={
        <>
          A statement for one patient, billed to their guarantor. The payer sees the patient’s first name and the statement’s lines — never the date of birth or
          MRN. Need many at once?{' '}
          <Anchor component={Link} to={paths.entity.healthcareBulk} underline="always">
            Request to Pay Multiple
          </Anchor>
          .
        </>
      }
      access={access}
      failure={failure}
      failureTitle="The statement was not saved"
      notices={
        <>
          {source && (
            <Alert color="blue" variant="light">
              A copy of {source.referenceNumber}. Check the date of service, the lines and the due date before you send it.
            </Alert>
          )}
          {patientError && <LoadError title="We could not load that patient" error={patientError} />}
        </>
      }
      maw={980}
      onSend={() => submit('send')}
    >
      <Grid>
        <Grid.Col span={{ base: 12, sm: 8 }}>
          <PatientPicker
            value={patient}
            onChange={(p) => {
              onPick(p);
              setErrors(({ clientId: _c, ...rest }) => rest);
            }}
            error={errors.clientId}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 4 }}>
          <TextInput
            label="Date of service"
            type="date"
            max={today()}
            value={dateOfService}
            onChange={(e) => setDateOfService(e.currentTarget.value)}
            error={errors.dateOfService}
          />
        </Grid.Col>
      </Grid>
      {guarantor && (
        <Alert color={guarantor.status === 'active' ? 'blue' : 'red'} variant="light" title="Billed to" aria-label="Billed to">
          {guarantor.name} ({GUARANTOR_RELATIONSHIP_LABELS[guarantor.relationship]}) · {guarantor.email}
          {guarantor.status !== 'active' && ' — this payer is deactivated: activate them before billing them.'}
        </Alert>
      )}

      <Stack gap="xs" role="group" aria-labelledby="statement-lines-title">
        <Group justify="space-between" align="baseline">
          <Title order={2} fz="lg" id="statement-lines-title">
            Statement lines
          </Title>
          <Text size="xs" c="dimmed">
            Patient responsibility = billed − insurance paid − adjustment
          </Text>
        </Group>
        {lines.map((line, i) => {
          const f = figures[i]!;
          const n = i + 1;
          return (
            <Paper key={line.key} withBorder p="sm" radius="sm" aria-label={`Line ${n}`} component="fieldset" style={{ margin: 0 }}>
              <Grid gap="xs" align="flex-end">
                <Grid.Col span={{ base: 12, md: 4 }}>
                  <TextInput
                    label="Description"
                    aria-label={`Description, line ${n}`}
                    value={line.description}
                    maxLength={STATEMENT_LIMITS.description}
                    onChange={(e) => setLine(line.key, { description: e.currentTarget.value })}
                    error={lineError(i, 'description')}
                  />
                </Grid.Col>
                <Grid.Col span={{ base: 12, xs: 6, md: 2 }}>
                  <TextInput
                    label="Service date"
                    aria-label={`Service date, line ${n}`}
                    type="date"
                    max={today()}
                    description={line.serviceDate ? undefined : 'The date of service'}
                    value={line.serviceDate}
                    onChange={(e) => setLine(line.key, { serviceDate: e.currentTarget.value })}
                    error={lineError(i, 'serviceDate')}
                  />
                </Grid.Col>
                <Grid.Col span={{ base: 6, xs: 4, md: 2 }}>
                  <MoneyInput
                    label="Billed"
                    aria-label={`Billed, line ${n}`}
                    value={line.billed}
                    onValueChange={(v) => setLine(line.key, { billed: v })}
                    error={lineError(i, 'billed', 'billedCents')}
                  />
                </Grid.Col>
                <Grid.Col span={{ base: 6, xs: 4, md: 2 }}>
                  <MoneyInput
                    label="Insurance paid"
                    aria-label={`Insurance paid, line ${n}`}
                    value={line.insurancePaid}
                    onValueChange={(v) => setLine(line.key, { insurancePaid: v })}
                    error={lineError(i, 'insurancePaid', 'insurancePaidCents')}
                  />
                </Grid.Col>
                <Grid.Col span={{ base: 6, xs: 4, md: 2 }}>
                  <MoneyInput
                    label="Adjustment"
                    aria-label={`Adjustment, line ${n}`}
                    value={line.adjustment}
                    onValueChange={(v) => setLine(line.key, { adjustment: v })}
                    error={lineError(i, 'adjustment', 'adjustmentCents')}
                  />
                </Grid.Col>
                <Grid.Col span={{ base: 12 }}>
                  <Group justify="space-between" wrap="nowrap">
                    <Text size="sm" aria-live="polite" aria-label={`Patient responsibility, line ${n}`}>
                      Patient responsibility: <strong>{f.responsibility === null ? '—' : formatMoney(f.responsibility)}</strong>
                    </Text>
                    <ActionIcon variant="subtle" color="red" aria-label={`Remove line ${n}`} disabled={lines.length === 1} onClick={() => removeLine(line.key)}>
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Group>
                  {lineError(i, 'patientResponsibility') && (
                    <Text size="xs" c="red">
                      {lineError(i, 'patientResponsibility')}
                    </Text>
                  )}
                </Grid.Col>
              </Grid>
            </Paper>
          );
        })}
        {errors.lines && (
          <Text size="sm" c="red" role="alert">
            {errors.lines}
          </Text>
        )}
        <Group justify="space-between" align="flex-start">
          <Button
            variant="light"
            leftSection={<IconPlus size={16} />}
            onClick={() => setLines((all) => [...all, blank()])}
            disabled={lines.length >= STATEMENT_LIMITS.lines}
          >
            Add line
          </Button>
          <Paper withBorder p="sm" radius="sm" miw={260} aria-label="Statement totals">
            <Group justify="space-between" gap="xl">
              <Text size="sm">Billed</Text>
              <Text size="sm">{formatMoney(totals.billed)}</Text>
            </Group>
            <Group justify="space-between" gap="xl">
              <Text size="sm">Insurance paid</Text>
              <Text size="sm">{formatMoney(totals.insurancePaid)}</Text>
            </Group>
            <Group justify="space-between" gap="xl">
              <Text size="sm">Adjustment</Text>
              <Text size="sm">{formatMoney(totals.adjustment)}</Text>
            </Group>
            <Group justify="space-between" gap="xl">
              <Text fw={600}>Amount due</Text>
              <Text fw={600} aria-label="Amount due">
                {formatMoney(totals.responsibility)}
              </Text>
            </Group>
          </Paper>
        </Group>
      </Stack>

      <ChannelField
        value={values.channel}
        onChange={(next) => set('channel', next)}
        error={errors.channel}
        to={guarantor ? { email: guarantor.email, mobileNumber: guarantor.mobile } : null}
        who="the guarantor"
      />
      <RequestDetailsFields
        values={values}
        set={set}
        errors={errors}
        timeZone={timeZone}
        withAmount={false}
        partial={{ label: 'Allow a payment plan (partial payments)', description: 'The guarantor may pay part now and the rest later' }}
      />
      <RequestSubmitButtons disabled={!access.allowed} pendingMode={save.isPending ? (save.variables?.body.mode ?? null) : null} onSubmit={submit} />
    </RequestFormFrame>
  );
}
