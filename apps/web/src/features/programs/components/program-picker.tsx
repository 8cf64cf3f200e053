import { Alert, Anchor, Button, Group, Loader, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { IconInfoCircle, IconPlus } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { paths, programEndpoints } from '@tay/contract';
import { BackLink } from '../../../components/ui/form-page';
import { LoadError } from '../../../components/ui/load-error';
import { useEndpointAccess } from '../../../lib/endpoint-access';
import { useProgramList } from '../api/programs-api';
import { programManageHref } from './program-actions';

/** As many as one list answer holds (docs/product.md §9). */
const MAX_LISTED = 100;

/**
 * A page of one program opened without `?programId=` (the students of a program, enrolling in
 * one): the page's heading and the business's programs to choose from; choosing one opens the
 * page for it. `activeOnly` lists only the programs that take enrollments.
 */
export function ProgramPicker({
  title,
  description,
  hrefFor,
  activeOnly = false,
}: {
  title: string;
  description: string;
  hrefFor: (programId: string) => string;
  activeOnly?: boolean;
}) {
  const navigate = useNavigate();
  const canWrite = useEndpointAccess(programEndpoints.create).allowed;
  const programs = useProgramList({
    page: 1,
    pageSize: MAX_LISTED,
    sortBy: 'name',
    sortDirection: 'asc',
    ...(activeOnly ? { status: 'active' as const } : {}),
  });
  const data = programs.data;

  let body;
  if (programs.error) {
    body = <LoadError title="We could not load your programs" error={programs.error} onRetry={() => void programs.refetch()} />;
  } else if (!data) {
    body = <Loader size="sm" role="status" aria-label="Loading your programs" />;
  } else if (data.total === 0) {
    body = (
      <Alert color="blue" icon={<IconInfoCircle />} title={activeOnly ? 'No active programs' : 'No programs yet'}>
        <Text size="sm">
          {activeOnly
            ? 'Students are enrolled in an active program. Add a program in Manage Programs, or activate one there, then come back.'
            : 'Add a program in Manage Programs — a class, a club, a term’s tuition — then enroll students in it.'}
        </Text>
        <Group mt="sm">
          {canWrite && (
            <Button component={Link} to={programManageHref()} leftSection={<IconPlus size={16} />} size="xs">
              Add a program
            </Button>
          )}
          <Button component={Link} to={paths.entity.programs} variant="light" size="xs">
            Manage Programs
          </Button>
        </Group>
      </Alert>
    );
  } else {
    body = (
      <Paper withBorder radius="md" p="lg">
        <Stack gap="xs">
          <Select
            label="Program"
            placeholder="Choose a program"
            data={data.items.map((p) => ({ value: p.programId, label: p.status === 'active' ? p.name : `${p.name} (disabled)` }))}
            value={null}
            onChange={(programId) => programId && void navigate(hrefFor(programId))}
            searchable
            nothingFoundMessage="No program by that name"
            maw={420}
          />
          {data.total > data.items.length && (
            <Text size="xs" c="dimmed">
              The first {data.items.length} of {data.total} programs by name.{' '}
              <Anchor component={Link} to={paths.entity.programs} size="xs">
                Find the others in Manage Programs
              </Anchor>
            </Text>
          )}
        </Stack>
      </Paper>
    );
  }

  return (
    <Stack gap="md">
      <div>
        <BackLink to={paths.entity.programs} label="Programs" />
        <Title order={1}>{title}</Title>
        <Text c="dimmed" size="sm">
          {description}
        </Text>
      </div>
      {body}
    </Stack>
  );
}
