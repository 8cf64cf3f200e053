import { Alert, Anchor, Button, List, Stack, Text, ThemeIcon } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { Business, MissingItem } from '@tay/contract';
import { useSubmitBusiness } from '../api/business-api';
import { SETUP_STEPS, stepTodo } from './setup-steps';

/** Spec §4 submission: what is still missing (from prepare-submit), then submit → Pending. */
export function SubmissionPanel({ business, missing }: { business: Business; missing: MissingItem[] }) {
  const submit = useSubmitBusiness();
  if (business.businessState !== 'Incomplete') return null;

  const confirmSubmit = () =>
    modals.openConfirmModal({
      title: 'Submit your business for review?',
      children: (
        <Text size="sm">We will check the details you entered. While we review them they cannot be changed; we will e-mail you when the review is done.</Text>
      ),
      labels: { confirm: 'Submit for review', cancel: 'Not yet' },
      onConfirm: () =>
        submit.mutate(undefined, {
          onSuccess: () => notifications.show({ color: 'teal', title: 'Submitted', message: 'Your business is now under review.' }),
          onError: (error) => notifications.show({ color: 'red', title: 'Not submitted', message: error.message }),
        }),
    });

  if (missing.length > 0) {
    return (
      <Alert color="orange" icon={<IconAlertCircle />} title="Still needed before you can submit">
        <List size="sm" spacing={4} mt="xs">
          {missing.map((item) => {
            const step = SETUP_STEPS.find((s) => s.key === item.section);
            return (
              <List.Item key={`${item.section}.${item.field}`}>
                {item.message}{' '}
                {step && (
                  <Anchor component={Link} to={step.to} size="sm">
                    Go to {step.label.toLowerCase()}
                  </Anchor>
                )}
              </List.Item>
            );
          })}
        </List>
      </Alert>
    );
  }
  // Nothing blocks submission, but a step nobody has looked at (a suggested time zone) is worth a look.
  const unchecked = SETUP_STEPS.flatMap((step) => stepTodo(step, missing, business).map((message) => ({ step, message })));
  return (
    <Alert color="teal" icon={<IconCircleCheck />} title="Everything is in place">
      <Stack gap="sm">
        <Text size="sm">Submit your business for review. Payments unlock once it is approved.</Text>
        {unchecked.map(({ step, message }) => (
          <Text size="sm" key={step.key}>
            Before you do: {message}{' '}
            <Anchor component={Link} to={step.to} size="sm">
              Go to {step.label.toLowerCase()}
            </Anchor>
          </Text>
        ))}
        <Button
          onClick={confirmSubmit}
          loading={submit.isPending}
          w="fit-content"
          leftSection={
            <ThemeIcon size="xs" variant="transparent" c="white">
              <IconCircleCheck size={14} />
            </ThemeIcon>
          }
        >
          Submit for review
        </Button>
      </Stack>
    </Alert>
  );
}
