import { Alert, Anchor, Button, Checkbox, Grid, Group, List, NativeSelect, Paper, Radio, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconEye, IconInfoCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import {
  formatDay,
  formatMoney,
  INVOICE_STATE_LABELS,
  INVOICE_TERMS,
  INVOICE_TERMS_LABELS,
  NO_MOBILE_MESSAGE,
  payerEndpoints,
  REQUEST_CHANNEL_LABELS,
  type Invoice,
  type InvoiceDetail,
  type InvoiceState,
  type InvoiceTerms,
  type RequestChannel,
  invoiceEndpoints,
} from '@tay/contract';
import { InvoiceTotals } from '../../../components/invoices/invoice-lines';
import { PayerPicker, type PickedPayer } from '../../../components/payers/payer-picker';
import { LoadError } from '../../../components/ui/load-error';
import { PageLoader } from '../../../components/ui/page-loader';
import { PdfPreviewModal } from '../../../components/ui/pdf-preview-modal';
import { AccessAlert } from '../../../components/ui/access-alert';
import { ApiError } from '../../../lib/api-client';
import { formatZonedDateTime } from '../../../lib/zoned-time';
import { useBusinessInvoiceTerms, useBusinessTimeZone } from '../../../lib/business-time-zone';
import { endpointQuery } from '../../../lib/endpoint-client';
import { copyInvoiceHref, invoiceDetailsHref, invoicePaths } from '../../../lib/invoice-paths';
import { formatPhone } from '../../../lib/phone';
import { isoToZonedInput, zonedInputToIso } from '../../../lib/send-at';
import { useBusinessId } from '../../../lib/session';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useEndpointAccess } from '../../../lib/endpoint-access';
import { fetchInvoicePdf, useInvoiceDetail, useSaveInvoice, useSendInvoice } from '../api/invoices-api';
import { LineItemsEditor } from '../components/line-items-editor';
import {
  checkValues,
  dueDateOf,
  emptyValues,
  errorsFromApi,
  figuresOf,
  hasErrors,
  NO_ERRORS,
  todayIn,
  toInput,
  valuesFrom,
  type DiscountType,
  type FormErrors,
  type FormField,
  type InvoiceFormValues,
  type LineField,
} from '../invoice-form-model';

/** Only a draft, or a scheduled invoice before it goes, can be edited; any invoice can be copied. */
const EDITABLE: readonly InvoiceState[] = ['Draft', 'Scheduled'];

const TERMS_OPTIONS = INVOICE_TERMS.map((t) => ({ value: t, label: INVOICE_TERMS_LABELS[t] }));
const DISCOUNT_OPTIONS: { value: DiscountType; label: string }[] = [
  { value: 'none', label: 'No discount' },
  { value: 'amount', label: 'An amount off ($)' },
  { value: 'percent', label: 'A percentage off (%)' },
];

/** A text message needs the payer's mobile number: one known to have none (null) cannot take it. */
function channelFor(channel: RequestChannel, payer: PickedPayer | null): RequestChannel {
  return channel === 'sms' && payer?.mobileNumber === null ? 'email' : channel;
}

/**
 * /business/payment/invoices/draft: a new invoice. `?invoiceid=` edits a draft or a scheduled
 * invoice (any other is offered as a copy); `?copy=` starts a new invoice from another one's payer,
 * lines and terms, issued today.
 */
export function InvoiceFormPage() {
  const [params] = useSearchParams();
  const invoiceId = params.get('invoiceid');
  const copyId = invoiceId ? null : params.get('copy');
  const sourceId = invoiceId ?? copyId;
  const businessId = useBusinessId();
  // Today, and a scheduled send time, are on the business's clock (its configured time zone).
  const timeZone = useBusinessTimeZone();
  // A new invoice's footer starts as the business's invoice terms (Setup → Configuration).
  const invoiceTerms = useBusinessInvoiceTerms();
  const source = useInvoiceDetail(sourceId);
  // The invoice's payer, for the mobile number the invoice does not carry.
  const payerId = source.data?.payerId;
  const payer = useQuery({
    ...endpointQuery(payerEndpoints.get, { params: { id: businessId ?? '', payerId: payerId ?? '' } }),
    enabled: Boolean(businessId && payerId),
  });
  if (timeZone.error) return <LoadError title="We could not load your business" error={timeZone.error} onRetry={() => void timeZone.refetch()} />;
  if (!timeZone.data) return <PageLoader />;
  if (sourceId && source.error) return <LoadError title="We could not load that invoice" error={source.error} onRetry={() => void source.refetch()} />;
  if (sourceId && !source.data) return <PageLoader />;
  if (payerId && payer.isPending && payer.fetchStatus !== 'idle') return <PageLoader />;

  const today = todayIn(timeZone.data);
  const editing = invoiceId && source.data ? source.data : null;
  if (editing && !EDITABLE.includes(editing.invoiceState)) return <NotEditable invoice={editing} />;
  const picked: PickedPayer | null = source.data
    ? {
        payerId: source.data.payerId,
        displayName: source.data.payerName,
        email: source.data.payerEmail,
        ...(payer.data ? { mobileNumber: payer.data.mobileNumber } : {}),
      }
    : null;
  const initial = source.data
    ? valuesFrom(source.data, picked!, { copy: !editing, today })
    : { ...emptyValues(today), footer: (invoiceTerms.data ?? '').slice(0, 1000) };
  return (
    <InvoiceForm
      key={`${invoiceId ?? ''}:${copyId ?? ''}`}
      editing={editing}
      copiedFrom={editing ? null : (source.data ?? null)}
      initial={{ ...initial, channel: channelFor(initial.channel, picked) }}
      timeZone={timeZone.data}
    />
  );
}

