import { Alert, Anchor, Avatar, Button, Divider, Group, Paper, PasswordInput, SegmentedControl, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertCircle, IconBuildingBank, IconBuildingStore, IconCircleCheck, IconCreditCard } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { formatDay, formatMoney, isValidRoutingNumber, parseMoney, type PaymentOutcome, type PublicPayPage } from '@tay/contract';
import { PageLoader } from '../../../components/ui/page-loader';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { tokenizeBankAccount, useDecline, usePay, usePayPage } from '../api/pay-api';
import { attemptAfter, startAttempt, type PaymentAttempt } from '../api/payment-attempt';
import { CardField, type CardFieldHandle } from '../components/card-field';
import { DeclineDialog } from '../components/decline-dialog';
import { PayInvoice } from '../components/pay-invoice';
import { payHeadline } from '../pay-headline';

/** /pay/:token — the hosted payment page: no sign-in, reached from the link in the e-mail. */
export function PayPage() {
  const { token = '' } = useParams();
  const page = usePayPage(token);
  useDocumentTitle(page.data ? `Pay ${page.data.businessName}` : 'Payment');
  // A failed re-read (a dropped connection) keeps what the payer already sees.
  if (page.data) return <PayView token={token} data={page.data} />;
  if (page.isPending) return <PageLoader label="Loading the payment" />;
  return (
    <Paper withBorder p="xl" radius="md">
      <Stack align="center" ta="center">
        <IconAlertCircle size={40} color="var(--mantine-color-orange-6)" aria-hidden="true" />
        <Title order={1} fz="xl">
          This link does not work
        </Title>
        <Text c="dimmed">{page.error?.message ?? 'The payment could not be loaded.'}</Text>
      </Stack>
    </Paper>
  );
}

