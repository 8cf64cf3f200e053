import { Alert, Anchor, Button, Divider, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconBuildingBank, IconCircleCheck } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { Link, useParams } from 'react-router';
import {
  formatMoney,
  PAYER_PAGE_PROBLEMS,
  payDueLine,
  payHeadline,
  payRefundLine,
  payStatusTitle,
  type PaymentOutcome,
  type PublicPayPage,
} from '@tay/contract';
import { PageLoader } from '../../../components/ui/page-loader';
import { useLeaveFirstScreen } from '../../../lib/first-screen';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useDecline, usePay, usePayPage } from '../api/pay-api';
import { PublicBusinessHeader as BusinessHeader, PublicProblem as PayProblem } from '../../../components/public/public-page-parts';
import { PayInvoice } from '../components/pay-invoice';
import { PaymentForm } from '../components/payment-form';
import { MoneyInput } from '../../../components/ui/money-input';
import { wrapAnywhere } from '../../../components/ui/wrap-anywhere';
import { readTypedAmount } from '../qr-amount';
import { StatementLines } from '../../../components/payments/statement-lines';

/** Loaded when the payer first asks to decline: most never do, and its dialog and rule are not the page's first work. */
const DeclineDialog = lazy(() => import('../components/decline-dialog').then((m) => ({ default: m.DeclineDialog })));

/** /pay/:token — the hosted payment page: no sign-in, reached from the link in the e-mail. */
export function PayPage() {
  const { token = '' } = useParams();
  const page = usePayPage(token);
  useDocumentTitle(page.data ? `Pay ${page.data.businessName}` : 'Payment');
  useLeaveFirstScreen(!page.isPending);
  // A failed re-read (a dropped connection) keeps what the payer already sees.
  if (page.data) return <PayView token={token} data={page.data} />;
  if (page.isPending) return <PageLoader label="Loading the payment" />;
  return <PayProblem title={PAYER_PAGE_PROBLEMS.payLink}>{page.error?.message ?? 'The payment could not be loaded.'}</PayProblem>;
}

function Summary({ data }: { data: PublicPayPage }) {
  const headline = payHeadline(data);
  const refund = payRefundLine(data);
  return (
    <Stack gap="sm">
      <BusinessHeader name={data.businessName} logoUrl={data.businessLogoUrl}>
        requests a payment from {data.payerName} · {data.referenceNumber}
      </BusinessHeader>
      <Title order={1} fz={36}>
        {headline.title}
      </Title>
      {headline.caption && (
        <Text size="sm" c="dimmed">
          {headline.caption}
        </Text>
      )}
      {refund && <Text fw={500}>{refund}</Text>}
      {data.forStudent && (
        <Text fw={500} style={wrapAnywhere}>
          {data.forStudent}
        </Text>
      )}
      {data.forPatient && (
        <Text fw={500} style={wrapAnywhere}>
          {data.forPatient}
        </Text>
      )}
      {data.memo && <Text style={{ ...wrapAnywhere, whiteSpace: 'pre-line' }}>{data.memo}</Text>}
      <Text size="sm" c="dimmed">
        {payDueLine(data)}
      </Text>
    </Stack>
  );
}

