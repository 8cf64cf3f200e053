import { Button, Stack, Switch } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Controller, useForm } from 'react-hook-form';
import type { BusinessAutomations } from '@tay/contract';
import { useBusiness, useUpdateBusiness } from '../api/business-api';
import { useReadOnly } from '../components/read-only-notice';
import { SetupForm, SetupPage } from '../components/setup-page';
import { useGoToNextStep } from '../components/use-next-step';

/** /business/setup/automations: automatic reminders and automatic expiry. */
/** The switches of the page, each one of the business's automations. */
const AUTOMATIONS = [
  { name: 'autoReminders', label: 'Send reminders automatically', description: 'Unpaid requests are reminded on the schedule in Configuration.' },
  {
    name: 'autoExpire',
    label: 'Expire requests automatically',
    description:
      'A request past its expiry date can no longer be paid and shows as Expired. When off, requests stay payable after that date until you withdraw them; the rest of a part-paid request is always payable.',
  },
] as const;

export function AutomationsPage() {
  const business = useBusiness();
  const update = useUpdateBusiness();
  const goNext = useGoToNextStep('automations');
  const form = useForm<BusinessAutomations>({
    values: business.data?.automations ?? { autoReminders: true, autoExpire: true },
  });
  const readOnly = useReadOnly(business.data);

  const onSubmit = form.handleSubmit((automations) =>
    update.mutate(
      { automations },
      {
        onSuccess: (saved) => {
          notifications.show({ color: 'teal', title: 'Automations saved', message: 'They apply to every open request.' });
          void goNext(saved);
        },
        onError: (error) => notifications.show({ color: 'red', title: 'Automations not saved', message: error.message }),
      },
    ),
  );

  return (
    <SetupPage title="Automations" description="Let Tay follow up for you." business={business}>
      <SetupForm business={business.data} onSubmit={onSubmit}>
        <Stack gap="lg">
          {AUTOMATIONS.map((a) => (
            <Controller
              key={a.name}
              control={form.control}
              name={a.name}
              render={({ field }) => (
                <Switch
                  label={a.label}
                  description={a.description}
                  checked={field.value}
                  onChange={(e) => field.onChange(e.currentTarget.checked)}
                  disabled={readOnly}
                />
              )}
            />
          ))}
          <Button type="submit" loading={update.isPending} w="fit-content" disabled={readOnly}>
            Save automations
          </Button>
        </Stack>
      </SetupForm>
    </SetupPage>
  );
}
