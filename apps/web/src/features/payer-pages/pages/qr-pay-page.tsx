import { Alert, Anchor, Box, Button, Group, Paper, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { IconAlertCircle, IconBuildingBank, IconCircleCheck, IconCircleX } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import {
  formatMoney,
  getHref,
  parseMoney,
  paths,
  PAYER_PAGE_PROBLEMS,
  QR_NOT_PAYABLE,
  QR_STATUS_TITLES,
  qrPayable,
  type PublicQrPage,
  type QrAsk,
  type QrPaymentOutcome,
} from '@tay/contract';
import { LoadError } from '../../../components/ui/load-error';
import { PageLoader } from '../../../components/ui/page-loader';
import { ApiError } from '../../../lib/api-client';
import { useLeaveFirstScreen } from '../../../lib/first-screen';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { payerEndpoints } from '../api/payer-endpoints';
import { qrPageKey, useQrPage, useQrPay } from '../api/qr-pay-api';
import { PublicBusinessHeader as BusinessHeader, PublicProblem as PayProblem } from '../../../components/public/public-page-parts';
import { PaymentForm } from '../components/payment-form';
import { checkQrAmount, qrAmountHelp } from '../qr-amount';
import { MoneyInput } from '../../../components/ui/money-input';
import { wrapAnywhere } from '../../../components/ui/wrap-anywhere';

/** /pay/qr/:code — what a printed QR code opens: no sign-in; each payment makes a request of its own. */
export function QrPayPage() {
  const { code = '' } = useParams();
  const page = useQrPage(code);
  useDocumentTitle(page.data ? `Pay ${page.data.businessName}` : 'Payment');
  useLeaveFirstScreen(!page.isPending);
  // A failed re-read (a dropped connection) keeps what the payer already sees.
  if (page.data) return <QrView code={code} data={page.data} />;
  if (page.isPending) return <PageLoader label="Loading the payment" />;
  if (page.error instanceof ApiError && page.error.status === 404) {
    return <PayProblem title={PAYER_PAGE_PROBLEMS.qrCode}>{PAYER_PAGE_PROBLEMS.qrCodeText}</PayProblem>;
  }
  return <LoadError title="This payment page could not be loaded" error={page.error} onRetry={() => void page.refetch()} />;
}

function QrView({ code, data }: { code: string; data: PublicQrPage }) {
  const [paid, setPaid] = useState<{ outcome: QrPaymentOutcome; email: string | null } | null>(null);
  const payable = qrPayable(data);

  return (
    <Stack gap="lg">
      <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md">
        <Stack gap="sm">
          <BusinessHeader name={data.businessName} logoUrl={data.businessLogoUrl}>
            asks for a payment by QR code
          </BusinessHeader>
          <Title order={1} fz={28} style={wrapAnywhere}>
            {data.label}
          </Title>
          {data.memo && <Text style={{ ...wrapAnywhere, whiteSpace: 'pre-line' }}>{data.memo}</Text>}
          {payable && data.amountMode === 'fixed' && data.amountCents !== null && (
            <div>
              <Text size="sm" c="dimmed">
                Amount
              </Text>
              <Text fz={36} fw={700} lh={1.2}>
                {formatMoney(data.amountCents)}
              </Text>
            </div>
          )}
        </Stack>
      </Paper>
      {paid ? (
        <QrOutcome outcome={paid.outcome} email={paid.email} businessName={data.businessName} />
      ) : payable ? (
        <QrForm code={code} data={data} onPaid={(outcome, email) => setPaid({ outcome, email })} />
      ) : (
        <Alert color="gray" icon={<IconAlertCircle />} title={data.status === 'payable' ? QR_STATUS_TITLES.unavailable : QR_STATUS_TITLES[data.status]}>
          {data.statusMessage ?? QR_NOT_PAYABLE}
        </Alert>
      )}
    </Stack>
  );
}

/** The payer's details a code may ask for, in the body's own names (the API's 422 names them so). */
type Detail = 'payerName' | 'payerEmail' | 'payerPhone' | 'note';
type Field = 'amountCents' | Detail;
type QrBodyRest = { amountCents: number } & Partial<Record<Detail, string>>;
/** The API's own rules for a QR payment's body, loaded with the endpoints (ADR 049). */
type QrPaymentRules = Awaited<ReturnType<typeof payerEndpoints>>['QrPaymentBody'];

const DETAILS: { key: Detail; ask: keyof PublicQrPage['ask']; missing: string }[] = [
  { key: 'payerName', ask: 'name', missing: 'Enter your name.' },
  { key: 'payerEmail', ask: 'email', missing: 'Enter your e-mail address.' },
  { key: 'payerPhone', ask: 'phone', missing: 'Enter your phone number.' },
  { key: 'note', ask: 'note', missing: 'Write a note for the business.' },
];

const FIELDS = new Set<string>(['amountCents', ...DETAILS.map((d) => d.key)]);

/** A detail as typed, checked with the API's own rule (`QrPaymentBody`): its value to send, or why not. */
function checkDetail(rules: QrPaymentRules, key: Detail, ask: QrAsk, text: string, missing: string): { value?: string } | { error: string } {
  if (ask === 'off') return {};
  if (!text.trim()) return ask === 'required' ? { error: missing } : {};
  const parsed = rules.shape[key].safeParse(text);
  if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? 'Check this field.' };
  return { value: parsed.data };
}

