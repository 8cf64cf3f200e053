import { Alert, Group, Pagination, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { IconEye } from '@tabler/icons-react';
import { useState } from 'react';
import { PATIENT_VIEW_LABELS, showingSummary } from '@tay/contract';
import { LoadError } from '../../../components/ui/load-error';
import { ScrollRegion } from '../../../components/ui/scroll-region';
import { useBusinessTime } from '../../../lib/business-time';
import { usePatientViews } from '../api/patients-api';

/**
 * The record's "Record views" panel: who viewed the patient's record, what (the record, its edit
 * form, its statements) and when, newest first. Shown once the record has been read, so the
 * viewer's own view is listed.
 */
export function PatientRecordViews({ clientId, ready }: { clientId: string; ready: boolean }) {
  const [page, setPage] = useState(1);
  const views = usePatientViews(clientId, page, ready);
  const clock = useBusinessTime();
  const data = views.data;
  return (
    <Paper withBorder radius="md" p="lg" component="section" aria-labelledby="record-views-title">
      <Stack gap="sm">
        <Group gap="xs">
          <IconEye size={18} aria-hidden />
          <Title order={2} size="h4" id="record-views-title">
            Record views
          </Title>
        </Group>
        <Alert color="blue" variant="light">
          Every view of this patient&apos;s record is recorded: who opened it, what they opened and when. Your view now is on the list.
        </Alert>
        {views.error ? (
          <LoadError title="We could not load who viewed this record" error={views.error} onRetry={() => void views.refetch()} />
        ) : !data ? (
          <Text size="sm" c="dimmed">
            Loading the record&apos;s views…
          </Text>
        ) : data.total === 0 ? (
          <Text size="sm" c="dimmed">
            No one has viewed this record yet.
          </Text>
        ) : (
          <>
            <ScrollRegion label="Record views" minWidth={480}>
              <Table striped verticalSpacing="xs">
                <Table.Caption>Who viewed this record</Table.Caption>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">Who</Table.Th>
                    <Table.Th scope="col">What</Table.Th>
                    <Table.Th scope="col">When</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.items.map((v) => (
                    <Table.Tr key={v.viewId}>
                      <Table.Td>{v.actor}</Table.Td>
                      <Table.Td>{PATIENT_VIEW_LABELS[v.what]}</Table.Td>
                      <Table.Td>{clock.dateTime(v.viewedAt)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollRegion>
            <Group justify="space-between" wrap="wrap">
              <Text size="sm" c="dimmed">
                {showingSummary(data.page, data.pageSize, data.total)}
              </Text>
              {data.total > data.pageSize && (
                <Pagination
                  total={Math.ceil(data.total / data.pageSize)}
                  value={data.page}
                  onChange={setPage}
                  size="sm"
                  getControlProps={(control) => ({ 'aria-label': `${control} page` })}
                />
              )}
            </Group>
          </>
        )}
      </Stack>
    </Paper>
  );
}
