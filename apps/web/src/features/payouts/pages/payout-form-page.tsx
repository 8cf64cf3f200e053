import { Alert, Button, Group, Modal, Select, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { formatMoney, MAX_AMOUNT_CENTS, MONEY_RULES, parseMoney, paths, type PayoutDetail, type Receiver, payoutEndpoints } from '@tay/contract';
import { LoadError } from '../../../components/ui/load-error';
import { MoneyInput } from '../../../components/ui/money-input';
import { PageLoader } from '../../../components/ui/page-loader';
import { AccessAlert } from '../../../components/ui/access-alert';
import { ApiError } from '../../../lib/api-client';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useRoleAllows, useEndpointAccess } from '../../../lib/endpoint-access';
import { useAvailableBalance, usePayout, usePayoutCommand, usePayoutSettings, useReceiverSearch, useSavePayout } from '../api/payouts-api';

/** Why a receiver cannot be chosen, or null. */
export function receiverUnavailable(r: Pick<Receiver, 'status' | 'verification'>): string | null {
  if (r.status !== 'active') return 'disabled';
  if (r.verification !== 'verified') return 'waiting for their bank account';
  return null;
}

/** The typeahead's options: every receiver found, those who cannot be paid shown disabled with why. */
export function receiverOptions(receivers: readonly Receiver[]) {
  return receivers.map((r) => {
    const why = receiverUnavailable(r);
    const name = `${r.firstName} ${r.lastName} (${r.email})`;
    return { value: r.receiverId, label: why ? `${name} — ${why}` : name, disabled: why !== null };
  });
}

/**
 * What is wrong with the amount as typed, or null. Text that cannot be read as money ("0.005",
 * "1e3", "12,50") is named as such, in the bulk upload's words; only an amount that reads as
 * $0.00 or less is asked to be above it.
 */
export function amountProblem(text: string): string | null {
  const typed = text.trim();
  if (!typed) return 'Enter the amount to pay.';
  const cents = parseMoney(typed);
  if (cents === null) return `"${typed}" is not an amount. Write it like 125.50 or $1,234.50.`;
  if (cents <= 0) return 'Enter an amount above $0.00.';
  if (cents > MAX_AMOUNT_CENTS) return 'The amount is above the $10,000,000.00 limit.';
  return null;
}

interface Errors {
  receiverId?: string;
  amountCents?: string;
  memo?: string;
  payOn?: string;
}

/**
 * /business/payouts/payment/request: a new payout; `?payoutId=` edits a Draft, or copies any other
 * payout as a new Draft. Save draft, or Submit after a confirmation showing the amount and fee.
 */
export function PayoutFormPage() {
  const [params] = useSearchParams();
  const payoutId = params.get('payoutId');
  const source = usePayout(payoutId);
  if (payoutId && source.isPending) return <PageLoader />;
  if (source.error) return <LoadError title="The payout could not be loaded" error={source.error} onRetry={() => void source.refetch()} />;
  return <PayoutForm key={source.data?.payoutId ?? 'new'} source={source.data ?? null} />;
}

