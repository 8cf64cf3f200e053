import { Anchor, Grid, Radio, Select, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { getHref, paths, type Student, type StudentBillTo, type StudentRequestInput, studentRequestEndpoints } from '@tay/contract';
import { LoadError } from '../../../components/ui/load-error';
import { PageLoader } from '../../../components/ui/page-loader';
import { useBusinessTimeZone } from '../../../lib/business-time-zone';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useEndpointAccess } from '../../../lib/endpoint-access';
import {
  ChannelField,
  checkRequestFields,
  newRequestValues,
  RequestDetailsFields,
  type RequestFieldErrors,
  type RequestMode,
  RequestSubmitButtons,
  useRequestFields,
} from '../../../components/payments/request-fields';
import { RequestFormFrame, requestSaveOutcome } from '../../../components/payments/request-form-frame';
import { useCreateStudentRequest, useStudentDetail } from '../api/student-requests-api';
import { type PickedStudent, StudentPicker } from '../components/student-picker';

/**
 * Request to Pay Single Student (/business/entity/students/payment/request?entity=true and
 * /business/entity/billing/students; `?studentId=` chooses the student): the student, whom to bill
 * (the first guardian, or both with the same link), optionally the program and period, then the
 * single request's own fields and actions.
 */
export function StudentRequestPage() {
  useDocumentTitle('Request to Pay Single Student');
  const [params] = useSearchParams();
  const preset = params.get('studentId');
  const timeZone = useBusinessTimeZone();
  const [picked, setPicked] = useState<PickedStudent | null>(null);
  const studentId = picked?.studentId ?? preset;
  const student = useStudentDetail(studentId);
  if (timeZone.error) return <LoadError title="We could not load your business" error={timeZone.error} onRetry={() => void timeZone.refetch()} />;
  if (!timeZone.data) return <PageLoader />;
  if (preset && !picked && student.isPending) return <PageLoader />;
  return (
    <StudentRequestForm
      timeZone={timeZone.data}
      student={studentId ? (student.data ?? null) : null}
      studentError={studentId ? student.error : null}
      onPick={setPicked}
    />
  );
}

function StudentRequestForm({
  timeZone,
  student,
  studentError,
  onPick,
}: {
  timeZone: string;
  student: Student | null;
  studentError: Error | null;
  onPick: (s: PickedStudent | null) => void;
}) {
  const navigate = useNavigate();
  const access = useEndpointAccess(studentRequestEndpoints.create);
  const save = useCreateStudentRequest();
  const { values, set, errors, setErrors } = useRequestFields(newRequestValues());
  const [billTo, setBillTo] = useState<StudentBillTo>('guardian');
  const [programId, setProgramId] = useState<string | null>(null);
  const [period, setPeriod] = useState('');
  const [failure, setFailure] = useState<string | null>(null);

  const guardians = [...(student?.guardians ?? [])].sort((a, b) => a.position - b.position);
  const first = guardians[0] ?? null;
  const second = guardians[1] ?? null;
  const enrolled = (student?.enrollments ?? []).filter((e) => e.status === 'active');
  const chosen: PickedStudent | null = student ? { studentId: student.studentId, name: student.name, studentNumber: student.studentNumber } : null;

  const submit = (mode: RequestMode) => {
    if (!access.allowed) return;
    const checked = checkRequestFields(values, mode, timeZone);
    const next: RequestFieldErrors = { ...checked.errors };
    if (!student) next.studentId = 'Choose a student.';
    else if (!first) next.studentId = 'This student has no guardian to bill. Add one to the student first.';
    if (billTo === 'both' && student && !second) next.billTo = 'This student has one guardian: bill the guardian only.';
    setErrors(next);
    if (Object.keys(next).length > 0 || !checked.fields || !student) return;
    const body: StudentRequestInput = {
      ...checked.fields,
      channel: values.channel === 'sms' && first?.mobile === null ? 'email' : values.channel,
      billTo,
      programId: programId ?? null,
      period: period || null,
    };
    setFailure(null);
    save.mutate(
      { studentId: student.studentId, body },
      requestSaveOutcome({
        mode,
        noun: 'Request',
        detail: (saved) => `for ${student.name}, from ${saved.payerName}${billTo === 'both' && second ? ` and ${second.name}` : ''}`,
        listed: (saved) => getHref(paths.entity.billingTransactions, undefined, { transid: saved.transactionId }),
        navigate,
        setErrors,
        setFailure,
      }),
    );
  };

  return (
    <RequestFormFrame
      template="student"
      title="Request to Pay Single Student"
      intro={
        <>
          One request for one student, billed to the student’s guardian. Need many at once?{' '}
          <Anchor component={Link} to={paths.entity.bulkStudents} underline="always">
            Request to Pay Multiple Students
          </Anchor>
          .
        </>
      }
      access={access}
      failure={failure}
      notices={studentError && <LoadError title="We could not load that student" error={studentError} />}
      onSend={() => submit('send')}
    >
      <StudentPicker
        value={chosen}
        onChange={(s) => {
          onPick(s);
          setProgramId(null);
          setBillTo('guardian');
          setErrors(({ studentId: _s, billTo: _b, programId: _p, ...rest }) => rest);
        }}
        error={errors.studentId}
      />
      {student && (
        <Radio.Group<StudentBillTo>
          label="Bill"
          description="Billing both sends one request: the same link goes to each guardian, and one payment settles it."
          value={billTo}
          onChange={setBillTo}
          error={errors.billTo}
        >
          <Stack gap="xs" mt={6}>
            <Radio
              value="guardian"
              label={first ? `The guardian: ${first.name}` : 'The guardian'}
              description={first ? first.email : 'This student has no guardian yet.'}
            />
            <Radio
              value="both"
              disabled={!second}
              label={second ? `Both guardians: ${first!.name} and ${second.name}` : 'Both guardians'}
              description={second ? `${first!.email} and ${second.email}` : 'This student has one guardian.'}
            />
          </Stack>
        </Radio.Group>
      )}
      {student && (
        <Grid>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <Select
              label="Program (optional)"
              description={enrolled.length === 0 ? 'The student is enrolled in no program.' : 'One the student is enrolled in'}
              placeholder="No program"
              clearable
              data={enrolled.map((e) => ({ value: e.programId, label: e.programName }))}
              value={programId}
              onChange={setProgramId}
              error={errors.programId}
              disabled={enrolled.length === 0}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <TextInput
              label="Period (optional)"
              description="The month billed; the payer sees it"
              type="month"
              value={period}
              onChange={(e) => setPeriod(e.currentTarget.value)}
              error={errors.period}
            />
          </Grid.Col>
        </Grid>
      )}
      <ChannelField
        value={values.channel}
        onChange={(next) => set('channel', next)}
        error={errors.channel}
        to={first ? { email: first.email, mobileNumber: first.mobile } : null}
        who="the guardian"
      />
      <RequestDetailsFields values={values} set={set} errors={errors} timeZone={timeZone} />
      <RequestSubmitButtons disabled={!access.allowed} pendingMode={save.isPending ? (save.variables?.body.mode ?? null) : null} onSubmit={submit} />
    </RequestFormFrame>
  );
}
