import { Button, Divider, Grid, Select, Stack, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { notifications } from '@mantine/notifications';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { formatEin, isNonProfitStructure } from '@tay/contract';
import { useBusiness, useCodeList, useUpdateBusiness } from '../api/business-api';
import { applyFieldErrors } from '../components/api-field-errors';
import { LogoUpload } from '../components/logo-upload';
import { useReadOnly } from '../components/read-only-notice';
import { SetupForm, SetupPage } from '../components/setup-page';
import { useGoToNextStep } from '../components/use-next-step';

const optional = z.string().trim();
const schema = z
  .object({
    legalName: z.string().trim().min(1, 'Enter the legal name of the business.').max(200),
    dbaName: optional.max(200),
    ein: optional.refine((v) => v === '' || /^\d{2}-?\d{7}$/.test(v), 'Enter the 9-digit EIN, like 12-3456789.'),
    mcc: optional,
    corporateStructure: optional,
    nonProfitCode: optional,
    phone: optional.max(30),
    email: optional.refine((v) => v === '' || z.email().safeParse(v).success, 'Enter a valid e-mail address.'),
    website: optional.refine((v) => v === '' || z.url().safeParse(v).success, 'Enter a full web address, like https://example.com.'),
  })
  .refine((v) => !isNonProfitStructure(v.corporateStructure) || v.nonProfitCode !== '', {
    message: 'Choose the non-profit code.',
    path: ['nonProfitCode'],
  });
type Values = z.infer<typeof schema>;

const orNull = (v: string) => (v.trim() === '' ? null : v.trim());

/** /business/setup/profile: legal identity, category and contact details, logo. */
export function SetupProfilePage() {
  const business = useBusiness();
  const update = useUpdateBusiness();
  const goNext = useGoToNextStep('profile');
  const mcc = useCodeList('/mcc');
  const structures = useCodeList('/corpStruct');
  const nonProfit = useCodeList('/nonProfitCode');
  const p = business.data?.businessProfile;
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    values: {
      legalName: p?.legalName ?? '',
      dbaName: p?.dbaName ?? '',
      ein: p?.ein ? formatEin(p.ein) : '',
      mcc: p?.mcc ?? '',
      corporateStructure: p?.corporateStructure ?? '',
      nonProfitCode: p?.nonProfitCode ?? '',
      phone: p?.phone ?? '',
      email: p?.email ?? '',
      website: p?.website ?? '',
    },
  });
  const readOnly = useReadOnly(business.data);
  const structure = useWatch({ control: form.control, name: 'corporateStructure' });

  const onSubmit = form.handleSubmit((v) =>
    update.mutate(
      {
        businessProfile: {
          legalName: v.legalName,
          dbaName: orNull(v.dbaName),
          ein: orNull(v.ein),
          mcc: orNull(v.mcc),
          corporateStructure: orNull(v.corporateStructure),
          nonProfitCode: isNonProfitStructure(v.corporateStructure) ? orNull(v.nonProfitCode) : null,
          phone: orNull(v.phone),
          email: orNull(v.email),
          website: orNull(v.website),
        },
      },
      {
        onSuccess: (saved) => {
          notifications.show({ color: 'teal', title: 'Business profile saved', message: 'Your changes are saved.' });
          void goNext(saved);
        },
        onError: (error) => {
          applyFieldErrors(error, form.setError, 'businessProfile');
          notifications.show({ color: 'red', title: 'Business profile not saved', message: error.message });
        },
      },
    ),
  );
  const { errors } = form.formState;

  return (
    <SetupPage title="Business profile" description="The legal details we verify, and how payers can reach you." business={business}>
      <SetupForm business={business.data} onSubmit={onSubmit}>
        <Stack gap="md">
          <LogoUpload logoUrl={p?.logoUrl} disabled={readOnly} />
          <Divider />
          <Grid>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput label="Legal name" error={errors.legalName?.message} {...form.register('legalName')} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput label="Doing business as (DBA)" description="Optional" error={errors.dbaName?.message} {...form.register('dbaName')} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput label="EIN" placeholder="12-3456789" error={errors.ein?.message} {...form.register('ein')} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <Controller
                control={form.control}
                name="mcc"
                render={({ field }) => (
                  <Select
                    label="Merchant category (MCC)"
                    placeholder={mcc.isPending ? 'Loading categories…' : 'Search by name or code'}
                    searchable
                    clearable
                    limit={50}
                    nothingFoundMessage="No category matches"
                    data={(mcc.data ?? []).map((c) => ({ value: c.code, label: `${c.code} — ${c.label}` }))}
                    value={field.value || null}
                    onChange={(value) => field.onChange(value ?? '')}
                    error={errors.mcc?.message ?? (mcc.error ? 'The category list could not be loaded.' : undefined)}
                  />
                )}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <Controller
                control={form.control}
                name="corporateStructure"
                render={({ field }) => (
                  <Select
                    label="Corporate structure"
                    data={(structures.data ?? []).map((c) => ({ value: c.code, label: c.label }))}
                    value={field.value || null}
                    onChange={(value) => field.onChange(value ?? '')}
                    error={errors.corporateStructure?.message}
                  />
                )}
              />
            </Grid.Col>
            {isNonProfitStructure(structure) && (
              <Grid.Col span={{ base: 12, sm: 6 }}>
                <Controller
                  control={form.control}
                  name="nonProfitCode"
                  render={({ field }) => (
                    <Select
                      label="Non-profit code"
                      data={(nonProfit.data ?? []).map((c) => ({ value: c.code, label: c.label }))}
                      value={field.value || null}
                      onChange={(value) => field.onChange(value ?? '')}
                      error={errors.nonProfitCode?.message}
                    />
                  )}
                />
              </Grid.Col>
            )}
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput label="Business phone" type="tel" error={errors.phone?.message} {...form.register('phone')} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput label="Business e-mail" type="email" error={errors.email?.message} {...form.register('email')} />
            </Grid.Col>
            <Grid.Col span={12}>
              <TextInput label="Website" placeholder="https://example.com" error={errors.website?.message} {...form.register('website')} />
            </Grid.Col>
          </Grid>
          <Button type="submit" loading={update.isPending} w="fit-content" disabled={readOnly}>
            Save business profile
          </Button>
        </Stack>
      </SetupForm>
    </SetupPage>
  );
}