function NotEditable({ invoice }: { invoice: InvoiceDetail }) {
  useDocumentTitle(`Invoice ${invoice.number}`);
  return (
    <Stack gap="md" maw={640}>
      <Title order={1}>{invoice.number} can no longer be edited</Title>
      <Text>
        It is {INVOICE_STATE_LABELS[invoice.invoiceState]}: only a draft, or a scheduled invoice before it goes, can be changed. Copy it into a new invoice
        instead.
      </Text>
      <Group>
        <Button component={Link} to={copyInvoiceHref(invoice.invoiceId)}>
          Copy into a new invoice
        </Button>
        <Button component={Link} to={invoiceDetailsHref(invoice.invoiceId)} variant="default">
          View {invoice.number}
        </Button>
      </Group>
    </Stack>
  );
}

type Intent = 'draft' | 'preview' | 'send' | 'schedule';

/** What each field's error is cleared by. */
const CLEARS: Partial<Record<keyof InvoiceFormValues, FormField[]>> = {
  payer: ['payerId', 'channel'],
  channel: ['channel'],
  issueDate: ['issueDate', 'dueDate'],
  terms: ['terms', 'dueDate'],
  dueDate: ['dueDate'],
  discountType: ['discount'],
  discountValue: ['discount'],
  memo: ['memo'],
  footer: ['footer'],
  lines: ['items'],
};