function Summary({ data }: { data: PublicPayPage }) {
  const headline = payHeadline(data);
  return (
    <Stack gap="sm">
      <Group>
        <Avatar src={data.businessLogoUrl} alt={`${data.businessName} logo`} size={48} radius="md" color="blue">
          <IconBuildingStore size={24} aria-hidden="true" />
        </Avatar>
        <div>
          <Text fw={700}>{data.businessName}</Text>
          <Text size="sm" c="dimmed">
            requests a payment from {data.payerName} · {data.referenceNumber}
          </Text>
        </div>
      </Group>
      <Title order={1} fz={36}>
        {headline.title}
      </Title>
      {headline.caption && (
        <Text size="sm" c="dimmed">
          {headline.caption}
        </Text>
      )}
      {data.memo && <Text>{data.memo}</Text>}
      <Text size="sm" c="dimmed">
        Due {formatDay(data.dueDate)}
        {data.allowPartial ? ' · You may pay part of it now' : ''}
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
      {outcome && <OutcomeNotice token={token} outcome={outcome} />}
      {data.status === 'payable' ? (
        <PaymentForm token={token} data={data} onOutcome={setOutcome} />
      ) : (
        !outcome && (
          <Alert
            color={data.status === 'paid' ? 'teal' : data.status === 'processing' ? 'blue' : 'gray'}
            title={statusTitle(data)}
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

function statusTitle(data: PublicPayPage): string {
  switch (data.status) {
    case 'paid':
      return 'Paid in full';
    case 'processing':
      return 'Payment in progress';
    case 'expired':
      return 'This request has expired';
    case 'withdrawn':
      return 'This request was withdrawn';
    case 'cancelled':
      return 'This request was cancelled';
    case 'declined':
      return 'You declined this request';
    default:
      return 'Payment not available';
  }
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

function PaymentForm({ token, data, onOutcome }: { token: string; data: PublicPayPage; onOutcome: (o: PaymentOutcome) => void }) {
  const [method, setMethod] = useState<'card' | 'bank_account'>('card');
  const [amount, setAmount] = useState((data.remainingCents / 100).toFixed(2));
  const [routing, setRouting] = useState('');
  const [account, setAccount] = useState('');
  const [confirmAccount, setConfirmAccount] = useState('');
  const [holder, setHolder] = useState(data.payerName);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [tokenizing, setTokenizing] = useState(false);
  const [declining, setDeclining] = useState(false);
  // A try whose answer never came: the next submit sends it again unchanged (see payment-attempt).
  const [unresolved, setUnresolved] = useState<{ attempt: PaymentAttempt; message: string } | null>(null);
  const card = useRef<CardFieldHandle>(null);
  const pay = usePay(token);
  const decline = useDecline(token);

  const cents = data.allowPartial ? parseMoney(amount) : data.remainingCents;

  const send = (attempt: PaymentAttempt) => {
    setFailure(null);
    pay.mutate(attempt, {
      onSuccess: (outcome) => {
        setUnresolved(null);
        if (outcome.payment.state === 'Rejected') {
          setFailure(outcome.payment.failureReason ?? 'The payment was declined. Try another card or a bank account.');
          return;
        }
        onOutcome(outcome);
      },
      onError: (error) => {
        const again = attemptAfter(attempt, { error });
        setUnresolved(again ? { attempt: again, message: error.message } : null);
        if (!again) setFailure(error.message);
      },
    });
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (unresolved) {
      send(unresolved.attempt);
      return;
    }
    const next: Record<string, string> = {};
    if (cents === null || cents <= 0) next.amount = 'Enter an amount above $0.00.';
    else if (cents > data.remainingCents) next.amount = `You can pay at most ${formatMoney(data.remainingCents)}.`;
    if (method === 'bank_account') {
      if (!isValidRoutingNumber(routing)) next.routing = 'Enter the 9-digit routing number from your cheque.';
      if (!/^\d{4,17}$/.test(account)) next.account = 'Enter your account number: 4 to 17 digits.';
      else if (account !== confirmAccount) next.confirmAccount = 'The account numbers do not match.';
      if (!holder.trim()) next.holder = 'Enter the name on the account.';
    }
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    setFailure(null);
    setTokenizing(true);
    let instrument: { token: string; label: string };
    try {
      instrument =
        method === 'card'
          ? await card.current!.tokenize()
          : await tokenizeBankAccount({ routingNumber: routing, accountNumber: account, accountHolderName: holder.trim() });
    } catch (error) {
      setFailure((error as Error).message);
      setTokenizing(false);
      return;
    }
    setTokenizing(false);
    send(startAttempt(method, instrument, cents!));
  };

  const payLabel = unresolved
    ? `Try again: pay ${formatMoney(unresolved.attempt.body.amountCents)}`
    : `Pay ${cents !== null && cents > 0 ? formatMoney(Math.min(cents, data.remainingCents)) : ''}`;

  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md" component="form" onSubmit={(e) => void submit(e)} noValidate>
      <Stack gap="md">
        {unresolved ? (
          <Alert color="yellow" icon={<IconAlertCircle />} title="We could not confirm your payment" role="alert">
            <Text size="sm">
              {unresolved.message} Your payment of {formatMoney(unresolved.attempt.body.amountCents)} with {unresolved.attempt.instrumentLabel} may have gone
              through. Try again to send the very same payment: if it went through, you are not charged twice.
            </Text>
          </Alert>
        ) : (
          <SegmentedControl
            fullWidth
            value={method}
            onChange={(v) => setMethod(v as 'card' | 'bank_account')}
            data={[
              {
                value: 'card',
                label: (
                  <Group gap={6} justify="center">
                    <IconCreditCard size={16} />
                    Card
                  </Group>
                ),
              },
              {
                value: 'bank_account',
                label: (
                  <Group gap={6} justify="center">
                    <IconBuildingBank size={16} />
                    Bank account
                  </Group>
                ),
              },
            ]}
            aria-label="Payment method"
          />
        )}
        {failure && (
          <Alert color="red" icon={<IconAlertCircle />} title="The payment did not go through" role="alert">
            {failure}
          </Alert>
        )}
        {!unresolved && data.allowPartial && (
          <TextInput
            label="Amount to pay (USD)"
            description={`Up to ${formatMoney(data.remainingCents)}`}
            leftSection="$"
            inputMode="decimal"
            value={amount}
            onChange={(e) => setAmount(e.currentTarget.value)}
            error={errors.amount}
          />
        )}
        {unresolved ? null : method === 'card' ? (
          <CardField ref={card} />
        ) : (
          <Stack gap="sm">
            <TextInput
              label="Name on the account"
              value={holder}
              onChange={(e) => setHolder(e.currentTarget.value)}
              error={errors.holder}
              autoComplete="name"
            />
            <TextInput
              label="Routing number"
              inputMode="numeric"
              maxLength={9}
              value={routing}
              onChange={(e) => setRouting(e.currentTarget.value.replace(/\D/g, ''))}
              error={errors.routing}
              autoComplete="off"
            />
            <PasswordInput
              label="Account number"
              inputMode="numeric"
              maxLength={17}
              value={account}
              onChange={(e) => setAccount(e.currentTarget.value.replace(/\D/g, ''))}
              error={errors.account}
              autoComplete="off"
            />
            <TextInput
              label="Confirm account number"
              inputMode="numeric"
              maxLength={17}
              value={confirmAccount}
              onChange={(e) => setConfirmAccount(e.currentTarget.value.replace(/\D/g, ''))}
              onPaste={(e) => e.preventDefault()}
              error={errors.confirmAccount}
              autoComplete="off"
            />
            <Text size="xs" c="dimmed">
              Your bank details go to our payment processor, not to {data.businessName}.
            </Text>
          </Stack>
        )}
        <Button type="submit" size="md" loading={tokenizing || pay.isPending} fullWidth>
          {payLabel}
        </Button>
        {data.declinable && !unresolved && (
          <>
            <Divider />
            <Group justify="center">
              <Button variant="subtle" color="gray" onClick={() => setDeclining(true)}>
                Decline this request
              </Button>
            </Group>
            <DeclineDialog
              opened={declining}
              businessName={data.businessName}
              onClose={() => setDeclining(false)}
              onDecline={(reason) => decline.mutateAsync(reason)}
            />
          </>
        )}
      </Stack>
    </Paper>
  );
}