function PayoutForm({ source }: { source: PayoutDetail | null }) {
  const navigate = useNavigate();
  const access = useEndpointAccess(payoutEndpoints.create);
  const editing = source?.state === 'Draft' ? source : null;
  useDocumentTitle(editing ? `Edit ${editing.reference}` : 'Send a Payment - Single Receiver');
  const settings = usePayoutSettings();
  const save = useSavePayout();
  const command = usePayoutCommand();

  const [search, setSearch] = useState('');
  const receivers = useReceiverSearch(search);
  const [receiverId, setReceiverId] = useState<string | null>(source?.receiverId ?? null);
  const [receiverLabel, setReceiverLabel] = useState<string | null>(source ? `${source.receiverName} (${source.receiverEmail})` : null);
  const [amount, setAmount] = useState(source ? (source.amountCents / 100).toFixed(2) : '');
  const [memo, setMemo] = useState(source?.memo ?? '');
  const [payOn, setPayOn] = useState(source?.payOn ?? '');
  const [errors, setErrors] = useState<Errors>({});
  const [confirming, setConfirming] = useState(false);

  const options = useMemo(() => {
    const found = receiverOptions(receivers.data?.items ?? []);
    if (receiverId && receiverLabel && !found.some((o) => o.value === receiverId)) found.unshift({ value: receiverId, label: receiverLabel, disabled: false });
    return found;
  }, [receivers.data, receiverId, receiverLabel]);

  const amountCents = parseMoney(amount);
  const fee = settings.data?.feeCents ?? 0;

  const check = (): boolean => {
    const next: Errors = {};
    if (!receiverId) next.receiverId = 'Choose the receiver to pay.';
    const amountError = amountProblem(amount);
    if (amountError) next.amountCents = amountError;
    setErrors(next);
    return Object.keys(next).length === 0;
  };

  const body = (submit: boolean) => ({ receiverId: receiverId ?? '', amountCents: amountCents ?? 0, memo, payOn: payOn || null, submit });

  const failed = (error: unknown) => {
    if (error instanceof ApiError && error.fields) setErrors(error.fields as Errors);
    notifications.show({ color: 'red', title: 'The payout was not saved', message: (error as Error).message });
  };

  const saveDraft = async () => {
    if (!check()) return;
    try {
      const saved = await save.mutateAsync({ body: body(false), payoutId: editing?.payoutId ?? null });
      notifications.show({
        color: 'green',
        title: `${saved.reference} saved as a draft`,
        message: `${formatMoney(saved.amountCents)} to ${saved.receiverName}.`,
      });
      void navigate(paths.payouts.transactions);
    } catch (error) {
      failed(error);
    }
  };

  const submit = async () => {
    try {
      let result;
      if (editing) {
        await save.mutateAsync({ body: body(false), payoutId: editing.payoutId });
        result = await command.mutateAsync({ payoutId: editing.payoutId, command: 'submit' });
      } else {
        result = await save.mutateAsync({ body: body(true) });
      }
      setConfirming(false);
      notifications.show({
        color: 'green',
        title: result && result.state === 'Approved' ? `${result.reference} approved and on its way` : 'Payout submitted for approval',
        message: `${formatMoney(amountCents ?? 0)} to ${receiverLabel ?? 'the receiver'}.`,
      });
      void navigate(paths.payouts.root);
    } catch (error) {
      setConfirming(false);
      failed(error);
    }
  };

  const busy = save.isPending || command.isPending;
  const approvalRequired = settings.data?.approvalRequired ?? false;
  // Who may approve (MONEY_RULES): a member's submit waits for an owner or admin; so does anyone's under the second-approver rule.
  const canApprove = useRoleAllows(MONEY_RULES.approvePayout.access);
  const approvedNow = canApprove && !approvalRequired;
  const balance = useAvailableBalance();
  const available = balance.data?.availableCents ?? null;
  const needed = (amountCents ?? 0) + fee;
  // Approved at once, the balance must cover it: say so before the confirmation, not after it fails.
  const shortfall = approvedNow && available !== null && needed > available ? needed - available : 0;

  return (
    <Stack gap="md" maw={640}>
      <Title order={1}>{editing ? `Edit ${editing.reference}` : source ? `Copy of ${source.reference}` : 'Send a Payment - Single Receiver'}</Title>
      <AccessAlert access={access} />
      <Select
        label="Receiver"
        description="Only verified, active receivers can be paid."
        placeholder="Search by name or e-mail"
        searchable
        searchValue={search}
        onSearchChange={setSearch}
        data={options}
        value={receiverId}
        onChange={(value, option) => {
          setReceiverId(value);
          setReceiverLabel(option?.label ?? null);
        }}
        nothingFoundMessage={receivers.isFetching ? 'Searching…' : 'No receiver found. Add receivers under Manage Receivers.'}
        error={errors.receiverId}
        required
      />
      <MoneyInput label="Amount" value={amount} onValueChange={setAmount} error={errors.amountCents} required />
      <Textarea label="Memo" value={memo} onChange={(e) => setMemo(e.currentTarget.value)} maxLength={500} error={errors.memo} autosize minRows={2} />
      <TextInput
        type="date"
        label="Pay on"
        description="Leave empty to pay as soon as it is approved."
        value={payOn}
        onChange={(e) => setPayOn(e.currentTarget.value)}
        error={errors.payOn}
      />
      <Group justify="flex-end">
        <Button variant="default" onClick={() => void navigate(paths.payouts.root)}>
          Back
        </Button>
        <Button variant="default" onClick={() => void saveDraft()} loading={save.isPending && !confirming} disabled={!access.allowed}>
          Save draft
        </Button>
        <Button onClick={() => check() && setConfirming(true)} disabled={!access.allowed}>
          Submit
        </Button>
      </Group>
      <Modal opened={confirming} onClose={() => setConfirming(false)} title="Submit payout">
        <Stack>
          <Text>
            {formatMoney(amountCents ?? 0)} to {receiverLabel}, plus a {formatMoney(fee)} fee: <strong>{formatMoney((amountCents ?? 0) + fee)}</strong> from the
            available balance.
          </Text>
          {available !== null && <Text size="sm">Available balance: {formatMoney(available)}</Text>}
          <Text size="sm" c="dimmed">
            {!canApprove
              ? 'An owner or admin must approve it before it is sent.'
              : approvalRequired
                ? 'Another owner or admin must approve it before it is sent.'
                : payOn
                  ? `It will be approved now and sent on ${payOn}.`
                  : 'It will be approved and sent now.'}
          </Text>
          {shortfall > 0 && (
            <Alert color="red" title="The available balance does not cover this payout" role="alert">
              It needs {formatMoney(shortfall)} more than the available balance of {formatMoney(available ?? 0)}. Save it as a draft, or lower the amount.
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              Not now
            </Button>
            <Button loading={busy} onClick={() => void submit()} disabled={shortfall > 0}>
              Submit
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
