import { Alert, Anchor, Badge, Button, Drawer, FileInput, Group, List, Paper, Stack, Table, Text, Textarea, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Link } from 'react-router';
import {
  daysLeftLabel,
  DISPUTE_EVIDENCE_FIELDS,
  DISPUTE_REASON_LABELS,
  DISPUTE_STATE_LABELS,
  disputeEndpoints,
  EVIDENCE_FILE_TYPES,
  formatMoney,
  getHref,
  MAX_EVIDENCE_FILE_BYTES,
  MAX_EVIDENCE_FILES,
  paths,
  type Dispute,
  type DisputeEvidenceField,
  type DisputeState,
  type SubmitEvidenceBody,
} from '@tay/contract';
import { LoadError } from '../../../components/ui/load-error';
import { PageLoader } from '../../../components/ui/page-loader';
import { useBusinessTime } from '../../../lib/business-time';
import { useEndpointAccess } from '../../../lib/endpoint-access';
import { useBusinessId } from '../../../lib/session';
import { downloadEvidenceFile, useAnswerDispute, useDispute } from '../api/disputes-api';

export const DISPUTE_STATE_COLORS: Record<DisputeState, string> = { NeedsResponse: 'orange', UnderReview: 'blue', Won: 'teal', Lost: 'red', Accepted: 'gray' };

export function DisputeStateBadge({ state }: { state: DisputeState }) {
  return (
    <Badge color={DISPUTE_STATE_COLORS[state]} variant="light" radius="sm" data-state={state}>
      {DISPUTE_STATE_LABELS[state]}
    </Badge>
  );
}

const FIELDS = Object.entries(DISPUTE_EVIDENCE_FIELDS) as [DisputeEvidenceField, string][];

/** What each state means for the business, in a sentence. */
function stateLine(d: Dispute, due: string): string {
  switch (d.state) {
    case 'NeedsResponse':
      return `Send evidence by ${due} (${daysLeftLabel(d.evidenceDueAt).toLowerCase()}), or accept the dispute. Unanswered, it is lost.`;
    case 'UnderReview':
      return 'Your evidence is with the payer’s bank, which decides. You will be e-mailed the outcome.';
    case 'Won':
      return `The bank decided for you: ${formatMoney(d.amountCents)} is back in your available balance${d.feeReturnedCents > 0 ? ', with the dispute fee' : ''}.`;
    case 'Lost':
      return `The bank decided for the payer: ${formatMoney(d.amountCents)} and the ${formatMoney(d.feeCents)} fee stay deducted.`;
    case 'Accepted':
      return `You accepted the dispute: ${formatMoney(d.amountCents)} stays with the payer.`;
  }
}

const readDataUrl = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error(`Could not read ${file.name}.`));
    reader.readAsDataURL(file);
  });

/**
 * A dispute in a drawer (ADR 051): what was disputed and why, the due date and what it means, the
 * evidence sent and its files; while it needs a response, the evidence form (the five text fields
 * and up to five files) and "Accept dispute", each asked to confirm. The API decides who may
 * answer; a member or viewer reads it only.
 */
export function DisputeDrawer({ disputeId, onClose }: { disputeId: string | null; onClose: () => void }) {
  const detail = useDispute(disputeId);
  const d = detail.data;
  return (
    <Drawer opened={Boolean(disputeId)} onClose={onClose} position="right" size="lg" title={d ? `Dispute of ${d.referenceNumber}` : 'Dispute'}>
      {detail.error ? (
        <LoadError title="We could not load this dispute" error={detail.error} onRetry={() => void detail.refetch()} />
      ) : !d ? (
        <PageLoader />
      ) : (
        <DisputeDetail key={d.disputeId} dispute={d} onClose={onClose} />
      )}
    </Drawer>
  );
}

