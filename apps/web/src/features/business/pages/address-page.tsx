import { Button, Grid, Select, Stack, TextInput, type ComboboxItem, type OptionsFilter } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { notifications } from '@mantine/notifications';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import { BusinessAddress, searchUsStates, US_STATE_NAMES, US_STATES } from '@tay/contract';
import { useBusiness, useUpdateBusiness } from '../api/business-api';
import { applyFieldErrors } from '../components/api-field-errors';
import { SetupForm, SetupPage } from '../components/setup-page';
import { useGoToNextStep } from '../components/use-next-step';

const schema = BusinessAddress.extend({
  line2: z.string().trim().max(200),
  state: z.string().refine((s) => (US_STATES as readonly string[]).includes(s), 'Choose a state.'),
});
type Values = z.infer<typeof schema>;

const STATE_OPTIONS: ComboboxItem[] = US_STATES.map((code) => ({ value: code, label: `${US_STATE_NAMES[code]} (${code})` }));

/** "Calif", "ca" and "carolina" all find their states: by code or by any part of the name, best match first. */
const filterStates: OptionsFilter = ({ search, limit }) => {
  const byCode = new Map(STATE_OPTIONS.map((o) => [o.value, o]));
  return searchUsStates(search)
    .slice(0, limit)
    .map((code) => byCode.get(code)!);
};

/** /business/setup/address: where the business is registered (US). */
export function AddressPage() {
  const business = useBusiness();
  const update = useUpdateBusiness();
  const goNext = useGoToNextStep('address');
  const a = business.data?.address;
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    values: { line1: a?.line1 ?? '', line2: a?.line2 ?? '', city: a?.city ?? '', state: a?.state ?? '', postalCode: a?.postalCode ?? '', country: 'US' },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit((v) =>
    update.mutate(
      { address: { ...v, state: v.state as BusinessAddress['state'], line2: v.line2.trim() === '' ? null : v.line2 } },
      {
        onSuccess: (saved) => {
          notifications.show({ color: 'teal', title: 'Address saved', message: 'Your business address is on record.' });
          void goNext(saved);
        },
        onError: (error) => {
          applyFieldErrors(error, form.setError, 'address');
          notifications.show({ color: 'red', title: 'Address not saved', message: error.message });
        },
      },
    ),
  );

  return (
    <SetupPage title="Address" description="The registered address of the business, in the United States." business={business}>
      <SetupForm business={business.data} onSubmit={onSubmit}>
        <Stack gap="md">
          <Grid>
            <Grid.Col span={12}>
              <TextInput label="Street address" autoComplete="address-line1" error={errors.line1?.message} {...form.register('line1')} />
            </Grid.Col>
            <Grid.Col span={12}>
              <TextInput
                label="Suite, unit or floor"
                description="Optional"
                autoComplete="address-line2"
                error={errors.line2?.message}
                {...form.register('line2')}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 4 }}>
              <TextInput label="City" autoComplete="address-level2" error={errors.city?.message} {...form.register('city')} />
            </Grid.Col>
            <Grid.Col span={{ base: 6, sm: 4 }}>
              <Controller
                control={form.control}
                name="state"
                render={({ field }) => (
                  <Select
                    label="State"
                    placeholder="Type the name or code"
                    searchable
                    data={STATE_OPTIONS}
                    filter={filterStates}
                    limit={US_STATES.length}
                    nothingFoundMessage="No state matches"
                    autoComplete="address-level1"
                    value={field.value || null}
                    onChange={(v) => field.onChange(v ?? '')}
                    error={errors.state?.message}
                  />
                )}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 6, sm: 4 }}>
              <TextInput label="ZIP code" autoComplete="postal-code" error={errors.postalCode?.message} {...form.register('postalCode')} />
            </Grid.Col>
          </Grid>
          <Button type="submit" loading={update.isPending} w="fit-content">
            Save address
          </Button>
        </Stack>
      </SetupForm>
    </SetupPage>
  );
}
