import { Alert, Button, Grid, Group, Paper, Radio, Stack, Switch, Text, TextInput, Textarea, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconInfoCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useOutletContext, useSearchParams } from 'react-router';
import {
  type EntityType,
  formatMoney,
  getHref,
  MAX_AMOUNT_CENTS,
  NO_MOBILE_MESSAGE,
  parseMoney,
  paths,
  type Payer,
  payerEndpoints,
  type PaymentRequestDetail,
  type PaymentRequestInput,
  REQUEST_CHANNEL_LABELS,
  type RequestChannel,
} from '@tay/contract';
import { LoadError } from '../../../components/ui/load-error';
import { PageLoader } from '../../../components/ui/page-loader';
import { ApiError } from '../../../lib/api-client';
import { endpointQuery } from '../../../lib/endpoint-client';
import { formatPhone } from '../../../lib/phone';
import { paymentsHeading } from '../../../lib/template';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useBusinessId } from '../../../lib/session';
import { useBusinessTimeZone, useRequestDetail, useSaveRequest } from '../api/payment-requests-api';
import { PayerPicker, type PickedPayer } from '../../../components/payers/payer-picker';
import { isoToZonedInput, zonedInputToIso } from '../../../lib/send-at';
import { WriteAccessAlert } from '../../../components/ui/write-access-alert';
import { useWriteAccess } from '../../../lib/write-access';
import { editInvoiceHref, invoiceDetailsHref } from '../../../lib/invoice-paths';
import { qrCodeTransactionsHref } from '../../../lib/qr-code-paths';
import { MoneyInput } from '../../../components/ui/money-input';

type Mode = PaymentRequestInput['mode'];
type Errors = Partial<Record<'payerId' | 'channel' | 'amountCents' | 'dueDate' | 'expiresOn' | 'sendAt' | 'memo' | 'reference', string>>;

