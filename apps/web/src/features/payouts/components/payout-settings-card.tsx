import { Card, Switch, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { formatMoney } from '@tay/contract';
import { useRoleAllows } from '../../../lib/endpoint-access';
import { usePayoutSettings, useUpdatePayoutSettings } from '../api/payouts-api';

/** "Payout approvals": whether a second owner or admin must approve what a member submits (owners and admins only). */
export function PayoutSettingsCard() {
  const canManage = useRoleAllows('business:write');
  const settings = usePayoutSettings();
  const update = useUpdatePayoutSettings();
  if (!canManage || !settings.data) return null;
  const onChange = (next: boolean) =>
    update.mutate(next, {
      onSuccess: () =>
        notifications.show({
          color: 'green',
          title: 'Payout approvals saved',
          message: next ? 'Submitted payouts now wait for a second person to approve them.' : 'Submitted payouts are now approved and sent at once.',
        }),
      onError: (error) => notifications.show({ color: 'red', title: 'Not saved', message: error.message }),
    });
  return (
    <Card withBorder radius="md" padding="md">
      <Text fw={600}>Payout approvals</Text>
      <Switch
        mt="xs"
        label="Require a second person to approve payouts"
        description={`When on, the person who submits a payout cannot approve it. Each payout costs ${formatMoney(settings.data.feeCents)}.`}
        checked={settings.data.approvalRequired}
        disabled={update.isPending}
        onChange={(e) => onChange(e.currentTarget.checked)}
      />
    </Card>
  );
}
