import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, Navigate, useNavigate, useOutletContext, useSearchParams } from 'react-router';
import {
  type EntityType,
  formatMoney,
  getHref,
  paths,
  type Payer,
  payerEndpoints,
  type PaymentRequestDetail,
  type PaymentRequestInput,
  type RequestChannel,
  paymentRequestEndpoints,
} from '@tay/contract';
import { LoadError } from '../../../components/ui/load-error';
import { PageLoader } from '../../../components/ui/page-loader';
import { endpointQuery } from '../../../lib/endpoint-client';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useBusinessId } from '../../../lib/session';
import { useBusinessTimeZone, useRequestDetail, useSaveRequest } from '../api/payment-requests-api';
import { PayerPicker, type PickedPayer } from '../../../components/payers/payer-picker';
import { isoToZonedInput } from '../../../lib/send-at';
import { StatementLines } from '../../../components/payments/statement-lines';
import { useEndpointAccess } from '../../../lib/endpoint-access';
import { editInvoiceHref, invoiceDetailsHref } from '../../../lib/invoice-paths';
import { qrCodeTransactionsHref } from '../../../lib/qr-code-paths';
import {
  ChannelField,
  checkRequestFields,
  dateInDays,
  RequestDetailsFields,
  type RequestFieldErrors,
  type RequestFieldValues,
  newRequestValues,
  type RequestMode,
  RequestSubmitButtons,
  today,
  useRequestFields,
} from '../../../components/payments/request-fields';
import { RequestFormFrame, requestSaveOutcome } from '../../../components/payments/request-form-frame';

type Mode = RequestMode;
type Errors = RequestFieldErrors;

interface Initial extends RequestFieldValues {
  payer: PickedPayer | null;
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
    ...newRequestValues(),
    payer: payer ? { payerId: payer.payerId, displayName: payer.displayName, email: payer.email, ...mobileNumber } : null,
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
  // A patient's statement (ADR 037) is copied into a new statement for the patient, lines and all.
  if (source.data && copying && source.data.statement && source.data.clientId) {
    return (
      <Navigate
        replace
        to={getHref(paths.entity.healthcareRequest, undefined, { entity: true, clientId: source.data.clientId, copy: source.data.transactionId })}
      />
    );
  }
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
  useDocumentTitle(editing ? 'Edit request to pay' : 'Single Request to Pay');

  const [payer, setPayer] = useState<PickedPayer | null>(initial.payer);
  const { payer: _payer, ...initialFields } = initial;
  const { values, set, errors, setErrors } = useRequestFields(initialFields);
  const [failure, setFailure] = useState<string | null>(null);
  const save = useSaveRequest();
  const access = useEndpointAccess(paymentRequestEndpoints.create);

  const submit = (mode: Mode) => {
    if (!access.allowed) return;
    const checked = checkRequestFields(values, mode, timeZone);
    const next: Errors = { ...checked.errors };
    if (!payer) next.payerId = 'Choose a payer.';
    setErrors(next);
    if (Object.keys(next).length > 0 || !checked.fields) return;

    const body: PaymentRequestInput = { payerId: payer!.payerId, channel: channelFor(values.channel, payer), ...checked.fields };
    setFailure(null);
    save.mutate(
      { body, ...(editing ? { requestId: editing.transactionId } : {}) },
      requestSaveOutcome({
        mode,
        noun: 'Request',
        detail: (saved) => `from ${saved.payerName}`,
        listed: (saved) => getHref(paths.payments.history, undefined, { transid: saved.transactionId }),
        navigate,
        setErrors,
        setFailure,
      }),
    );
  };

  return (
    <RequestFormFrame
      template={outlet?.template ?? 'standard'}
      title={editing ? `Edit ${editing.referenceNumber}` : 'Single Request to Pay'}
      intro={source && !editing ? `A copy of ${source.referenceNumber}. Check the dates before you send it.` : undefined}
      access={access}
      failure={failure}
      notices={
        <>
          {/* A patient's statement (ADR 037): its amount is its lines' total, kept as it is. */}
          {editing?.statement && (
            <Alert color="blue" variant="light" title={`A statement for ${editing.patientName ?? 'a patient'}`}>
              <Stack gap="xs">
                <Text size="sm">
                  Its amount is the total of its lines’ patient responsibility, {formatMoney(editing.statement.totals.responsibilityCents)}, and stays so. To
                  change the lines, {editing.transactionState === 'Pending' ? 'cancel this scheduled statement' : 'delete this draft'} and make a new statement.
                </Text>
                <StatementLines statement={editing.statement} />
              </Stack>
            </Alert>
          )}
        </>
      }
      onSend={() => submit('send')}
    >
      {/* A statement is billed to the patient's guarantor (ADR 037): its payer is shown, not chosen. */}
      {editing?.statement ? (
        <Alert color={errors.payerId ? 'red' : 'gray'} variant="light" title="Billed to" aria-label="Billed to">
          <Text size="sm">
            {editing.payerName} · {editing.payerEmail}
          </Text>
          <Text size="xs" c="dimmed">
            {errors.payerId ?? 'The patient’s guarantor. To bill someone else, make a new statement.'}
          </Text>
        </Alert>
      ) : (
        <PayerPicker
          value={payer}
          onChange={(next) => {
            setPayer(next);
            set('channel', channelFor(values.channel, next));
            setErrors(({ channel: _channel, ...rest }) => rest);
          }}
          error={errors.payerId}
        />
      )}
      <ChannelField
        value={values.channel}
        onChange={(next) => {
          set('channel', next);
          setErrors(({ channel: _channel, ...rest }) => rest);
        }}
        error={errors.channel}
        to={payer}
      />
      {/* A statement's amount is its lines' total (shown above): no amount field to change. */}
      <RequestDetailsFields values={values} set={set} errors={errors} timeZone={timeZone} withAmount={!editing?.statement} />
      {editing?.transactionState === 'Pending' && (
        <Alert color="blue" icon={<IconInfoCircle />}>
          This request is scheduled. Saving keeps it scheduled; Send now sends it at once.
        </Alert>
      )}
      <RequestSubmitButtons
        disabled={!access.allowed}
        pendingMode={save.isPending ? (save.variables?.body.mode ?? null) : null}
        withDraft={editing?.transactionState !== 'Pending'}
        onSubmit={submit}
      />
    </RequestFormFrame>
  );
}