function InvoiceForm({
  editing,
  copiedFrom,
  initial,
  timeZone,
}: {
  editing: InvoiceDetail | null;
  copiedFrom: InvoiceDetail | null;
  initial: InvoiceFormValues;
  timeZone: string;
}) {
  const navigate = useNavigate();
  const businessId = useBusinessId();
  const access = useEndpointAccess(invoiceEndpoints.create);
  useDocumentTitle(editing ? `Edit ${editing.number}` : 'New invoice');
  const scheduled = editing?.invoiceState === 'Scheduled';

  const [values, setValues] = useState(initial);
  // A scheduled invoice's time, to keep or change (Reschedule); a new one's, for Schedule.
  const [sendAt, setSendAt] = useState(() => (scheduled && editing.sendAt ? isoToZonedInput(editing.sendAt, timeZone) : ''));
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState<Intent | null>(null);
  const [preview, setPreview] = useState<{ pdf: Blob; number: string } | null>(null);
  // The invoice this form saves to (once created), and the body last saved to it: saving an
  // unchanged form again is skipped, so a Send retried after a lost answer goes straight to the
  // send (under the same Idempotency-Key) instead of editing an invoice that may be sent already.
  const [saved, setSaved] = useState<{ invoice: Invoice | null; invoiceId: string | null; body: string | null }>({
    invoice: null,
    invoiceId: editing?.invoiceId ?? null,
    body: null,
  });
  const save = useSaveInvoice();
  const send = useSendInvoice();

  const figures = figuresOf(values);
  const dueDate = dueDateOf(values);

  const set = <K extends keyof InvoiceFormValues>(field: K, value: InvoiceFormValues[K]) => {
    setValues((v) => ({ ...v, [field]: value }));
    const cleared = CLEARS[field];
    if (cleared) setErrors((e) => ({ ...e, fields: Object.fromEntries(Object.entries(e.fields).filter(([k]) => !cleared.includes(k as FormField))) }));
  };
  const clearLineError = (key: string, field: LineField) =>
    setErrors((e) => {
      if (!e.lines[key]?.[field]) return e;
      const { [field]: _gone, ...rest } = e.lines[key];
      return { ...e, lines: { ...e.lines, [key]: rest } };
    });

  const showFailure = (error: unknown, lineKeys: readonly string[]) => {
    if (error instanceof ApiError && error.fields) setErrors(errorsFromApi(error.fields, lineKeys));
    setFailure(error instanceof Error ? error.message : 'Something went wrong.');
  };

  /** Checks the form and saves it (POST the first time, PATCH after); the saved invoice, or null. */
  const persist = async (extra: FormErrors['fields'] = {}): Promise<Invoice | null> => {
    const checked = checkValues(values);
    const found = { ...checked, fields: { ...checked.fields, ...extra } };
    setErrors(found);
    if (hasErrors(found)) {
      setFailure(null);
      return null;
    }
    const body = toInput(values);
    const text = JSON.stringify(body);
    if (saved.invoice && saved.body === text) return saved.invoice;
    const lineKeys = values.lines.map((l) => l.key);
    setFailure(null);
    try {
      const invoice = await save.mutateAsync({ body, invoiceId: saved.invoiceId });
      setSaved({ invoice, invoiceId: invoice.invoiceId, body: text });
      return invoice;
    } catch (error) {
      showFailure(error, lineKeys);
      return null;
    }
  };

  const run = async (intent: Intent) => {
    if (!access.allowed || busy) return;
    const extra: FormErrors['fields'] = {};
    const sendAtIso = zonedInputToIso(sendAt, timeZone);
    if (intent === 'schedule') {
      if (!sendAt) extra.sendAt = 'Choose when to send it.';
      else if (!sendAtIso) extra.sendAt = `Enter a date and time that exists in ${timeZone}, like 2026-05-01 09:00.`;
      else if (new Date(sendAtIso).getTime() <= Date.now()) extra.sendAt = 'Choose a time in the future.';
    }
    setBusy(intent);
    try {
      const invoice = await persist(extra);
      if (!invoice) return;
      const what = `${invoice.number}: ${formatMoney(invoice.totalCents)} for ${invoice.payerName}.`;
      if (intent === 'draft') {
        notifications.show({ color: 'teal', title: scheduled ? 'Invoice saved; still scheduled' : 'Invoice saved as a draft', message: what });
        void navigate(invoiceDetailsHref(invoice.invoiceId));
        return;
      }
      if (intent === 'preview') {
        if (!businessId) return;
        try {
          setPreview({ pdf: await fetchInvoicePdf(businessId, invoice), number: invoice.number });
        } catch (error) {
          setFailure(`The invoice was saved, but its PDF could not be made: ${(error as Error).message}`);
        }
        return;
      }
      const lineKeys = values.lines.map((l) => l.key);
      try {
        const sent = await send.mutateAsync({ invoiceId: invoice.invoiceId, sendAt: intent === 'schedule' ? sendAtIso : null });
        notifications.show(
          intent === 'schedule'
            ? { color: 'teal', title: 'Invoice scheduled', message: `${what} It goes out ${formatZonedDateTime(sendAtIso!, timeZone)}.` }
            : {
                color: 'teal',
                title: 'Invoice sent',
                message: `${what} ${sent.payerName} gets it ${sent.channel === 'sms' ? 'by text message' : 'by e-mail'}.`,
              },
        );
        void navigate(invoiceDetailsHref(invoice.invoiceId));
      } catch (error) {
        showFailure(error, lineKeys);
      }
    } finally {
      setBusy(null);
    }
  };

  const fieldError = errors.fields;
  const payer = values.payer;
  const disabled = !access.allowed;

  return (
    <Stack gap="lg" maw={960}>
      <div>
        <Anchor component={Link} to={invoicePaths.landing} size="sm">
          Invoices
        </Anchor>
        <Title order={1}>{editing ? `Edit ${editing.number}` : 'New invoice'}</Title>
        {copiedFrom && (
          <Text c="dimmed" size="sm">
            A copy of {copiedFrom.number}, issued today. Check the lines and dates before you send it.
          </Text>
        )}
      </div>
      <AccessAlert access={access} />
      {failure && (
        <Alert color="red" title="The invoice was not saved or sent" role="alert">
          <Text size="sm">{failure}</Text>
          {errors.other.length > 0 && (
            <List size="sm" mt="xs">
              {errors.other.map((message) => (
                <List.Item key={message}>{message}</List.Item>
              ))}
            </List>
          )}
        </Alert>
      )}
      <Paper withBorder p={{ base: 'sm', sm: 'lg' }} radius="md">
        <form
          noValidate
          aria-label={editing ? `Edit ${editing.number}` : 'New invoice'}
          onSubmit={(e) => {
            e.preventDefault();
            void run(scheduled ? 'draft' : 'send');
          }}
        >
          <Stack gap="lg">
            <Grid>
              <Grid.Col span={{ base: 12, md: 6 }}>
                <PayerPicker
                  value={payer}
                  onChange={(next) => {
                    set('payer', next);
                    setValues((v) => ({ ...v, channel: channelFor(v.channel, next) }));
                  }}
                  error={fieldError.payerId}
                />
              </Grid.Col>
              <Grid.Col span={{ base: 12, md: 6 }}>
                <Radio.Group<RequestChannel>
                  label="Send by"
                  description="How the payer gets the invoice and its pay link. Receipts always go by e-mail."
                  value={values.channel}
                  onChange={(next) => set('channel', next)}
                  error={fieldError.channel}
                >
                  <Stack gap="xs" mt={6}>
                    <Radio
                      value="email"
                      label={REQUEST_CHANNEL_LABELS.email}
                      description={payer ? `E-mailed to ${payer.email}` : 'E-mailed to the payer'}
                      disabled={disabled}
                    />
                    <Radio
                      value="sms"
                      label={REQUEST_CHANNEL_LABELS.sms}
                      disabled={disabled || payer?.mobileNumber === null}
                      description={
                        payer?.mobileNumber === null
                          ? NO_MOBILE_MESSAGE
                          : payer?.mobileNumber
                            ? `Texted to ${formatPhone(payer.mobileNumber)}`
                            : 'Texted to the payer’s mobile number'
                      }
                    />
                  </Stack>
                </Radio.Group>
              </Grid.Col>
              <Grid.Col span={{ base: 12, sm: 4 }}>
                <TextInput
                  label="Issue date"
                  type="date"
                  value={values.issueDate}
                  onChange={(e) => set('issueDate', e.currentTarget.value)}
                  error={fieldError.issueDate}
                  disabled={disabled}
                />
              </Grid.Col>
              <Grid.Col span={{ base: 12, sm: 4 }}>
                <NativeSelect
                  label="Terms"
                  data={TERMS_OPTIONS}
                  value={values.terms}
                  onChange={(e) => set('terms', e.currentTarget.value as InvoiceTerms)}
                  error={fieldError.terms}
                  disabled={disabled}
                />
              </Grid.Col>
              <Grid.Col span={{ base: 12, sm: 4 }}>
                {values.terms === 'custom' ? (
                  <TextInput
                    label="Due date"
                    type="date"
                    min={values.issueDate}
                    value={values.dueDate}
                    onChange={(e) => set('dueDate', e.currentTarget.value)}
                    error={fieldError.dueDate}
                    disabled={disabled}
                  />
                ) : (
                  <TextInput
                    label="Due date"
                    description="From the issue date and terms"
                    readOnly
                    variant="filled"
                    value={dueDate ? formatDay(dueDate) : '—'}
                    error={fieldError.dueDate}
                  />
                )}
              </Grid.Col>
            </Grid>

            <LineItemsEditor
              lines={values.lines}
              figures={figures.lines}
              errors={errors.lines}
              error={fieldError.items}
              onChange={(lines) => set('lines', lines)}
              onEdit={clearLineError}
              disabled={disabled}
            />

            <Grid gap="lg">
              <Grid.Col span={{ base: 12, md: 7 }}>
                <Stack gap="sm">
                  <Grid gap="xs">
                    <Grid.Col span={{ base: 12, sm: 6 }}>
                      <NativeSelect
                        label="Discount"
                        data={DISCOUNT_OPTIONS}
                        value={values.discountType}
                        onChange={(e) => set('discountType', e.currentTarget.value as DiscountType)}
                        error={values.discountType === 'none' ? fieldError.discount : undefined}
                        disabled={disabled}
                      />
                    </Grid.Col>
                    {values.discountType !== 'none' && (
                      <Grid.Col span={{ base: 12, sm: 6 }}>
                        <TextInput
                          label={values.discountType === 'amount' ? 'Discount amount' : 'Discount percentage'}
                          inputMode="decimal"
                          {...(values.discountType === 'amount' ? { leftSection: '$', placeholder: '0.00' } : { rightSection: '%', placeholder: '10' })}
                          value={values.discountValue}
                          onChange={(e) => set('discountValue', e.currentTarget.value)}
                          error={fieldError.discount}
                          disabled={disabled}
                        />
                      </Grid.Col>
                    )}
                  </Grid>
                  <Textarea
                    label="Memo"
                    description="A note to the payer, printed on the invoice"
                    autosize
                    minRows={2}
                    maxLength={1000}
                    value={values.memo}
                    onChange={(e) => set('memo', e.currentTarget.value)}
                    error={fieldError.memo}
                    disabled={disabled}
                  />
                  <Textarea
                    label="Footer"
                    description="Printed at the bottom: payment terms, thanks, registration numbers"
                    autosize
                    minRows={2}
                    maxLength={1000}
                    value={values.footer}
                    onChange={(e) => set('footer', e.currentTarget.value)}
                    error={fieldError.footer}
                    disabled={disabled}
                  />
                  <Checkbox
                    label="Allow partial payment"
                    description="The payer may pay part now and the rest later"
                    checked={values.allowPartial}
                    onChange={(e) => set('allowPartial', e.currentTarget.checked)}
                    disabled={disabled}
                  />
                </Stack>
              </Grid.Col>
              <Grid.Col span={{ base: 12, md: 5 }}>
                <Paper withBorder radius="md" p="md" bg="var(--mantine-color-gray-0)">
                  <Text fw={600} mb="xs">
                    Totals
                  </Text>
                  <InvoiceTotals figures={figures} live />
                </Paper>
              </Grid.Col>
            </Grid>

            {scheduled && (
              <Alert color="blue" icon={<IconInfoCircle />}>
                This invoice is scheduled to go {editing.sendAt ? formatZonedDateTime(editing.sendAt, timeZone) : 'at its scheduled time'}. Save changes to keep
                that time, Reschedule to move it, or Send now.
              </Alert>
            )}
            <TextInput
              label={scheduled ? 'Send at' : 'Send later (optional)'}
              description={`Pick a time in ${timeZone}, the business’s time zone, then choose ${scheduled ? 'Reschedule' : 'Schedule'}`}
              type="datetime-local"
              value={sendAt}
              min={isoToZonedInput(new Date().toISOString(), timeZone)}
              onChange={(e) => {
                setSendAt(e.currentTarget.value);
                setErrors(({ fields: { sendAt: _gone, ...fields }, ...rest }) => ({ ...rest, fields }));
              }}
              error={fieldError.sendAt}
              disabled={disabled}
              maw={{ base: '100%', sm: 320 }}
            />

            <Group gap="sm">
              {scheduled ? (
                <>
                  <Button type="submit" disabled={disabled || (busy !== null && busy !== 'draft')} loading={busy === 'draft'}>
                    Save changes
                  </Button>
                  <Button
                    variant="light"
                    onClick={() => void run('schedule')}
                    disabled={disabled || (busy !== null && busy !== 'schedule')}
                    loading={busy === 'schedule'}
                  >
                    Reschedule
                  </Button>
                  <Button
                    variant="default"
                    onClick={() => void run('send')}
                    disabled={disabled || (busy !== null && busy !== 'send')}
                    loading={busy === 'send'}
                  >
                    Send now
                  </Button>
                </>
              ) : (
                <>
                  <Button type="submit" disabled={disabled || (busy !== null && busy !== 'send')} loading={busy === 'send'}>
                    Send
                  </Button>
                  <Button
                    variant="light"
                    onClick={() => void run('schedule')}
                    disabled={disabled || (busy !== null && busy !== 'schedule')}
                    loading={busy === 'schedule'}
                  >
                    Schedule
                  </Button>
                  <Button
                    variant="default"
                    onClick={() => void run('draft')}
                    disabled={disabled || (busy !== null && busy !== 'draft')}
                    loading={busy === 'draft'}
                  >
                    Save draft
                  </Button>
                </>
              )}
              <Button
                variant="subtle"
                leftSection={<IconEye size={16} />}
                onClick={() => void run('preview')}
                disabled={disabled || (busy !== null && busy !== 'preview')}
                loading={busy === 'preview'}
              >
                Preview PDF
              </Button>
            </Group>
            {!scheduled && (
              <Text size="xs" c="dimmed">
                Send, Schedule and Preview PDF save the invoice first. It is numbered when first saved.
              </Text>
            )}
          </Stack>
        </form>
      </Paper>
      <PdfPreviewModal
        pdf={preview?.pdf ?? null}
        title={`Preview of ${preview?.number ?? 'the invoice'}`}
        fileName={`${preview?.number ?? 'invoice'}.pdf`}
        onClose={() => setPreview(null)}
      />
    </Stack>
  );
}
