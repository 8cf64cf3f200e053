import { Grid, Stack, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { notifications } from '@mantine/notifications';
import { useForm, type Path } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod';
import { PAYER_FIELD_LIMITS, payerName, payerPaths, payerEndpoints } from '@tay/contract';
import { LoadError } from '../../../components/ui/load-error';
import { PageLoader } from '../../../components/ui/page-loader';
import { serverFieldErrors } from '../../../lib/form-errors';
import { formatPhone, toE164 } from '../../../lib/phone';
import { useEndpointAccess } from '../../../lib/endpoint-access';
import { EntityForm } from '../../../components/ui/form-page';
import { usePayer, useSavePayer } from '../api/payers-api';
import { PayersPageHeader } from '../components/payers-page-header';

const text = payerName;
const schema = z
  .object({
    firstName: text(PAYER_FIELD_LIMITS.firstName),
    lastName: text(PAYER_FIELD_LIMITS.lastName),
    companyName: text(PAYER_FIELD_LIMITS.companyName),
    email: z
      .string()
      .trim()
      .min(1, 'Enter the e-mail address.')
      .pipe(z.email('Enter a valid e-mail address.'))
      .pipe(z.string().max(PAYER_FIELD_LIMITS.email, `Use at most ${PAYER_FIELD_LIMITS.email} characters.`)),
    mobileNumber: z
      .string()
      .trim()
      .refine((v) => v === '' || toE164(v) !== null, 'Enter a valid mobile number, like (415) 555-0123 or +44 20 7946 0958.'),
    reference: text(PAYER_FIELD_LIMITS.reference),
  })
  .refine((v) => (v.firstName && v.lastName) || v.companyName, {
    message: 'Enter a first and last name, or a company name.',
    path: ['firstName'],
  });
type Values = z.infer<typeof schema>;

const EMPTY: Values = { firstName: '', lastName: '', companyName: '', email: '', mobileNumber: '', reference: '' };

/** /business/payment/payers/add, and edit with `?payerId=`: a person (first and last name) or a company. */
export function PayerFormPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const payerId = params.get('payerId');
  const payer = usePayer(payerId);
  const save = useSavePayer();
  const access = useEndpointAccess(payerEndpoints.create);
  const editing = Boolean(payerId);
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    values: payer.data
      ? {
          firstName: payer.data.firstName,
          lastName: payer.data.lastName,
          companyName: payer.data.companyName,
          email: payer.data.email,
          mobileNumber: formatPhone(payer.data.mobileNumber),
          reference: payer.data.reference ?? '',
        }
      : EMPTY,
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit((v) =>
    save.mutate(
      {
        payerId,
        body: {
          firstName: v.firstName,
          lastName: v.lastName,
          companyName: v.companyName,
          email: v.email,
          mobileNumber: v.mobileNumber ? toE164(v.mobileNumber) : null,
          reference: v.reference || null,
        },
      },
      {
        onSuccess: (saved) => {
          const emailed = !editing || saved.email !== payer.data?.email;
          notifications.show({
            color: 'teal',
            title: editing ? 'Payer saved' : 'Payer added',
            message: emailed ? `${saved.displayName} was e-mailed a link to confirm ${saved.email}.` : saved.displayName,
          });
          void navigate(payerPaths.list);
        },
        onError: (error) => {
          for (const [field, message] of Object.entries(serverFieldErrors(error) ?? {})) {
            if (field in EMPTY) form.setError(field as Path<Values>, { message });
          }
          notifications.show({ color: 'red', title: editing ? 'Payer not saved' : 'Payer not added', message: error.message });
        },
      },
    ),
  );

  const title = editing ? 'Edit payer' : 'Add a payer';
  return (
    <Stack gap="md">
      <PayersPageHeader
        title={title}
        description={editing ? 'A new e-mail address must be confirmed again by the payer.' : 'We e-mail the payer a link to confirm their address.'}
      />
      {payer.error ? (
        <LoadError title="We could not load this payer" error={payer.error} onRetry={() => void payer.refetch()} />
      ) : editing && !payer.data ? (
        <PageLoader />
      ) : (
        <EntityForm
          label={title}
          onSubmit={() => void onSubmit()}
          access={access}
          problem={save.error && !serverFieldErrors(save.error) ? save.error.message : null}
          submitLabel={editing ? 'Save payer' : 'Add payer'}
          pending={save.isPending}
          cancelTo={payerPaths.list}
        >
          <Grid>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput
                label="First name"
                autoComplete="off"
                maxLength={PAYER_FIELD_LIMITS.firstName}
                error={errors.firstName?.message}
                {...form.register('firstName')}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput
                label="Last name"
                autoComplete="off"
                maxLength={PAYER_FIELD_LIMITS.lastName}
                error={errors.lastName?.message}
                {...form.register('lastName')}
              />
            </Grid.Col>
            <Grid.Col span={12}>
              <TextInput
                label="Company name"
                description="For a company, instead of a person's name"
                autoComplete="off"
                maxLength={PAYER_FIELD_LIMITS.companyName}
                error={errors.companyName?.message}
                {...form.register('companyName')}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput
                label="E-mail"
                type="email"
                autoComplete="off"
                required
                maxLength={PAYER_FIELD_LIMITS.email}
                error={errors.email?.message}
                {...form.register('email')}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput
                label="Mobile number"
                description="Optional"
                type="tel"
                autoComplete="off"
                // Room for a number typed with spaces, dashes and brackets; the check is on its digits.
                maxLength={24}
                error={errors.mobileNumber?.message}
                {...form.register('mobileNumber')}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput
                label="Reference"
                description="Optional: your own account or customer number"
                autoComplete="off"
                maxLength={PAYER_FIELD_LIMITS.reference}
                error={errors.reference?.message}
                {...form.register('reference')}
              />
            </Grid.Col>
          </Grid>
        </EntityForm>
      )}
    </Stack>
  );
}
