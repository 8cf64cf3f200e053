import { Alert, Button, Group, List, Paper, Progress, Stack, Text } from '@mantine/core';
import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { MAX_BATCH_FILE_BYTES, MAX_BATCH_ROWS } from '@tay/contract';
import { FileDrop } from '../../../components/ui/file-drop';
import { AccessAlert } from '../../../components/ui/access-alert';
import { useBusinessId } from '../../../lib/session';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useEndpointAccess } from '../../../lib/endpoint-access';
import { uploadBatchFile } from '../api/batches-api';
import { downloadTemplate, type BatchFlow } from '../batch-flows';
import { BatchPageHeader } from '../components/batch-page-header';

const MB = 1024 * 1024;

/**
 * Step 1 of a bulk flow (`/business/payment/request/import`): a CSV file dropped or chosen is
 * sent whole to the server, which reads it (UTF-8 or Windows-1252; comma, semicolon or tab) and
 * answers with its columns — or says what is wrong with it, and nothing is kept.
 */
export function BatchUploadPage({ flow }: { flow: BatchFlow }) {
  useDocumentTitle(`${flow.title}: upload`);
  const businessId = useBusinessId();
  const navigate = useNavigate();
  const access = useEndpointAccess(flow.access);
  const [progress, setProgress] = useState<number | null>(null);
  const [fileName, setFileName] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);

  const send = async (file: File) => {
    if (!businessId) return;
    setProblem(null);
    setFileName(file.name);
    if (file.size > MAX_BATCH_FILE_BYTES) {
      setProblem(`${file.name} is ${(file.size / MB).toFixed(1)} MB; files of up to 50 MB can be uploaded. Split it into smaller files.`);
      return;
    }
    if (file.size === 0) {
      setProblem(`${file.name} is empty. Choose a CSV file with a header row and one row per ${flow.madeOne}.`);
      return;
    }
    abort.current = new AbortController();
    setProgress(0);
    try {
      const batch = await uploadBatchFile(businessId, flow.kind, file, setProgress, abort.current.signal);
      await navigate(`${flow.paths.map}?batchId=${encodeURIComponent(batch.batchId)}`);
    } catch (error) {
      if (!(error instanceof DOMException && error.name === 'AbortError')) setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setProgress(null);
      abort.current = null;
    }
  };

  const uploading = progress !== null;
  return (
    <Stack gap="md">
      <BatchPageHeader flow={flow} title="Upload a file" subtitle="Step 1 of 3: upload · match the columns · review and send" />
      <AccessAlert access={access} />
      <Paper withBorder radius="md" p="lg">
        <Stack gap="md">
          <FileDrop
            label="Drop a CSV file here, or click to choose one"
            hint={`Up to 50 MB and ${MAX_BATCH_ROWS.toLocaleString('en-US')} rows, with a header row. Comma, semicolon or tab separated.`}
            accept=".csv,.txt,text/csv,text/plain,application/vnd.ms-excel"
            disabled={!access.allowed || uploading}
            onFile={(file) => void send(file)}
          />
          {uploading && (
            <Stack gap={4}>
              <Text size="sm" role="status">
                Uploading {fileName}… {Math.round((progress ?? 0) * 100)}%
              </Text>
              <Progress value={(progress ?? 0) * 100} aria-label={`Uploading ${fileName}`} />
              <Group>
                <Button variant="subtle" size="xs" onClick={() => abort.current?.abort()}>
                  Cancel upload
                </Button>
              </Group>
            </Stack>
          )}
          {problem && (
            <Alert color="red" title="This file cannot be used as it is" role="alert">
              {problem}
            </Alert>
          )}
          <div>
            <Text size="sm" fw={500}>
              What the file holds
            </Text>
            <List size="sm" spacing={2}>
              {flow.fileHolds.map((line) => (
                <List.Item key={line}>{line}</List.Item>
              ))}
            </List>
            {/* A label that wraps on a phone: a button's own label keeps to one line. */}
            <Button
              variant="subtle"
              px={0}
              h="auto"
              mih={36}
              styles={{ label: { whiteSpace: 'normal', textAlign: 'left' } }}
              onClick={() => downloadTemplate(flow.kind)}
            >
              Download the CSV template with example rows
            </Button>
          </div>
        </Stack>
      </Paper>
    </Stack>
  );
}