function QrForm({ code, data, onPaid }: { code: string; data: PublicQrPage; onPaid: (outcome: QrPaymentOutcome, email: string | null) => void }) {
  const [amount, setAmount] = useState('');
  const [details, setDetails] = useState<Record<Detail, string>>({ payerName: '', payerEmail: '', payerPhone: '', note: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const pay = useQrPay(code);
  const queryClient = useQueryClient();

  const open = data.amountMode === 'open';
  const typed = open ? checkQrAmount(amount, data) : null;
  const cents = open ? (typed && 'cents' in typed ? typed.cents : null) : data.amountCents;
  // The button names what is typed, even out of bounds: the field's error says why it cannot be paid.
  const shown = open ? parseMoney(amount) : data.amountCents;

  const prepare = async (): Promise<QrBodyRest | null> => {
    const { QrPaymentBody: rules } = await payerEndpoints();
    const next: Partial<Record<Field, string>> = {};
    const rest: QrBodyRest = { amountCents: cents ?? 0 };
    if (typed && 'error' in typed) next.amountCents = typed.error;
    for (const { key, ask, missing } of DETAILS) {
      const checked = checkDetail(rules, key, data.ask[ask], details[key], missing);
      if ('error' in checked) next[key] = checked.error;
      else if (checked.value !== undefined) rest[key] = checked.value;
    }
    setErrors(next);
    return Object.keys(next).length === 0 && cents !== null ? rest : null;
  };

  const change = (key: Detail) => (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    const value = event.currentTarget.value;
    setDetails((d) => ({ ...d, [key]: value }));
  };
  const required = (ask: QrAsk) => ask === 'required';

  const fields: ReactNode = (
    <>
      {open && (
        <MoneyInput
          label="Amount to pay (USD)"
          description={qrAmountHelp(data)}
          required
          autoComplete="off"
          value={amount}
          onValueChange={setAmount}
          error={errors.amountCents}
        />
      )}
      {data.ask.name !== 'off' && (
        <TextInput
          label="Your name"
          required={required(data.ask.name)}
          autoComplete="name"
          maxLength={200}
          value={details.payerName}
          onChange={change('payerName')}
          error={errors.payerName}
        />
      )}
      {data.ask.email !== 'off' && (
        <TextInput
          label="E-mail address"
          description="We e-mail your receipt here."
          required={required(data.ask.email)}
          type="email"
          autoComplete="email"
          maxLength={320}
          value={details.payerEmail}
          onChange={change('payerEmail')}
          error={errors.payerEmail}
        />
      )}
      {data.ask.phone !== 'off' && (
        <TextInput
          label="Phone number"
          required={required(data.ask.phone)}
          type="tel"
          autoComplete="tel"
          value={details.payerPhone}
          onChange={change('payerPhone')}
          error={errors.payerPhone}
        />
      )}
      {data.ask.note !== 'off' && (
        <Textarea
          label={`Note for ${data.businessName}`}
          required={required(data.ask.note)}
          rows={3}
          maxLength={500}
          value={details.note}
          onChange={change('note')}
          error={errors.note}
        />
      )}
    </>
  );

  return (
    <PaymentForm
      businessName={data.businessName}
      holderName={details.payerName}
      amountCents={shown}
      prepare={prepare}
      send={(attempt) => pay.mutateAsync(attempt)}
      onOutcome={(outcome, attempt) => {
        onPaid(outcome, attempt.body.payerEmail ?? null);
        return null;
      }}
      onRefused={(error) => {
        if (!(error instanceof ApiError)) return;
        // The API's rule said no to a field (an amount out of bounds, a detail it needs): mark it.
        const marked = Object.entries(error.fields ?? {}).filter(([key]) => FIELDS.has(key));
        if (marked.length > 0) setErrors(Object.fromEntries(marked));
        // The code was turned off or expired meanwhile: the page says so instead of the form.
        if (error.status === 409) void queryClient.invalidateQueries({ queryKey: qrPageKey(code) });
      }}
      leading={fields}
    />
  );
}

/** What paying through the code did: paid (a receipt), on its way (a bank debit), or declined (try again on the request's own page). */
function QrOutcome({ outcome, email, businessName }: { outcome: QrPaymentOutcome; email: string | null; businessName: string }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // The form the payer was in is gone: their place is this panel now.
  useEffect(() => heading.current?.focus(), []);
  const { payment, payToken, referenceNumber } = outcome;
  const requestPage = getHref(paths.payPage, { token: payToken });
  const amount = formatMoney(payment.amountCents);
  const reference = (
    <Text size="sm">
      Reference number:{' '}
      <Text span ff="monospace" fw={600}>
        {referenceNumber}
      </Text>
    </Text>
  );

  if (payment.state === 'Rejected' || outcome.transactionState === 'Error') {
    return (
      <Panel color="red" icon={<IconCircleX size={32} aria-hidden="true" />} title="Your payment was declined" headingRef={heading}>
        <Text>{payment.failureReason ?? 'The payment did not go through.'}</Text>
        <Text size="sm">Nothing was charged. You can try again with another card or a bank account.</Text>
        {reference}
        <Button component={Link} to={requestPage} fullWidth>
          Try again
        </Button>
      </Panel>
    );
  }
  if (payment.state === 'Pending') {
    return (
      <Panel color="blue" icon={<IconBuildingBank size={32} aria-hidden="true" />} title="Bank payment submitted" headingRef={heading}>
        <Text>
          Your bank transfer of {amount} from {payment.instrument} to {businessName} is being processed.
        </Text>
        {reference}
        <Text size="sm">{email ? `A receipt will be e-mailed to ${email} when it completes.` : 'It usually completes within a few days.'}</Text>
        <Anchor component={Link} to={requestPage} size="sm">
          Follow your payment
        </Anchor>
      </Panel>
    );
  }
  return (
    <Panel color="teal" icon={<IconCircleCheck size={32} aria-hidden="true" />} title="Payment received" headingRef={heading}>
      <Text>
        {amount} paid to {businessName} with {payment.instrument}.
      </Text>
      {reference}
      {email && <Text size="sm">A receipt was e-mailed to {email}.</Text>}
      <Anchor component={Link} to={getHref(paths.payReceipt, { token: payToken, paymentId: payment.paymentId })} size="sm">
        View your receipt
      </Anchor>
    </Panel>
  );
}

function Panel({
  color,
  icon,
  title,
  headingRef,
  children,
}: {
  color: string;
  icon: ReactNode;
  title: string;
  headingRef: React.RefObject<HTMLHeadingElement | null>;
  children: ReactNode;
}) {
  return (
    <Paper
      withBorder
      p={{ base: 'md', sm: 'xl' }}
      radius="md"
      component="section"
      aria-labelledby="qr-outcome-title"
      style={{ borderColor: `var(--mantine-color-${color}-6)`, borderWidth: 2 }}
    >
      <Stack gap="sm">
        <Group gap="sm" wrap="nowrap">
          <Box c={`${color}.8`} style={{ display: 'flex' }}>
            {icon}
          </Box>
          <Title order={2} fz="xl" id="qr-outcome-title" ref={headingRef} tabIndex={-1}>
            {title}
          </Title>
        </Group>
        {children}
      </Stack>
    </Paper>
  );
}
