import { ActionIcon, Alert, Button, Divider, Grid, Group, NumberInput, PasswordInput, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { Controller, useFieldArray, useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { Owner, type CurrentUser } from '@tay/contract';
import { formatPhone } from '../../../lib/phone';
import { useSession } from '../../../lib/session';
import { useBusiness, useUpdateBusiness } from '../api/business-api';
import { applyFieldErrors } from '../components/api-field-errors';
import { SetupForm, SetupPage } from '../components/setup-page';
import { useGoToNextStep } from '../components/use-next-step';

const OwnerForm = Owner.extend({ phone: z.string().trim().max(30) });
const schema = z.object({
  owners: z
    .array(OwnerForm)
    .max(10, 'List at most 10 owners.')
    .refine((owners) => owners.reduce((sum, o) => sum + (o.ownershipPercent || 0), 0) <= 100, {
      message: 'Ownership adds up to more than 100 %.',
    }),
});
type Values = z.infer<typeof schema>;

const blankOwner = (): Values['owners'][number] => ({
  firstName: '',
  lastName: '',
  title: '',
  ownershipPercent: 0,
  dateOfBirth: '',
  ssnLast4: '',
  email: '',
  phone: '',
});

/** The first owner of a business that has none yet: most often the person setting it up. */
const ownerFromProfile = (user: CurrentUser): Values['owners'][number] => ({
  ...blankOwner(),
  firstName: user.firstName ?? '',
  lastName: user.lastName ?? '',
  email: user.name,
  phone: formatPhone(user.mobileNumber),
});

/** /business/owner: the people who own the business; together at most 100 %. */
export function OwnersPage() {
  const business = useBusiness();
  const update = useUpdateBusiness();
  const goNext = useGoToNextStep('owners');
  const user = useSession().currentUser;
  const stored = business.data?.owners ?? [];
  const prefilled = Boolean(business.data && stored.length === 0 && user);
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    values: {
      owners: prefilled
        ? [ownerFromProfile(user!)]
        : stored.map((o) => ({ ...o, phone: o.phone ?? '', dateOfBirth: o.dateOfBirth ?? '', ssnLast4: o.ssnLast4 ?? '' })),
    },
  });
  const owners = useFieldArray({ control: form.control, name: 'owners' });
  const watched = useWatch({ control: form.control, name: 'owners' });
  const total = (watched ?? []).reduce((sum, o) => sum + (Number(o.ownershipPercent) || 0), 0);
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit((v) =>
    update.mutate(
      { owners: v.owners.map((o) => ({ ...o, phone: o.phone.trim() === '' ? null : o.phone })) },
      {
        onSuccess: (saved) => {
          notifications.show({ color: 'teal', title: 'Owners saved', message: `${v.owners.length} owner(s) on record.` });
          void goNext(saved);
        },
        onError: (error) => {
          applyFieldErrors(error, form.setError);
          notifications.show({ color: 'red', title: 'Owners not saved', message: error.message });
        },
      },
    ),
  );

  const remove = (index: number) =>
    modals.openConfirmModal({
      title: 'Remove this owner?',
      children: <Text size="sm">They are removed when you save the list.</Text>,
      labels: { confirm: 'Remove', cancel: 'Keep' },
      confirmProps: { color: 'red' },
      onConfirm: () => owners.remove(index),
    });

  return (
    <SetupPage title="Owners" description="Everyone who owns 25 % or more of the business, and the person who runs it." business={business}>
      <SetupForm business={business.data} onSubmit={onSubmit}>
        <Stack gap="md">
          <Group justify="space-between">
            <Text size="sm" c={total > 100 ? 'red' : 'dimmed'} aria-live="polite">
              Ownership listed: {total} % of 100 %
            </Text>
          </Group>
          {errors.owners?.root?.message && (
            <Alert color="red" role="alert">
              {errors.owners.root.message}
            </Alert>
          )}
          {prefilled && (
            <Alert color="blue" variant="light">
              We started the first owner with your name and contact details from your profile. Add the rest, or change them if someone else owns the business.
            </Alert>
          )}
          {owners.fields.length === 0 && (
            <Text c="dimmed" size="sm">
              No owners yet. Add the first one.
            </Text>
          )}
          {owners.fields.map((field, index) => {
            const e = errors.owners?.[index];
            return (
              <Stack key={field.id} gap="sm">
                {index > 0 && <Divider />}
                <Group justify="space-between">
                  <Title order={2} fz="md">
                    Owner {index + 1}
                  </Title>
                  <Tooltip label="Remove this owner">
                    <ActionIcon variant="subtle" color="red" aria-label={`Remove owner ${index + 1}`} onClick={() => remove(index)}>
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Tooltip>
                </Group>
                <Grid>
                  <Grid.Col span={{ base: 12, sm: 6 }}>
                    <TextInput label="First name" error={e?.firstName?.message} {...form.register(`owners.${index}.firstName`)} />
                  </Grid.Col>
                  <Grid.Col span={{ base: 12, sm: 6 }}>
                    <TextInput label="Last name" error={e?.lastName?.message} {...form.register(`owners.${index}.lastName`)} />
                  </Grid.Col>
                  <Grid.Col span={{ base: 12, sm: 6 }}>
                    <TextInput label="Title" placeholder="Owner, CEO…" error={e?.title?.message} {...form.register(`owners.${index}.title`)} />
                  </Grid.Col>
                  <Grid.Col span={{ base: 12, sm: 6 }}>
                    <Controller
                      control={form.control}
                      name={`owners.${index}.ownershipPercent`}
                      render={({ field: f }) => (
                        <NumberInput
                          label="Ownership (%)"
                          min={0}
                          max={100}
                          allowDecimal={false}
                          value={f.value}
                          onChange={(value) => f.onChange(typeof value === 'number' ? value : 0)}
                          error={e?.ownershipPercent?.message}
                        />
                      )}
                    />
                  </Grid.Col>
                  <Grid.Col span={{ base: 12, sm: 6 }}>
                    <TextInput label="Date of birth" type="date" error={e?.dateOfBirth?.message} {...form.register(`owners.${index}.dateOfBirth`)} />
                  </Grid.Col>
                  <Grid.Col span={{ base: 12, sm: 6 }}>
                    <PasswordInput
                      label="Last 4 digits of SSN"
                      inputMode="numeric"
                      maxLength={4}
                      autoComplete="off"
                      visibilityToggleButtonProps={{ 'aria-label': 'Show or hide the SSN digits' }}
                      error={e?.ssnLast4?.message}
                      {...form.register(`owners.${index}.ssnLast4`)}
                    />
                  </Grid.Col>
                  <Grid.Col span={{ base: 12, sm: 6 }}>
                    <TextInput label="E-mail" type="email" error={e?.email?.message} {...form.register(`owners.${index}.email`)} />
                  </Grid.Col>
                  <Grid.Col span={{ base: 12, sm: 6 }}>
                    <TextInput label="Phone" description="Optional" type="tel" error={e?.phone?.message} {...form.register(`owners.${index}.phone`)} />
                  </Grid.Col>
                </Grid>
              </Stack>
            );
          })}
          <Group>
            <Button variant="default" leftSection={<IconPlus size={14} />} onClick={() => owners.append(blankOwner())} disabled={owners.fields.length >= 10}>
              Add an owner
            </Button>
            <Button type="submit" loading={update.isPending}>
              Save owners
            </Button>
          </Group>
        </Stack>
      </SetupForm>
    </SetupPage>
  );
}
