import { Button, Grid, Radio, Group, Stack, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { notifications } from '@mantine/notifications';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import { isValidRoutingNumber } from '@tay/contract';
import { useAddBankAccount } from '../api/business-api';
import { applyFieldErrors } from './api-field-errors';
import { useGoToNextStep } from './use-next-step';

const base = z.object({
  routingNumber: z.string().trim(),
  accountNumber: z
    .string()
    .trim()
    .regex(/^\d{4,17}$/, 'Enter the account number: 4 to 17 digits.'),
  confirmAccountNumber: z.string().trim(),
  accountType: z.enum(['checking', 'savings']),
  accountHolderName: z.string().trim().min(1, 'Enter the name on the account.').max(200),
});

function schemaFor(needsRouting: boolean) {
  return base
    .refine((v) => !needsRouting || /^\d{9}$/.test(v.routingNumber), { message: 'Enter the 9-digit routing number.', path: ['routingNumber'] })
    .refine((v) => !needsRouting || !/^\d{9}$/.test(v.routingNumber) || isValidRoutingNumber(v.routingNumber), {
      message: 'This routing number is not valid; check the 9 digits on your cheque.',
      path: ['routingNumber'],
    })
    .refine((v) => v.accountNumber === v.confirmAccountNumber, { message: 'The account numbers do not match.', path: ['confirmAccountNumber'] });
}
type Values = z.infer<typeof base>;

/** Account details for the settlement account; the routing number is typed or comes from the directory. */
export function BankAccountForm({ directoryId, disabled }: { directoryId?: string; disabled: boolean }) {
  const goNext = useGoToNextStep('bankAccount');
  const add = useAddBankAccount();
  const form = useForm<Values>({
    resolver: zodResolver(schemaFor(!directoryId)),
    defaultValues: { routingNumber: '', accountNumber: '', confirmAccountNumber: '', accountType: 'checking', accountHolderName: '' },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit((v) =>
    add.mutate(
      {
        ...(directoryId ? { directoryId } : { routingNumber: v.routingNumber }),
        accountNumber: v.accountNumber,
        confirmAccountNumber: v.confirmAccountNumber,
        accountType: v.accountType,
        accountHolderName: v.accountHolderName,
      },
      {
        onSuccess: (saved) => {
          notifications.show({ color: 'teal', title: 'Bank account saved', message: 'Money you collect is paid out to this account.' });
          void goNext(saved);
        },
        onError: (error) => {
          applyFieldErrors(error, form.setError);
          notifications.show({ color: 'red', title: 'Bank account not saved', message: error.message });
        },
      },
    ),
  );

  return (
    <form onSubmit={onSubmit} noValidate>
      <fieldset disabled={disabled} style={{ border: 0, padding: 0, margin: 0 }}>
        <Stack gap="md">
          <Grid>
            {!directoryId && (
              <Grid.Col span={{ base: 12, sm: 6 }}>
                <TextInput
                  label="Routing number"
                  inputMode="numeric"
                  maxLength={9}
                  autoComplete="off"
                  error={errors.routingNumber?.message}
                  {...form.register('routingNumber')}
                />
              </Grid.Col>
            )}
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput label="Name on the account" error={errors.accountHolderName?.message} {...form.register('accountHolderName')} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput
                label="Account number"
                inputMode="numeric"
                maxLength={17}
                autoComplete="off"
                error={errors.accountNumber?.message}
                {...form.register('accountNumber')}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput
                label="Confirm account number"
                inputMode="numeric"
                maxLength={17}
                autoComplete="off"
                onPaste={(e) => e.preventDefault()}
                error={errors.confirmAccountNumber?.message}
                {...form.register('confirmAccountNumber')}
              />
            </Grid.Col>
            <Grid.Col span={12}>
              <Controller
                control={form.control}
                name="accountType"
                render={({ field }) => (
                  <Radio.Group label="Account type" value={field.value} onChange={field.onChange}>
                    <Group mt="xs">
                      <Radio value="checking" label="Checking" />
                      <Radio value="savings" label="Savings" />
                    </Group>
                  </Radio.Group>
                )}
              />
            </Grid.Col>
          </Grid>
          <Button type="submit" loading={add.isPending} w="fit-content" disabled={disabled}>
            Save bank account
          </Button>
        </Stack>
      </fieldset>
    </form>
  );
}
