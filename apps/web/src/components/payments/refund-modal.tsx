import { Button, Group, Modal, Select, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import {
  formatMoney,
  parseMoney,
  paymentRequestEndpoints,
  REFUND_REASON_LABELS,
  REFUND_REASONS,
  refundEndpoints,
  type CreateRefundBody,
  type PaymentSummary,
  type RefundReason,
} from '@tay/contract';
import { requestsKey, invoicesKey, studentBillingKey, patientsKey } from '../../lib/area-keys';
import { balancesKey } from '../../lib/balances';
import { useBusinessMutation } from '../../lib/business-mutation';
import { callForData, endpointQuery } from '../../lib/endpoint-client';
import { useIdempotentCommand } from '../../lib/idempotency-keys';
import { useBusinessId } from '../../lib/session';
import { LoadError } from '../ui/load-error';
import { MoneyInput } from '../ui/money-input';
import { PageLoader } from '../ui/page-loader';

const REASON_OPTIONS = REFUND_REASONS.map((value) => ({ value, label: REFUND_REASON_LABELS[value] }));

/** What is still refundable of a payment: received, less what was refunded. */
export const paymentRefundable = (p: PaymentSummary) => (p.state === 'Processed' ? Math.max(0, p.amountCents - p.refundedCents) : 0);

/**
 * Refunds a payment of a request (ADR 051). The intent (the request and the whole body) picks the
 * Idempotency-Key, so a retry after a lost answer refunds once; a refund above the business's
 * confirmation limit is asked again with the amount in words by the endpoint client, as every
 * money-moving call is. Everything a refund changes is read again: the request's lists and
 * details (the refunds are of the same area), its invoice, a student's or patient's balance, and the balances.
 */
function useCreateRefund() {
  const keyed = useIdempotentCommand();
  return useBusinessMutation(
    (id, { requestId, body }: { requestId: string; body: CreateRefundBody }) =>
      keyed(['refund', requestId, body], (headers) => callForData(refundEndpoints.create, { params: { id, requestId }, body, headers })),
    (businessId) => [requestsKey(businessId), invoicesKey(businessId), studentBillingKey(businessId), patientsKey(businessId), balancesKey(businessId)],
    { afterSuccessOnly: true },
  );
}

/**
 * The Refund dialog of a request, wherever it is offered (the history's rows, the request's
 * details, an invoice's details): which payment (when it was paid in several), the amount —
 * what is still refundable unless changed — the reason and a note. The API decides who may
 * refund and how much; its refusal is shown here, field by field.
 */
export function RefundModal({ requestId, onClose }: { requestId: string | null; onClose: () => void }) {
  const businessId = useBusinessId();
  const detail = useQuery({
    ...endpointQuery(paymentRequestEndpoints.get, { params: { id: businessId ?? '', requestId: requestId ?? '' } }),
    enabled: Boolean(businessId && requestId),
  });
  const r = detail.data;
  return (
    <Modal opened={Boolean(requestId)} onClose={onClose} title={r ? `Refund ${r.referenceNumber}` : 'Refund'} size="md">
      {detail.error ? (
        <LoadError title="We could not load this request" error={detail.error} onRetry={() => void detail.refetch()} />
      ) : !r || !requestId ? (
        <PageLoader />
      ) : (
        // A new form for each request: its amount starts at what that one can refund.
        <RefundForm key={requestId} requestId={requestId} referenceNumber={r.referenceNumber} payerName={r.payerName} payments={r.payments} onDone={onClose} />
      )}
    </Modal>
  );
}

function RefundForm({
  requestId,
  referenceNumber,
  payerName,
  payments,
  onDone,
}: {
  requestId: string;
  referenceNumber: string;
  payerName: string;
  payments: readonly PaymentSummary[];
  onDone: () => void;
}) {
  const refundable = payments.filter((p) => paymentRefundable(p) > 0);
  const [paymentId, setPaymentId] = useState<string | null>(refundable[0]?.paymentId ?? null);
  const payment = refundable.find((p) => p.paymentId === paymentId) ?? null;
  const [amount, setAmount] = useState(payment ? (paymentRefundable(payment) / 100).toFixed(2) : '');
  const [reason, setReason] = useState<RefundReason | null>(null);
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const create = useCreateRefund();

  if (refundable.length === 0) {
    return (
      <Stack>
        <Text size="sm">Nothing of {referenceNumber} is left to refund: every payment received was refunded, or none was received yet.</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Close
          </Button>
        </Group>
      </Stack>
    );
  }

  const choose = (id: string | null) => {
    setPaymentId(id);
    const next = refundable.find((p) => p.paymentId === id);
    if (next) setAmount((paymentRefundable(next) / 100).toFixed(2));
  };

  const submit = () => {
    const cents = parseMoney(amount);
    const left = payment ? paymentRefundable(payment) : 0;
    const found: Record<string, string> = {};
    if (!payment) found.paymentId = 'Choose the payment to refund.';
    if (cents === null || cents <= 0) found.amountCents = 'Enter the amount to refund, such as 25.00.';
    else if (cents > left) found.amountCents = `At most ${formatMoney(left)} of this payment can be refunded.`;
    if (!reason) found.reason = 'Choose why you are refunding.';
    setErrors(found);
    if (Object.keys(found).length > 0 || !payment || cents === null || !reason) return;
    const body: CreateRefundBody = { paymentId: payment.paymentId, amountCents: cents, reason, ...(note.trim() ? { note: note.trim() } : {}) };
    create.mutate(
      { requestId, body },
      {
        onSuccess: (refund) => {
          notifications.show({
            color: refund.state === 'Failed' ? 'red' : 'teal',
            title: refund.state === 'Failed' ? 'Refund failed' : refund.state === 'Pending' ? 'Refund on its way' : 'Refunded',
            message:
              refund.state === 'Failed'
                ? (refund.failureReason ?? 'The processor could not refund the payment; the money is back in your balance.')
                : `${formatMoney(refund.amountCents)} to ${refund.instrument} for ${referenceNumber}.`,
          });
          onDone();
        },
        onError: (error) => {
          const fields = (error as { fields?: Record<string, string> }).fields ?? {};
          setErrors(fields);
          if (Object.keys(fields).length === 0 || fields.confirmedAmountCents) {
            notifications.show({ color: 'red', title: 'Not refunded', message: error.message });
          }
        },
      },
    );
  };

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
      noValidate
    >
      <Stack>
        <Text size="sm">The money leaves your balance and goes back to {payerName} the way they paid.</Text>
        {refundable.length > 1 ? (
          <Select
            label="Payment"
            data={refundable.map((p) => ({
              value: p.paymentId,
              label: `${p.instrument} — ${formatMoney(p.amountCents)}${p.refundedCents > 0 ? `, ${formatMoney(p.refundedCents)} refunded` : ''}`,
            }))}
            value={paymentId}
            onChange={choose}
            error={errors.paymentId}
            allowDeselect={false}
            required
          />
        ) : (
          payment && (
            <Text size="sm">
              Payment: {payment.instrument}, {formatMoney(payment.amountCents)}
              {payment.refundedCents > 0 ? ` (${formatMoney(payment.refundedCents)} refunded already)` : ''}
            </Text>
          )
        )}
        <MoneyInput
          label="Amount to refund"
          description={payment ? `Up to ${formatMoney(paymentRefundable(payment))}` : undefined}
          value={amount}
          onValueChange={setAmount}
          error={errors.amountCents}
          required
          data-autofocus
        />
        <Select
          label="Reason"
          placeholder="Choose a reason"
          data={REASON_OPTIONS}
          value={reason}
          onChange={(v) => setReason(v as RefundReason | null)}
          error={errors.reason}
          required
        />
        <Textarea
          label="Note"
          description="For your records; the payer does not see it"
          autosize
          minRows={2}
          maxLength={500}
          value={note}
          onChange={(e) => setNote(e.currentTarget.value)}
          error={errors.note}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" color="red" loading={create.isPending}>
            Refund {parseMoney(amount) ? formatMoney(parseMoney(amount)!) : ''}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
