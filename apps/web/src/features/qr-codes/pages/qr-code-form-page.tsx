import { Fieldset, Grid, Group, Radio, SimpleGrid, Stack, Switch, Text, TextInput, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { paths, type QrAmountMode, type QrAsk, type QrCode, qrCodeEndpoints } from '@tay/contract';
import { EntityForm, FormPage } from '../../../components/ui/form-page';
import { qrCodeDownloadHref } from '../../../lib/qr-code-paths';
import { useEndpointAccess } from '../../../lib/endpoint-access';
import { serverFieldErrors } from '../../../lib/form-errors';
import { useQrCode, useSaveQrCode } from '../api/qr-codes-api';
import { emptyQrValues, errorsFromApi, FIELD_OF, qrValuesFrom, toQrInput, type QrFormErrors, type QrFormValues } from '../qr-code-form-model';
import { MoneyInput } from '../../../components/ui/money-input';
import { textFieldsOf } from '../../../lib/form-fields';

const ASKS: { value: QrAsk; label: string }[] = [
  { value: 'off', label: 'Off' },
  { value: 'optional', label: 'Optional' },
  { value: 'required', label: 'Required' },
];

const ASKED: { key: 'askName' | 'askEmail' | 'askPhone' | 'askNote'; label: string; description: string }[] = [
  { key: 'askName', label: 'Name', description: 'Their name, shown on the payment' },
  { key: 'askEmail', label: 'E-mail', description: 'Where their receipt goes' },
  { key: 'askPhone', label: 'Phone', description: 'A number to reach them' },
  { key: 'askNote', label: 'Note', description: 'A line from them, such as a table or order number' },
];

/**
 * /business/payment/qrcode/manage: a new QR code, or `?qrcodeid=` edits one (its printed image
 * stays the same). Saved, it opens the code's download page.
 */
export function QrCodeFormPage() {
  const [params] = useSearchParams();
  const qrId = params.get('qrcodeid');
  const source = useQrCode(qrId);
  const editing = qrId ? (source.data ?? null) : null;
  return (
    <FormPage
      title={editing ? `Edit “${editing.label}”` : qrId ? 'Edit QR code' : 'New QR code'}
      documentTitle={editing ? `Edit ${editing.label}` : qrId ? 'Edit QR code' : 'New QR code'}
      back={{ to: paths.payments.qrCodes, label: 'QR codes' }}
      description={
        qrId
          ? 'Changes apply as soon as you save: the printed code stays the same, so there is nothing to print again.'
          : 'Payers scan the code with their phone, then pay on a page that asks what you choose here.'
      }
      maw={820}
      load={qrId ? { query: source, what: 'this QR code' } : undefined}
    >
      <QrCodeForm key={qrId ?? 'new'} editing={editing} initial={editing ? qrValuesFrom(editing) : emptyQrValues()} />
    </FormPage>
  );
}

function QrCodeForm({ editing, initial }: { editing: QrCode | null; initial: QrFormValues }) {
  const navigate = useNavigate();
  const access = useEndpointAccess(qrCodeEndpoints.create);
  const save = useSaveQrCode();
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<QrFormErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const disabled = !access.allowed;

  /** Changes a value, and clears the error of the field it is checked as. */
  const set = <K extends keyof QrFormValues>(key: K, value: QrFormValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors(({ [FIELD_OF[key]]: _cleared, ...rest }) => rest);
  };
  const field = textFieldsOf(values, errors, set);

  const submit = () => {
    if (disabled) return;
    const checked = toQrInput(values);
    setFailure(null);
    if (checked.errors) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    save.mutate(
      { body: checked.input, qrId: editing?.qrId ?? null },
      {
        onSuccess: (saved) => {
          notifications.show({
            color: 'teal',
            title: editing ? 'QR code saved' : 'QR code created',
            message: editing ? `“${saved.label}” is up to date; its printed image stays the same.` : `“${saved.label}” is ready to download and print.`,
          });
          void navigate(qrCodeDownloadHref(saved.qrId));
        },
        onError: (error) => {
          const fields = serverFieldErrors(error);
          if (fields) setErrors(errorsFromApi(fields));
          setFailure(error.message);
        },
      },
    );
  };

  return (
    <EntityForm
      label={editing ? 'Edit QR code' : 'New QR code'}
      onSubmit={submit}
      access={access}
      problem={failure}
      problemTitle="The QR code was not saved"
      submitLabel="Save"
      pending={save.isPending}
      cancelTo={editing ? qrCodeDownloadHref(editing.qrId) : paths.payments.qrCodes}
    >
      <TextInput
        label="Label"
        description="Where or what it is for, such as “Front counter”. Payers see it."
        required
        maxLength={100}
        {...field('label')}
        disabled={disabled}
      />
      <Radio.Group<QrAmountMode>
        label="Amount"
        value={values.amountMode}
        onChange={(mode) => {
          set('amountMode', mode);
          setErrors(({ amountCents: _a, minAmountCents: _min, maxAmountCents: _max, ...rest }) => rest);
        }}
        error={errors.amountMode}
      >
        <Stack gap="xs" mt={6}>
          <Radio value="fixed" label="A fixed amount" description="Every payment through the code is the same amount" disabled={disabled} />
          <Radio value="open" label="The payer enters the amount" description="Optionally within a smallest and a largest amount" disabled={disabled} />
        </Stack>
      </Radio.Group>
      {values.amountMode === 'fixed' ? (
        <MoneyInput
          label="Amount (USD)"
          required
          maw={{ sm: 320 }}
          value={values.amount}
          onValueChange={(value) => set('amount', value)}
          error={errors.amountCents}
          disabled={disabled}
        />
      ) : (
        <Grid>
          {(
            [
              ['minAmount', 'minAmountCents', 'Smallest amount (USD)'],
              ['maxAmount', 'maxAmountCents', 'Largest amount (USD)'],
            ] as const
          ).map(([key, field, label]) => (
            <Grid.Col key={key} span={{ base: 12, sm: 6 }}>
              <MoneyInput
                label={label}
                description="Optional"
                value={values[key]}
                onValueChange={(value) => set(key, value)}
                error={errors[field]}
                disabled={disabled}
              />
            </Grid.Col>
          ))}
        </Grid>
      )}
      {errors.amountCents && values.amountMode === 'open' && (
        <Text size="sm" c="red" role="alert">
          {errors.amountCents}
        </Text>
      )}
      <Textarea
        label="Memo"
        description="Shown to the payer above the amount: what they are paying for"
        autosize
        minRows={2}
        maxLength={500}
        {...field('memo')}
        disabled={disabled}
      />
      <Fieldset legend="What to ask the payer" variant="unstyled">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          {ASKED.map(({ key, label, description }) => (
            <Radio.Group<QrAsk> key={key} label={label} description={description} value={values[key]} onChange={(ask) => set(key, ask)} error={errors[key]}>
              <Group gap="md" mt={6}>
                {ASKS.map((ask) => (
                  <Radio key={ask.value} value={ask.value} label={ask.label} disabled={disabled} />
                ))}
              </Group>
            </Radio.Group>
          ))}
        </SimpleGrid>
      </Fieldset>
      <TextInput
        label="Expires on"
        description="Optional: the last day the code takes payments"
        type="date"
        maw={{ sm: 320 }}
        {...field('expiresOn')}
        disabled={disabled}
      />
      <Switch
        label="Active"
        description="An active code takes payments; a disabled one tells payers it takes none, until you enable it again"
        checked={values.active}
        onChange={(e) => set('active', e.currentTarget.checked)}
        error={errors.status}
        disabled={disabled}
      />
    </EntityForm>
  );
}
