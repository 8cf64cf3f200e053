import { Alert, Anchor, Button, Grid, Group, Paper, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { BATCH_FIELDS, type Batch, type BatchPayerMode } from '@tay/contract';
import { LoadError } from '../../../components/ui/load-error';
import { PageLoader } from '../../../components/ui/page-loader';
import { AccessAlert } from '../../../components/ui/access-alert';
import { ApiError } from '../../../lib/api-client';
import { useBusinessTime } from '../../../lib/business-time';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useEndpointAccess } from '../../../lib/endpoint-access';
import { useBatch, useMapBatch } from '../api/batches-api';
import { MappingPreview } from '../components/mapping-preview';
import type { BatchFlow } from '../batch-flows';
import { BatchPageHeader } from '../components/batch-page-header';
import { NoBatchChosen } from '../components/no-batch-chosen';

/**
 * Step 2 of a bulk flow (`/business/payment/request/bulkimport?batchId=`): each field's column,
 * guessed from the headers and changeable; who pays (payers the business has, or new ones from
 * the file); the first rows as they will be read. "Check the rows" sets the mapping and starts the
 * check of every row on the server.
 */
export function BatchMapPage({ flow }: { flow: BatchFlow }) {
  useDocumentTitle(`${flow.title}: match the columns`);
  const [params] = useSearchParams();
  const batchId = params.get('batchId');
  const batch = useBatch(batchId);
  if (!batchId) return <NoBatchChosen flow={flow} title="Match the columns" step="Step 2 of 3" />;
  if (batch.error) return <LoadError title="This batch could not be loaded" error={batch.error} onRetry={() => void batch.refetch()} />;
  if (!batch.data) return <PageLoader />;
  return <MapForm flow={flow} batch={batch.data} />;
}

function MapForm({ flow, batch }: { flow: BatchFlow; batch: Batch }) {
  const navigate = useNavigate();
  const clock = useBusinessTime();
  const access = useEndpointAccess(flow.access);
  const map = useMapBatch();
  const [payer, setPayer] = useState<BatchPayerMode>(batch.mapping.payer);
  const [columns, setColumns] = useState<Record<string, string>>(batch.mapping.columns);
  const fields = BATCH_FIELDS[batch.kind].filter((f) => !f.mode || f.mode === payer);
  const fieldErrors = map.error instanceof ApiError ? (map.error.fields ?? {}) : {};
  const editable = batch.state === 'Draft' && access.allowed;
  const review = `${flow.paths.review}?batchId=${encodeURIComponent(batch.batchId)}`;

  const check = () => {
    const chosen = Object.fromEntries(fields.filter((f) => columns[f.key]).map((f) => [f.key, columns[f.key]!]));
    map.mutate({ batchId: batch.batchId, mapping: { payer, columns: chosen } }, { onSuccess: () => void navigate(review) });
  };

  return (
    <Stack gap="md">
      <BatchPageHeader flow={flow} title="Match the columns" subtitle={`Step 2 of 3 · ${batch.fileName} · ${batch.counts.rows.toLocaleString('en-US')} rows`} />
      <AccessAlert access={access} />
      {batch.duplicateOf && (
        <Alert color="yellow" title="You uploaded this same file before">
          Batch {batch.duplicateOf} has exactly the same content. Sending both would {flow.twice}.{' '}
          <Anchor component={Link} to={`${flow.paths.review}?batchId=${encodeURIComponent(batch.duplicateOf)}`}>
            Open the earlier batch
          </Anchor>
        </Alert>
      )}
      {batch.state !== 'Draft' && (
        <Alert color="blue" title={`This batch was submitted ${batch.submittedAt ? clock.dateTime(batch.submittedAt) : ''}`}>
          <Anchor component={Link} to={review}>
            See its rows and what they made
          </Anchor>
        </Alert>
      )}
      <Paper withBorder radius="md" p="lg">
        <Stack gap="md">
          {flow.createsParties && (
            <div>
              <Text fw={500} size="sm" id="payer-mode-label">
                Who pays
              </Text>
              <SegmentedControl
                aria-labelledby="payer-mode-label"
                value={payer}
                onChange={(value) => setPayer(value as BatchPayerMode)}
                disabled={!editable}
                data={[
                  { value: 'existing', label: 'Payers I already have' },
                  { value: 'create', label: 'New payers from the file' },
                ]}
              />
              <Text size="xs" c="dimmed" mt={4}>
                {payer === 'existing'
                  ? "Each row names one of your payers by e-mail or by the payer's reference."
                  : 'Each row has a first name, last name and e-mail; a payer with that e-mail is used if you have one, otherwise it is created.'}
              </Text>
            </div>
          )}
          <Grid>
            {fields.map((field) => {
              const required = field.required === 'always' || field.required === payer;
              return (
                <Grid.Col key={field.key} span={{ base: 12, sm: 6, md: 4 }}>
                  <Select
                    label={field.label}
                    description={field.hint}
                    placeholder={required ? 'Choose a column' : 'Not in the file'}
                    data={batch.columns.filter((c) => c !== '')}
                    value={columns[field.key] ?? null}
                    onChange={(column) => setColumns((current) => ({ ...current, [field.key]: column ?? '' }))}
                    clearable
                    required={required}
                    disabled={!editable}
                    error={fieldErrors[`mapping.${field.key}`]}
                  />
                </Grid.Col>
              );
            })}
          </Grid>
          <MappingPreview fields={fields} columns={batch.columns} sample={batch.sample} chosen={columns} />
          {map.error && (
            <Alert color="red" title="The rows cannot be checked with this mapping" role="alert">
              {map.error.message}
            </Alert>
          )}
          <Group>
            <Button onClick={check} loading={map.isPending} disabled={!editable}>
              Check the rows
            </Button>
            {batch.phase !== 'uploaded' && (
              <Button variant="default" component={Link} to={review}>
                Back to the review
              </Button>
            )}
          </Group>
        </Stack>
      </Paper>
    </Stack>
  );
}