function dateInDays(days: number): string {
  const d = new Date();
  d.setDate(d.getDate() + days);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

const today = () => dateInDays(0);

interface Initial {
  payer: PickedPayer | null;
  channel: RequestChannel;
  amount: string;
  memo: string;
  reference: string;
  dueDate: string;
  expiresOn: string;
  allowPartial: boolean;
  sendAt: string;
}

/** Only a Draft or a scheduled (Pending) request can be edited; any request can be copied. */
function isEditable(source: Pick<PaymentRequestDetail, 'transactionState'>): boolean {
  return source.transactionState === 'Draft' || source.transactionState === 'Pending';
}

/** A text message needs the payer's mobile number: one known to have none (null) cannot take it. */
function channelFor(channel: RequestChannel, payer: PickedPayer | null): RequestChannel {
  return channel === 'sms' && payer?.mobileNumber === null ? 'email' : channel;
}

/**
 * The form's first values. `payer` is the request's payer (or the `?payerId=` one) as the API
 * has it now, for the mobile number the request detail does not carry; when it could not be
 * loaded, the number is not known and the server decides whether a text message can go.
 */
function initialFrom(source: PaymentRequestDetail | undefined, copying: boolean, payer: Payer | undefined, timeZone: string): Initial {
  const mobileNumber = payer ? { mobileNumber: payer.mobileNumber } : {};
  if (source) {
    // Only a payment through a QR code may have no payer record, and the page turns those away.
    const picked: PickedPayer | null = source.payerId
      ? { payerId: source.payerId, displayName: source.payerName, email: source.payerEmail, ...mobileNumber }
      : null;
    return {
      payer: picked,
      channel: channelFor(source.channel, picked),
      amount: (source.amountCents / 100).toFixed(2),
      memo: source.memo,
      reference: source.reference,
      // A copy is a new request: a past due date moves forward, expiry and send time start over.
      dueDate: copying && source.dueDate < today() ? dateInDays(14) : source.dueDate,
      expiresOn: copying ? '' : source.expiresOn,
      allowPartial: source.allowPartial,
      sendAt: copying ? '' : isoToZonedInput(source.sendAt, timeZone),
    };
  }
  return {
    payer: payer ? { payerId: payer.payerId, displayName: payer.displayName, email: payer.email, ...mobileNumber } : null,
    channel: 'email',
    amount: '',
    memo: '',
    reference: '',
    dueDate: dateInDays(14),
    expiresOn: '',
    allowPartial: false,
    sendAt: '',
  };
}

/**
 * /business/payment/request: a single request to pay. `?transid=` edits that request when it is
 * a draft or scheduled, and copies it otherwise; `?transid=…&copy=1` always copies it into a new
 * request (docs/product.md §2: the route takes the query transid). `?payerId=` starts with that payer chosen.
 */
export function RequestFormPage() {
  const [params] = useSearchParams();
  const transid = params.get('transid');
  const copyAsked = params.get('copy') === '1';
  const presetPayerId = params.get('payerId');
  const businessId = useBusinessId();
  // A scheduled send time is on the business's clock (its configured time zone).
  const timeZone = useBusinessTimeZone();
  const source = useRequestDetail(transid);
  // The request's payer, for its mobile number; else the `?payerId=` one.
  const payerId = transid ? source.data?.payerId : presetPayerId;
  const payer = useQuery({
    ...endpointQuery(payerEndpoints.get, { params: { id: businessId ?? '', payerId: payerId ?? '' } }),
    enabled: Boolean(businessId && payerId),
  });
  if (timeZone.error) return <LoadError title="We could not load your business" error={timeZone.error} onRetry={() => void timeZone.refetch()} />;
  if (!timeZone.data) return <PageLoader />;
  if (transid && source.isPending) return <PageLoader />;
  if (transid && source.error) return <LoadError title="We could not load that request" error={source.error} onRetry={() => void source.refetch()} />;
  if (payerId && payer.isPending && payer.fetchStatus !== 'idle') return <PageLoader />;
  const copying = Boolean(source.data) && (copyAsked || !isEditable(source.data!));
  if (source.data?.qrCodeId) return <PaidThroughQrCode request={source.data} />;
  if (source.data && !copying && source.data.invoiceId) return <CollectsInvoice request={source.data} />;
  return (
    <RequestForm
      key={`${transid ?? ''}:${copying}:${presetPayerId ?? ''}`}
      source={source.data}
      editing={source.data && !copying ? source.data : null}
      initial={initialFrom(source.data, copying, payer.data, timeZone.data)}
      timeZone={timeZone.data}
    />
  );
}

/**
 * A request that collects an invoice changes with its invoice (the API refuses to edit the request
 * itself): the form offers the invoice instead, and a copy as a plain request.
 */
function CollectsInvoice({ request }: { request: PaymentRequestDetail }) {
  useDocumentTitle(`Edit ${request.referenceNumber}`);
  const invoiceId = request.invoiceId!;
  const invoice = request.invoiceNumber ?? 'its invoice';
  return (
    <Stack gap="md" maw={640}>
      <Title order={1}>
        {request.referenceNumber} collects invoice {invoice}
      </Title>
      <Text>Its amount, payer and dates come from the invoice. Change the invoice, and the request follows it.</Text>
      <Group>
        <Button component={Link} to={editInvoiceHref(invoiceId)}>
          Edit the invoice
        </Button>
        <Button component={Link} to={invoiceDetailsHref(invoiceId)} variant="default">
          View {invoice}
        </Button>
        <Button component={Link} to={getHref(paths.payments.request, undefined, { transid: request.transactionId, copy: 1 })} variant="subtle">
          Copy into a new request
        </Button>
      </Group>
    </Stack>
  );
}

/**
 * A payment through a QR code was sent to no one: it cannot be edited (the API refuses) and has no
 * payer to copy it for (`requestActions(state, true)` offers no Copy). The form says so.
 */
function PaidThroughQrCode({ request }: { request: PaymentRequestDetail }) {
  useDocumentTitle(request.referenceNumber);
  return (
    <Stack gap="md" maw={640}>
      <Title order={1}>{request.referenceNumber} is a payment through a QR code</Title>
      <Text>
        {request.payerName} paid it by scanning {request.qrCodeLabel ? `the code “${request.qrCodeLabel}”` : 'a QR code'}. It was sent to no one, so it cannot
        be edited or copied.
      </Text>
      <Group>
        <Button component={Link} to={qrCodeTransactionsHref(request.qrCodeId)}>
          Payments through this code
        </Button>
        <Button component={Link} to={paths.payments.request} variant="default">
          New request
        </Button>
      </Group>
    </Stack>
  );
}

function RequestForm({
  source,
  editing,
  initial,
  timeZone,
}: {
  source: PaymentRequestDetail | undefined;
  editing: PaymentRequestDetail | null;
  initial: Initial;
  timeZone: string;
}) {
  const navigate = useNavigate();
  const outlet = useOutletContext<{ template?: EntityType } | undefined>();
  useDocumentTitle(editing ? 'Edit request to pay' : 'Request to pay');

  const [payer, setPayer] = useState<PickedPayer | null>(initial.payer);
  const [channel, setChannel] = useState<RequestChannel>(initial.channel);
  const [amount, setAmount] = useState(initial.amount);
  const [memo, setMemo] = useState(initial.memo);
  const [reference, setReference] = useState(initial.reference);
  const [dueDate, setDueDate] = useState(initial.dueDate);
  const [expiresOn, setExpiresOn] = useState(initial.expiresOn);
  const [allowPartial, setAllowPartial] = useState(initial.allowPartial);
  const [sendAt, setSendAt] = useState(initial.sendAt);
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const save = useSaveRequest();
  const access = useWriteAccess('requests');

  const submit = (mode: Mode) => {
    if (!access.allowed) return;
    const next: Errors = {};
    const cents = parseMoney(amount);
    if (!payer) next.payerId = 'Choose a payer.';
    if (cents === null) next.amountCents = 'Enter an amount like 125.00.';
    else if (cents <= 0) next.amountCents = 'Enter an amount above $0.00.';
    else if (cents > MAX_AMOUNT_CENTS) next.amountCents = 'The amount is above the $10,000,000.00 limit.';
    if (!dueDate) next.dueDate = 'Choose the due date.';
    else if (dueDate < today()) next.dueDate = 'Choose today or a later date.';
    if (expiresOn && expiresOn < dueDate) next.expiresOn = 'The expiry cannot be before the due date.';
    const sendAtIso = zonedInputToIso(sendAt, timeZone);
    if (mode === 'schedule') {
      if (!sendAt) next.sendAt = 'Choose when to send it.';
      else if (!sendAtIso) next.sendAt = `Enter a date and time that exists in ${timeZone}, like 2026-05-01 09:00.`;
      else if (new Date(sendAtIso).getTime() <= Date.now()) next.sendAt = 'Choose a time in the future.';
    }
    setErrors(next);
    if (Object.keys(next).length > 0) return;

    const body: PaymentRequestInput = {
      payerId: payer!.payerId,
      channel: channelFor(channel, payer),
      amountCents: cents!,
      memo,
      reference,
      dueDate,
      expiresOn: expiresOn || null,
      allowPartial,
      mode,
      sendAt: mode === 'schedule' ? sendAtIso : null,
    };
    setFailure(null);
    save.mutate(
      { body, ...(editing ? { requestId: editing.transactionId } : {}) },
      {
        onSuccess: (saved) => {
          const what = mode === 'send' ? 'sent' : mode === 'schedule' ? 'scheduled' : 'saved as a draft';
          notifications.show({
            color: 'teal',
            title: `Request ${what}`,
            message: `${saved.referenceNumber}: ${formatMoney(saved.amountCents)} from ${saved.payerName}.`,
          });
          void navigate(mode === 'draft' ? paths.payments.drafts : getHref(paths.payments.history, undefined, { transid: saved.transactionId }));
        },
        onError: (error) => {
          if (error instanceof ApiError && error.fields) setErrors(error.fields as Errors);
          setFailure(error.message);
        },
      },
    );
  };

  return (
    <Stack gap="lg" maw={820}>
      <div>
        <Text size="sm" c="dimmed">
          {paymentsHeading(outlet?.template ?? 'standard')}
        </Text>
        <Title order={1}>{editing ? `Edit ${editing.referenceNumber}` : 'Request to pay'}</Title>
        {source && !editing && (
          <Text c="dimmed" size="sm">
            A copy of {source.referenceNumber}. Check the dates before you send it.
          </Text>
        )}
      </div>
      <WriteAccessAlert access={access} />
      {failure && (
        <Alert color="red" title="The request was not saved" role="alert">
          {failure}
        </Alert>
      )}
      <Paper withBorder p="lg" radius="md">
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            submit('send');
          }}
        >
          <Stack gap="md">
            <PayerPicker
              value={payer}
              onChange={(next) => {
                setPayer(next);
                setChannel((current) => channelFor(current, next));
                setErrors(({ channel: _channel, ...rest }) => rest);
              }}
              error={errors.payerId}
            />
            <Radio.Group<RequestChannel>
              label="Send by"
              description="How the payer gets the link, resends and reminders. Receipts always go by e-mail."
              value={channel}
              onChange={(next) => {
                setChannel(next);
                setErrors(({ channel: _channel, ...rest }) => rest);
              }}
              error={errors.channel}
            >
              <Stack gap="xs" mt={6}>
                <Radio value="email" label={REQUEST_CHANNEL_LABELS.email} description={payer ? `E-mailed to ${payer.email}` : 'E-mailed to the payer'} />
                <Radio
                  value="sms"
                  label={REQUEST_CHANNEL_LABELS.sms}
                  disabled={payer?.mobileNumber === null}
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
            <Grid>
              <Grid.Col span={{ base: 12, sm: 6 }}>
                <MoneyInput label="Amount (USD)" value={amount} onValueChange={setAmount} error={errors.amountCents} />
              </Grid.Col>
              <Grid.Col span={{ base: 12, sm: 6 }}>
                <TextInput
                  label="Your reference"
                  description="Optional: an invoice or account number"
                  value={reference}
                  onChange={(e) => setReference(e.currentTarget.value)}
                  error={errors.reference}
                  maxLength={64}
                />
              </Grid.Col>
              <Grid.Col span={12}>
                <Textarea
                  label="Memo"
                  description="What it is for; the payer sees it"
                  autosize
                  minRows={2}
                  maxLength={500}
                  value={memo}
                  onChange={(e) => setMemo(e.currentTarget.value)}
                  error={errors.memo}
                />
              </Grid.Col>
              <Grid.Col span={{ base: 12, sm: 6 }}>
                <TextInput
                  label="Due date"
                  type="date"
                  min={today()}
                  value={dueDate}
                  onChange={(e) => setDueDate(e.currentTarget.value)}
                  error={errors.dueDate}
                />
              </Grid.Col>
              <Grid.Col span={{ base: 12, sm: 6 }}>
                <TextInput
                  label="Expires on"
                  description="Optional: the business default applies otherwise"
                  type="date"
                  min={dueDate}
                  value={expiresOn}
                  onChange={(e) => setExpiresOn(e.currentTarget.value)}
                  error={errors.expiresOn}
                />
              </Grid.Col>
              <Grid.Col span={12}>
                <Switch
                  label="Allow partial payment"
                  description="The payer may pay part now and the rest later"
                  checked={allowPartial}
                  onChange={(e) => setAllowPartial(e.currentTarget.checked)}
                />
              </Grid.Col>
              <Grid.Col span={{ base: 12, sm: 6 }}>
                <TextInput
                  label="Send later (optional)"
                  description={`Pick a time in ${timeZone}, the business’s time zone, then choose Schedule`}
                  type="datetime-local"
                  value={sendAt}
                  onChange={(e) => setSendAt(e.currentTarget.value)}
                  error={errors.sendAt}
                />
              </Grid.Col>
            </Grid>
            {editing?.transactionState === 'Pending' && (
              <Alert color="blue" icon={<IconInfoCircle />}>
                This request is scheduled. Saving keeps it scheduled; Send now sends it at once.
              </Alert>
            )}
            <Group>
              <Button type="submit" disabled={!access.allowed} loading={save.isPending && save.variables?.body.mode === 'send'}>
                Send now
              </Button>
              <Button
                variant="light"
                onClick={() => submit('schedule')}
                disabled={!access.allowed}
                loading={save.isPending && save.variables?.body.mode === 'schedule'}
              >
                Schedule
              </Button>
              {editing?.transactionState !== 'Pending' && (
                <Button
                  variant="default"
                  onClick={() => submit('draft')}
                  disabled={!access.allowed}
                  loading={save.isPending && save.variables?.body.mode === 'draft'}
                >
                  Save as draft
                </Button>
              )}
            </Group>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}
