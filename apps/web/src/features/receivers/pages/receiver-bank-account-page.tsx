import { Alert, Button, Paper, PasswordInput, SegmentedControl, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { useParams } from 'react-router';
import { isValidRoutingNumber, ReceiverBankAccountBody, type FieldErrors, type PublicReceiverLink } from '@tay/contract';
import { PublicBusinessHeader, PublicProblem } from '../../../components/public/public-page-parts';
import { LoadError } from '../../../components/ui/load-error';
import { PageLoader } from '../../../components/ui/page-loader';
import { ApiError } from '../../../lib/api-client';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useReceiverLink, useRoutingLookup, useSetReceiverAccount } from '../api/receivers-api';
import { textFieldsOf } from '../../../lib/form-fields';

/** /receiver/bank-account/:token — the secure link a receiver was e-mailed: they enter their own bank account (no sign-in). */
export function ReceiverBankAccountPage() {
  const { token = '' } = useParams();
  const link = useReceiverLink(token);
  useDocumentTitle(link.data ? `Get paid by ${link.data.businessName}` : 'Add your bank account');
  if (link.data) return <LinkView token={token} data={link.data} />;
  if (link.isPending) return <PageLoader label="Loading your secure link" />;
  if (link.error instanceof ApiError && link.error.status === 410) {
    return <PublicProblem title="This link has expired">{link.error.message}</PublicProblem>;
  }
  if (link.error instanceof ApiError && link.error.status === 404) {
    return <PublicProblem title="This link no longer works">{link.error.message}</PublicProblem>;
  }
  return <LoadError title="This page could not be loaded" error={link.error} onRetry={() => void link.refetch()} />;
}

function LinkView({ token, data }: { token: string; data: PublicReceiverLink }) {
  const [done, setDone] = useState<{ bankName: string; last4: string } | null>(null);
  return (
    <Stack gap="lg">
      <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md">
        <Stack gap="sm">
          <PublicBusinessHeader name={data.businessName} logoUrl={data.businessLogoUrl}>
            wants to pay you
          </PublicBusinessHeader>
          <Title order={1} fz={26}>
            Hello {data.firstName}, add your bank account
          </Title>
          <Text c="dimmed" size="sm">
            {data.businessName} will only see your bank’s name and the last 4 digits of your account.
          </Text>
          {data.currentAccount && !done && (
            <Text size="sm">
              The account on file now: {data.currentAccount.bankName} •••• {data.currentAccount.last4}. What you enter here replaces it.
            </Text>
          )}
        </Stack>
      </Paper>
      {done ? (
        <Alert color="teal" icon={<IconCircleCheck />} title="Your bank account is saved">
          {data.businessName} can now pay you into {done.bankName} •••• {done.last4}. You can close this page; this link is now used up.
        </Alert>
      ) : data.status === 'open' ? (
        <AccountForm token={token} onSaved={setDone} />
      ) : (
        <Alert color="gray" icon={<IconAlertCircle />} title="Bank details cannot be taken now">
          {data.statusMessage}
        </Alert>
      )}
    </Stack>
  );
}

type Values = { accountHolderName: string; routingNumber: string; accountNumber: string; accountNumberConfirm: string; accountType: 'checking' | 'savings' };

export function AccountForm({ token, onSaved }: { token: string; onSaved: (saved: { bankName: string; last4: string }) => void }) {
  const [values, setValues] = useState<Values>({
    accountHolderName: '',
    routingNumber: '',
    accountNumber: '',
    accountNumberConfirm: '',
    accountType: 'checking',
  });
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useSetReceiverAccount(token);
  const routing = useRoutingLookup(token, isValidRoutingNumber(values.routingNumber) ? values.routingNumber : '');

  const set = (key: keyof Values, value: string) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors(({ [key]: _cleared, ...rest }) => rest);
  };
  const field = textFieldsOf(values, errors, set);
  const digits = (key: keyof Values, max: number) => (event: React.ChangeEvent<HTMLInputElement>) =>
    set(key, event.currentTarget.value.replace(/\D/g, '').slice(0, max));

  const routingError =
    errors.routingNumber ??
    (values.routingNumber.length === 9 && !isValidRoutingNumber(values.routingNumber) ? 'This routing number is not valid; check the 9 digits.' : undefined);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = ReceiverBankAccountBody.safeParse(values);
    const found: FieldErrors = {};
    if (!parsed.success) for (const issue of parsed.error.issues) found[String(issue.path[0])] ??= issue.message;
    if (!found.routingNumber && !isValidRoutingNumber(values.routingNumber)) found.routingNumber = 'This routing number is not valid; check the 9 digits.';
    if (Object.keys(found).length > 0) return setErrors(found);
    save.mutate(values, {
      onSuccess: onSaved,
      onError: (error) => {
        if (error instanceof ApiError && error.fields) setErrors(error.fields);
        else setErrors({ form: error.message });
      },
    });
  };

  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput label="Name on the account" autoComplete="name" required {...field('accountHolderName')} />
          <TextInput
            label="Routing number"
            description={routing.data?.valid ? routing.data.bankName : '9 digits, on your cheques or in your banking app'}
            inputMode="numeric"
            required
            value={values.routingNumber}
            error={routingError}
            onChange={digits('routingNumber', 9)}
          />
          <PasswordInput
            label="Account number"
            inputMode="numeric"
            autoComplete="off"
            required
            value={values.accountNumber}
            error={errors.accountNumber}
            onChange={digits('accountNumber', 17)}
          />
          <PasswordInput
            label="Confirm account number"
            inputMode="numeric"
            autoComplete="off"
            required
            value={values.accountNumberConfirm}
            error={errors.accountNumberConfirm}
            onChange={digits('accountNumberConfirm', 17)}
          />
          <div>
            <Text size="sm" fw={500} mb={4}>
              Account type
            </Text>
            <SegmentedControl
              fullWidth
              value={values.accountType}
              onChange={(value) => set('accountType', value)}
              data={[
                { value: 'checking', label: 'Checking' },
                { value: 'savings', label: 'Savings' },
              ]}
            />
          </div>
          {errors.form && (
            <Alert color="red" icon={<IconAlertCircle />}>
              {errors.form}
            </Alert>
          )}
          <Button type="submit" size="md" loading={save.isPending} fullWidth>
            Save my bank account
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}
