import { Alert, Button, Group, Paper, PasswordInput, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle, IconBuildingBank, IconCreditCard } from '@tabler/icons-react';
import { useRef, useState, type ReactNode } from 'react';
import { formatMoney, isValidRoutingNumber, type PaymentMethod } from '@tay/contract';
import { tokenizeBankAccount } from '../api/pay-api';
import { attemptAfter, startAttempt, type PaymentAttempt, type PaymentBody } from '../api/payment-attempt';
import { CardField, type CardFieldHandle } from './card-field';

/** What a page adds to the method and token: the amount, and any details it asks the payer for. */
export type BodyRest = { amountCents: number };

export interface PaymentFormProps<R extends BodyRest, O> {
  /** Named in the note under the bank fields: the bank details go to the processor, not to them. */
  businessName: string;
  /** What "Name on the account" reads until the payer changes it (the name they gave the page). */
  holderName?: string;
  /** The page's own fields above the choice of method (a QR code's amount and the payer's details). */
  leading?: ReactNode;
  /** The page's own fields between the choice of method and the card or bank details (the pay page's amount). */
  fields?: ReactNode;
  /** The amount the button names, as typed so far; null while there is none. */
  amountCents: number | null;
  /**
   * Checks the page's own fields, showing their errors, and gives the rest of the body; null when
   * one is wrong. Called on every submit, beside the check of the bank details; it may first load
   * the rules it checks with.
   */
  prepare: () => R | null | Promise<R | null>;
  /** Sends one attempt; resolves with the answer, or rejects with the API's error. */
  send: (attempt: PaymentAttempt<PaymentBody & R>) => Promise<O>;
  /**
   * A definitive answer, with the attempt it answers (what was sent): why the payment was declined
   * (the form stays, to try again), or null when the page moves on.
   */
  onOutcome: (outcome: O, attempt: PaymentAttempt<PaymentBody & R>) => string | null;
  /** A definitive refusal (a 4xx), once the form shows its message: the page may mark its own fields. */
  onRefused?: (error: unknown) => void;
  /** Under the button, while no attempt waits to be sent again (the pay page's Decline). */
  footer?: ReactNode;
}

/**
 * The payment part of a payer's page: card (the processor's hosted field) or bank account, and
 * the Pay button. One submit is one attempt (ADR 012): the details are tokenized in the browser,
 * the body is sent under a new Idempotency-Key, and when its answer is unknown the attempt is kept
 * and "Try again" sends it unchanged, with the fields hidden, so money moves once.
 */
export function PaymentForm<R extends BodyRest, O>({
  businessName,
  holderName = '',
  leading,
  fields,
  amountCents,
  prepare,
  send,
  onOutcome,
  onRefused,
  footer,
}: PaymentFormProps<R, O>) {
  const [method, setMethod] = useState<PaymentMethod>('card');
  const [routing, setRouting] = useState('');
  const [account, setAccount] = useState('');
  const [confirmAccount, setConfirmAccount] = useState('');
  const [typedHolder, setHolder] = useState<string | null>(null);
  const holder = typedHolder ?? holderName;
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [tokenizing, setTokenizing] = useState(false);
  const [sending, setSending] = useState(false);
  // A try whose answer never came: the next submit sends it again unchanged (see payment-attempt).
  const [unresolved, setUnresolved] = useState<{ attempt: PaymentAttempt<PaymentBody & R>; message: string } | null>(null);
  const card = useRef<CardFieldHandle>(null);

  const sendAttempt = async (attempt: PaymentAttempt<PaymentBody & R>) => {
    setFailure(null);
    setSending(true);
    try {
      const outcome = await send(attempt);
      setUnresolved(null);
      setFailure(onOutcome(outcome, attempt));
    } catch (error) {
      const again = attemptAfter(attempt, { error });
      const message = error instanceof Error ? error.message : 'The payment could not be sent.';
      setUnresolved(again ? { attempt: again, message } : null);
      if (!again) {
        setFailure(message);
        onRefused?.(error);
      }
    } finally {
      setSending(false);
    }
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (unresolved) {
      await sendAttempt(unresolved.attempt);
      return;
    }
    const rest = await prepare();
    const next: Record<string, string> = {};
    if (method === 'bank_account') {
      if (!isValidRoutingNumber(routing)) next.routing = 'Enter the 9-digit routing number from your cheque.';
      if (!/^\d{4,17}$/.test(account)) next.account = 'Enter your account number: 4 to 17 digits.';
      else if (account !== confirmAccount) next.confirmAccount = 'The account numbers do not match.';
      if (!holder.trim()) next.holder = 'Enter the name on the account.';
    }
    setErrors(next);
    if (rest === null || Object.keys(next).length > 0) return;
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
    await sendAttempt(startAttempt(method, instrument, rest.amountCents, undefined, rest));
  };

  const payLabel = unresolved
    ? `Try again: pay ${formatMoney(unresolved.attempt.body.amountCents)}`
    : amountCents !== null && amountCents > 0
      ? `Pay ${formatMoney(amountCents)}`
      : 'Pay';

  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md" component="form" onSubmit={(e) => void submit(e)} noValidate>
      <Stack gap="md">
        {!unresolved && leading}
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
            onChange={(v) => setMethod(v as PaymentMethod)}
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
        {!unresolved && fields}
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
              Your bank details go to our payment processor, not to {businessName}.
            </Text>
          </Stack>
        )}
        <Button type="submit" size="md" loading={tokenizing || sending} fullWidth>
          {payLabel}
        </Button>
        {!unresolved && footer}
      </Stack>
    </Paper>
  );
}
