import { Badge, Card, Group, Progress, SimpleGrid, Stack, Text, ThemeIcon, Title, UnstyledButton } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { Link } from 'react-router';
import { LoadError } from '../../../components/ui/load-error';
import { PageLoader } from '../../../components/ui/page-loader';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useBusiness, usePrepareSubmit } from '../api/business-api';
import { progress, SETUP_STEPS, stateLabel, stepTodo } from '../components/setup-steps';
import { SubmissionPanel } from '../components/submission-panel';

/** /business/setup: every setup step with its status, overall progress, and submission. */
export function SetupOverviewPage() {
  useDocumentTitle('Business setup');
  const business = useBusiness();
  const prepare = usePrepareSubmit();
  if (business.error || prepare.error) {
    return <LoadError title="We could not load your setup" error={business.error ?? prepare.error} onRetry={() => void business.refetch()} />;
  }
  if (!business.data || !prepare.data) return <PageLoader />;
  const missing = prepare.data.missing;
  const { done, total } = progress(missing, business.data);

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={1}>Business setup</Title>
          <Text c="dimmed">{business.data.businessName}</Text>
        </div>
        <Badge size="lg" variant="light" color={business.data.businessState === 'Approved' ? 'teal' : 'blue'}>
          {stateLabel(business.data)}
        </Badge>
      </Group>
      <div>
        <Group justify="space-between" mb={4}>
          <Text size="sm" fw={500}>
            Setup progress
          </Text>
          <Text size="sm" c="dimmed">
            {done} of {total} steps complete
          </Text>
        </Group>
        <Progress value={(done / total) * 100} aria-label={`Setup progress: ${done} of ${total} steps complete`} size="lg" />
      </div>
      <SubmissionPanel business={business.data} missing={missing} />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {SETUP_STEPS.map((step) => {
          const open = stepTodo(step, missing, business.data);
          const complete = open.length === 0;
          const status = complete ? (step.optional ? 'complete (optional)' : 'complete') : `${open.length} to do`;
          return (
            <UnstyledButton key={step.key} component={Link} to={step.to}>
              <Card withBorder padding="md" radius="md" h="100%">
                <Group wrap="nowrap" align="flex-start">
                  <ThemeIcon variant="light" color={complete ? 'teal' : 'orange'} radius="xl">
                    {complete ? <IconCircleCheck size={18} /> : <IconAlertCircle size={18} />}
                  </ThemeIcon>
                  <div>
                    {/* Named by its content, which an aria-label would hide from speech input; the state is for screen readers. */}
                    <Text fw={600}>
                      <span aria-hidden="true">{step.label}</span>
                      <span className="visually-hidden">{`${step.label}: ${status}`}</span>
                      {step.optional && (
                        <Text span size="xs" c="dimmed" fw={400} ml={6} aria-hidden="true">
                          Optional
                        </Text>
                      )}
                    </Text>
                    <Text size="sm" c="dimmed">
                      {step.description}
                    </Text>
                    {!complete && (
                      <Text size="xs" c="orange.8" mt={4}>
                        {open.length === 1 ? open[0] : `${open.length} items to complete`}
                      </Text>
                    )}
                  </div>
                </Group>
              </Card>
            </UnstyledButton>
          );
        })}
      </SimpleGrid>
    </Stack>
  );
}