function PayView({ token, data }: { token: string; data: PublicPayPage }) {
  const [outcome, setOutcome] = useState<PaymentOutcome | null>(null);
  const processed = data.payments.filter((p) => p.state === 'Processed');

  return (
    <Stack gap="lg">
      <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md">
        <Summary data={data} />
      </Paper>
      {data.invoice && <PayInvoice invoice={data.invoice} memo={data.memo} token={token} />}
      {data.statement && (
        <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md" component="section" aria-labelledby="pay-statement-title">
          <Stack gap="sm">
            <Title order={2} fz="lg" id="pay-statement-title">
              Your statement
            </Title>
            <StatementLines statement={data.statement} caption="Lines of your statement" />
          </Stack>
        </Paper>
      )}
      {outcome && <OutcomeNotice token={token} outcome={outcome} />}
      {data.status === 'payable' ? (
        <PayForm token={token} data={data} onOutcome={setOutcome} />
      ) : (
        !outcome && (
          <Alert
            color={data.status === 'paid' ? 'teal' : data.status === 'processing' ? 'blue' : 'gray'}
            title={payStatusTitle(data)}
            icon={data.status === 'paid' ? <IconCircleCheck /> : <IconAlertCircle />}
          >
            {data.statusMessage}
          </Alert>
        )
      )}
      {processed.length > 0 && (
        <Paper withBorder p="md" radius="md">
          <Text fw={600} mb="xs">
            Your payments
          </Text>
          <Stack gap={4}>
            {processed.map((p) => (
              <Group key={p.paymentId} justify="space-between">
                <Text size="sm">
                  {formatMoney(p.amountCents)} · {p.instrument}
                  {p.refundedCents > 0 && ` · ${formatMoney(p.refundedCents)} refunded`}
                </Text>
                <Anchor component={Link} to={`/pay/${encodeURIComponent(token)}/receipt/${encodeURIComponent(p.paymentId)}`} size="sm">
                  Receipt
                </Anchor>
              </Group>
            ))}
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}

function OutcomeNotice({ token, outcome }: { token: string; outcome: PaymentOutcome }) {
  const { payment } = outcome;
  if (payment.state === 'Rejected') return null;
  if (payment.state === 'Pending') {
    return (
      <Alert color="blue" icon={<IconBuildingBank />} title="Bank payment submitted">
        Your bank transfer of {formatMoney(payment.amountCents)} from {payment.instrument} is being processed. We will e-mail your receipt when it completes.
      </Alert>
    );
  }
  return (
    <Alert color="teal" icon={<IconCircleCheck />} title="Payment received">
      <Stack gap={4}>
        <Text size="sm">
          {formatMoney(payment.amountCents)} paid with {payment.instrument}.{' '}
          {outcome.remainingCents > 0 ? `${formatMoney(outcome.remainingCents)} remains to pay.` : 'Nothing remains to pay.'} A receipt is on its way to your
          e-mail.
        </Text>
        <Anchor component={Link} to={`/pay/${encodeURIComponent(token)}/receipt/${encodeURIComponent(payment.paymentId)}`} size="sm">
          View your receipt
        </Anchor>
      </Stack>
    </Alert>
  );
}

function PayForm({ token, data, onOutcome }: { token: string; data: PublicPayPage; onOutcome: (o: PaymentOutcome) => void }) {
  const [amount, setAmount] = useState((data.remainingCents / 100).toFixed(2));
  const [amountError, setAmountError] = useState<string | null>(null);
  const [declining, setDeclining] = useState(false);
  const [declineAsked, setDeclineAsked] = useState(false);
  const pay = usePay(token);
  const decline = useDecline(token);

  // What the payer typed, read as the QR page reads it: nothing or unreadable text ("1.005",
  // "twelve") is told how to write an amount, not that it is too small.
  const typed = data.allowPartial ? readTypedAmount(amount) : { cents: data.remainingCents };
  const cents = 'cents' in typed ? typed.cents : null;

  const prepare = () => {
    let error: string | null = null;
    if ('error' in typed) error = typed.error;
    else if (typed.cents <= 0) error = 'Enter an amount above $0.00.';
    else if (typed.cents > data.remainingCents) error = `You can pay at most ${formatMoney(data.remainingCents)}.`;
    setAmountError(error);
    return error === null && cents !== null ? { amountCents: cents } : null;
  };

  return (
    <PaymentForm
      businessName={data.businessName}
      holderName={data.payerName}
      amountCents={cents !== null && cents > 0 ? Math.min(cents, data.remainingCents) : null}
      prepare={prepare}
      send={(attempt) => pay.mutateAsync(attempt)}
      onOutcome={(outcome) => {
        if (outcome.payment.state === 'Rejected') return outcome.payment.failureReason ?? 'The payment was declined. Try another card or a bank account.';
        onOutcome(outcome);
        return null;
      }}
      fields={
        data.allowPartial && (
          <MoneyInput
            label="Amount to pay (USD)"
            description={`Up to ${formatMoney(data.remainingCents)}`}
            value={amount}
            onValueChange={setAmount}
            error={amountError}
          />
        )
      }
      footer={
        data.declinable && (
          <>
            <Divider />
            <Group justify="center">
              <Button
                variant="subtle"
                color="gray"
                onClick={() => {
                  setDeclineAsked(true);
                  setDeclining(true);
                }}
              >
                Decline this request
              </Button>
            </Group>
            {declineAsked && (
              <Suspense fallback={null}>
                <DeclineDialog
                  opened={declining}
                  businessName={data.businessName}
                  onClose={() => setDeclining(false)}
                  onDecline={(reason) => decline.mutateAsync(reason)}
                />
              </Suspense>
            )}
          </>
        )
      }
    />
  );
}