function DisputeDetail({ dispute: d, onClose }: { dispute: Dispute; onClose: () => void }) {
  const clock = useBusinessTime();
  const businessId = useBusinessId();
  const access = useEndpointAccess(disputeEndpoints.submitEvidence);
  const due = clock.dateTime(d.evidenceDueAt);
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={2} fz="xl">
            {formatMoney(d.amountCents)}
          </Title>
          <Text size="sm" c="dimmed">
            {d.payerName} · {d.instrument}
          </Text>
        </div>
        <DisputeStateBadge state={d.state} />
      </Group>
      <Paper withBorder p="sm" radius="md" role="region" aria-label="What it means" bg={`var(--mantine-color-${DISPUTE_STATE_COLORS[d.state]}-light)`}>
        <Text size="sm">{stateLine(d, due)}</Text>
      </Paper>
      <Table variant="vertical" withTableBorder>
        <Table.Tbody>
          <Table.Tr>
            <Table.Th w={160}>Request</Table.Th>
            <Table.Td>
              <Anchor component={Link} to={getHref(paths.payments.history, undefined, { transid: d.requestId })} ff="monospace" size="sm">
                {d.referenceNumber}
              </Anchor>{' '}
              ({formatMoney(d.paymentAmountCents)} paid)
            </Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>Reason</Table.Th>
            <Table.Td>{DISPUTE_REASON_LABELS[d.reason]}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>Dispute fee</Table.Th>
            <Table.Td>
              {formatMoney(d.feeCents)}
              {d.feeReturnedCents > 0 ? ` (${formatMoney(d.feeReturnedCents)} returned)` : ''}
            </Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>Opened</Table.Th>
            <Table.Td>{clock.dateTime(d.createdAt)}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>Evidence due</Table.Th>
            <Table.Td>{due}</Table.Td>
          </Table.Tr>
          {d.submittedAt && (
            <Table.Tr>
              <Table.Th>{d.state === 'Accepted' ? 'Accepted' : 'Answered'}</Table.Th>
              <Table.Td>
                {clock.dateTime(d.submittedAt)} by {d.submittedBy}
              </Table.Td>
            </Table.Tr>
          )}
          {d.closedAt && (
            <Table.Tr>
              <Table.Th>Closed</Table.Th>
              <Table.Td>{clock.dateTime(d.closedAt)}</Table.Td>
            </Table.Tr>
          )}
        </Table.Tbody>
      </Table>
      {d.evidence && (
        <section aria-label="Evidence sent">
          <Title order={3} fz="md" mb="xs">
            Evidence sent
          </Title>
          <Stack gap="xs">
            {FIELDS.filter(([field]) => d.evidence?.[field]).map(([field, label]) => (
              <div key={field}>
                <Text size="xs" c="dimmed" fw={600}>
                  {label}
                </Text>
                <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {d.evidence?.[field]}
                </Text>
              </div>
            ))}
            {d.files.length > 0 && (
              <List size="sm">
                {d.files.map((f) => (
                  <List.Item key={f.fileId}>
                    <Anchor
                      component="button"
                      type="button"
                      size="sm"
                      onClick={() => businessId && void downloadEvidenceFile(businessId, d.disputeId, f.fileId, f.name)}
                    >
                      {f.name}
                    </Anchor>{' '}
                    ({Math.ceil(f.sizeBytes / 1024)} KB)
                  </List.Item>
                ))}
              </List>
            )}
          </Stack>
        </section>
      )}
      {d.state === 'NeedsResponse' &&
        (access.allowed ? (
          <EvidenceForm dispute={d} onDone={onClose} />
        ) : (
          <Alert color="gray" title={access.title}>
            {access.reason}
          </Alert>
        ))}
    </Stack>
  );
}

