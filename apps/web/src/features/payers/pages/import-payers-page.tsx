import { Alert, Button, FileInput, Grid, Group, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { IconCircleCheck, IconFileTypeCsv } from '@tabler/icons-react';
import Papa from 'papaparse';
import { useState } from 'react';
import { Link } from 'react-router';
import {
  MAX_PAYER_IMPORT_CHARS,
  MAX_PAYER_IMPORT_ROWS,
  PAYER_IMPORT_FIELD_LABELS,
  PAYER_IMPORT_FIELDS,
  payerPaths,
  suggestPayerMapping,
  type PayerImportField,
  type PayerImportPreview,
  type PayerImportResult,
  type SuggestedPayerMapping,
  payerEndpoints,
} from '@tay/contract';
import { ApiError } from '../../../lib/api-client';
import { useImportPayers, useImportPreview } from '../api/payers-api';
import { ImportPreview } from '../components/import-preview';
import { PayersPageHeader } from '../components/payers-page-header';
import { AccessAlert } from '../../../components/ui/access-alert';
import { useEndpointAccess } from '../../../lib/endpoint-access';

/** The header row as the browser reads it, for the column choices when the server cannot suggest one. */
function localHeaders(csv: string): string[] {
  const parsed = Papa.parse<string[]>(csv.replace(/^\uFEFF/, ''), { preview: 1, skipEmptyLines: true });
  return (parsed.data[0] ?? []).map((h) => h.trim()).filter(Boolean);
}

/**
 * /business/payment/payers/import: choose a CSV file → match its columns to payer fields
 * (prefilled from the header names) → preview every row → import, all or nothing, skipping
 * payers that already exist.
 */
export function ImportPayersPage() {
  const previewCall = useImportPreview();
  const importCall = useImportPayers();
  const access = useEndpointAccess(payerEndpoints.import);
  const [file, setFile] = useState<File | null>(null);
  const [csv, setCsv] = useState<string | null>(null);
  const [headers, setHeaders] = useState<string[]>([]);
  const [mapping, setMapping] = useState<SuggestedPayerMapping>({});
  const [preview, setPreview] = useState<PayerImportPreview | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [result, setResult] = useState<PayerImportResult | null>(null);

  const runPreview = (text: string, chosen?: SuggestedPayerMapping) => {
    setPreview(null);
    setProblem(null);
    previewCall.mutate(
      { csv: text, ...(chosen?.email ? { mapping: { ...chosen, email: chosen.email } } : {}) },
      {
        onSuccess: (data) => {
          setPreview(data);
          setHeaders(data.headers);
          setMapping(data.mapping);
        },
        onError: (error) => {
          setProblem(error.message);
          // Without an e-mail column the person picks one from the headers the browser can read.
          if (error instanceof ApiError && error.fields?.['mapping.email']) {
            const read = localHeaders(text);
            setHeaders(read);
            setMapping(chosen ?? suggestPayerMapping(read));
          }
        },
      },
    );
  };

  const choose = async (chosen: File | null) => {
    setFile(chosen);
    setResult(null);
    setPreview(null);
    setProblem(null);
    setHeaders([]);
    setMapping({});
    setCsv(null);
    importCall.reset();
    if (!chosen) return;
    if (chosen.size > MAX_PAYER_IMPORT_CHARS) {
      setProblem('The file is larger than 2 MB; split it into smaller files and import them one by one.');
      return;
    }
    const text = await chosen.text();
    setCsv(text);
    runPreview(text);
  };

  const changeMapping = (field: PayerImportField, column: string | null) => {
    const next: SuggestedPayerMapping = { ...mapping };
    if (column) next[field] = column;
    else delete next[field];
    setMapping(next);
    if (csv && next.email) runPreview(csv, next);
    else setPreview(null);
  };

  const commit = () => {
    if (!csv || !mapping.email) return;
    importCall.mutate(
      { csv, mapping: { ...mapping, email: mapping.email } },
      {
        onSuccess: (data) => {
          setResult(data);
          setPreview(null);
        },
      },
    );
  };

  const startOver = () => void choose(null);

  return (
    <Stack gap="md">
      <PayersPageHeader
        title="Import payers"
        description={`Add up to ${MAX_PAYER_IMPORT_ROWS.toLocaleString('en-US')} payers from a CSV file (2 MB at most). Payers you already have are skipped.`}
      />
      <AccessAlert access={access} />

      {result ? (
        <Paper withBorder radius="md" p="lg">
          <Stack gap="sm" align="flex-start">
            <Group gap="xs">
              <IconCircleCheck color="var(--mantine-color-teal-6)" aria-hidden="true" />
              <Title order={2} fz="lg">
                Import finished
              </Title>
            </Group>
            <Text role="status">
              {result.added} added, {result.skipped} skipped as duplicates
            </Text>
            <Text size="sm" c="dimmed">
              Imported payers are not e-mailed. Use “Resend verification” on a payer when you want them to confirm their address.
            </Text>
            <Group>
              <Button component={Link} to={payerPaths.list}>
                Back to payers
              </Button>
              <Button variant="default" onClick={startOver}>
                Import another file
              </Button>
            </Group>
          </Stack>
        </Paper>
      ) : (
        <Paper withBorder radius="md" p="lg">
          <Stack gap="lg">
            <div>
              <Title order={2} fz="lg" mb="xs">
                1. Choose the file
              </Title>
              <FileInput
                label="CSV file"
                description="One payer per line under a header row, e.g. First name, Last name, Company, Email, Mobile, Reference"
                placeholder="Choose a .csv file"
                accept=".csv,text/csv"
                leftSection={<IconFileTypeCsv size={16} />}
                value={file}
                onChange={(chosen) => void choose(chosen)}
                disabled={!access.allowed}
                clearable
                // The × alone is an icon: a screen reader needs its name.
                clearButtonProps={{ 'aria-label': 'Remove the file' }}
                w={{ base: '100%', sm: 480 }}
              />
            </div>

            {problem && (
              <Alert color="red" title="This file cannot be imported as it is" role="alert">
                {problem}
              </Alert>
            )}

            {headers.length > 0 && (
              <div>
                <Title order={2} fz="lg" mb="xs">
                  2. Match the columns
                </Title>
                <Grid>
                  {PAYER_IMPORT_FIELDS.map((field) => (
                    <Grid.Col key={field} span={{ base: 12, sm: 6, md: 4 }}>
                      <Select
                        label={PAYER_IMPORT_FIELD_LABELS[field]}
                        placeholder={field === 'email' ? 'Choose a column' : 'Not in the file'}
                        data={headers}
                        value={mapping[field] ?? null}
                        onChange={(column) => changeMapping(field, column)}
                        clearable={field !== 'email'}
                        required={field === 'email'}
                        allowDeselect={field !== 'email'}
                      />
                    </Grid.Col>
                  ))}
                </Grid>
              </div>
            )}

            {previewCall.isPending && <Text size="sm">Reading the file…</Text>}

            {importCall.error && (
              <Alert color="red" title="Nothing was imported" role="alert">
                {importCall.error.message}
              </Alert>
            )}

            {preview && (
              <div>
                <Title order={2} fz="lg" mb="xs">
                  3. Check and import
                </Title>
                <ImportPreview preview={preview} committing={importCall.isPending} onCommit={commit} />
              </div>
            )}
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}