function EvidenceForm({ dispute: d, onDone }: { dispute: Dispute; onDone: () => void }) {
  const [text, setText] = useState<Partial<Record<DisputeEvidenceField, string>>>({});
  const [files, setFiles] = useState<File[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [reading, setReading] = useState(false);
  const answer = useAnswerDispute();
  const busy = answer.isPending || reading;

  const failed = (title: string) => (error: Error) => {
    const fields = (error as { fields?: Record<string, string> }).fields ?? {};
    setErrors(fields);
    notifications.show({ color: 'red', title, message: error.message });
  };

  const submit = async () => {
    const found: Record<string, string> = {};
    if (files.length > MAX_EVIDENCE_FILES) found.files = `Attach at most ${MAX_EVIDENCE_FILES} files.`;
    files.forEach((file, index) => {
      if (file.size > MAX_EVIDENCE_FILE_BYTES) found[`files.${index}`] = `${file.name} is larger than 5 MB.`;
      else if (!(EVIDENCE_FILE_TYPES as readonly string[]).includes(file.type)) found[`files.${index}`] = `${file.name} is not a PDF, PNG or JPEG file.`;
    });
    if (files.length === 0 && !FIELDS.some(([field]) => text[field]?.trim())) {
      found.productDescription = 'Describe what happened or attach a file: the bank decides on what you send.';
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setReading(true);
    let uploads: { name: string; dataUrl: string }[];
    try {
      uploads = await Promise.all(files.map(async (file) => ({ name: file.name, dataUrl: await readDataUrl(file) })));
    } catch (error) {
      setReading(false);
      notifications.show({ color: 'red', title: 'A file could not be read', message: (error as Error).message });
      return;
    }
    setReading(false);
    const body: SubmitEvidenceBody = { files: uploads };
    for (const [field] of FIELDS) {
      const value = text[field]?.trim();
      if (value) body[field] = value;
    }
    modals.openConfirmModal({
      title: 'Send this evidence?',
      children: (
        <Text size="sm">
          The payer’s bank decides on what you send now: you cannot add to it later.{' '}
          {files.length > 0 && `${files.length} file${files.length === 1 ? '' : 's'} attached.`}
        </Text>
      ),
      labels: { confirm: 'Send evidence', cancel: 'Keep editing' },
      onConfirm: () =>
        answer.mutate(
          { disputeId: d.disputeId, body },
          {
            onSuccess: () => {
              notifications.show({ color: 'teal', title: 'Evidence sent', message: `The dispute of ${formatMoney(d.amountCents)} is under review.` });
              onDone();
            },
            onError: failed('Evidence not sent'),
          },
        ),
    });
  };

  const acceptIt = () =>
    modals.openConfirmModal({
      title: 'Accept this dispute?',
      children: (
        <Text size="sm">
          {formatMoney(d.amountCents)} stays with {d.payerName}, and the {formatMoney(d.feeCents)} dispute fee is not returned. This cannot be undone.
        </Text>
      ),
      labels: { confirm: 'Accept dispute', cancel: 'Go back' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        answer.mutate(
          { disputeId: d.disputeId, accept: true },
          {
            onSuccess: () => {
              notifications.show({ color: 'teal', title: 'Dispute accepted', message: `${formatMoney(d.amountCents)} stays with the payer.` });
              onDone();
            },
            onError: failed('Not accepted'),
          },
        ),
    });

  const fileErrors = Object.entries(errors)
    .filter(([key]) => key === 'files' || key.startsWith('files.'))
    .map(([, message]) => message);
  return (
    <form
      aria-label="Answer the dispute"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
      noValidate
    >
      <Stack gap="sm">
        <Title order={3} fz="md">
          Answer the dispute
        </Title>
        {FIELDS.map(([field, label]) => (
          <Textarea
            key={field}
            label={label}
            autosize
            minRows={field === 'customerCommunication' || field === 'uncategorizedText' ? 3 : 2}
            maxLength={20_000}
            value={text[field] ?? ''}
            onChange={(event) => {
              const value = event.currentTarget.value;
              setText((t) => ({ ...t, [field]: value }));
            }}
            error={errors[field]}
          />
        ))}
        <FileInput
          label="Files"
          description="Receipts, signed agreements, delivery proof: up to 5 PDF, PNG or JPEG files of 5 MB each."
          placeholder="Choose files"
          multiple
          clearable
          clearButtonProps={{ 'aria-label': 'Remove the chosen files' }}
          accept={EVIDENCE_FILE_TYPES.join(',')}
          value={files}
          onChange={setFiles}
          error={fileErrors.length > 0 ? fileErrors.join(' ') : undefined}
        />
        <Group justify="space-between" mt="xs">
          <Button variant="outline" color="red" onClick={acceptIt} disabled={busy}>
            Accept dispute
          </Button>
          <Button type="submit" loading={busy}>
            Send evidence
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
