import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  batchEndpoints as e,
  errorDetailsOf,
  payoutEndpoints,
  pathOf,
  receiverEndpoints,
  type Batch,
  type BatchKind,
  type BatchMappingInput,
  type BatchRow,
  type BatchRowFilter,
  type BatchSubmitBody,
} from '@tay/contract';
import { ApiError, buildUrl } from '../../../lib/api-client';
import { callEndpoint, callForData, downloadEndpoint, endpointQuery } from '../../../lib/endpoint-client';
import { useBusinessMutation } from '../../../lib/business-mutation';
import { useIdempotentCommand } from '../../../lib/idempotency-keys';
import { readIdentityToken } from '../../../lib/session-token';
import { useBusinessId } from '../../../lib/session';
import { batchesKey } from '../../../lib/area-keys';

/** Everything cached of the business's batches. */
export { batchesKey };

const running = (batch: Batch | undefined) => batch?.phase === 'validating' || batch?.phase === 'sending';

export function useBatches(query: { kind: BatchKind; page: number; pageSize: number }) {
  const businessId = useBusinessId();
  return useQuery({
    ...endpointQuery(e.list, { params: { id: businessId ?? '' }, query }),
    enabled: Boolean(businessId),
    placeholderData: keepPreviousData,
    // While one of them is being checked or sent, its progress moves.
    refetchInterval: (q) => (q.state.data?.items.some(running) ? 2000 : false),
  });
}

/** One batch; polled every second while its rows are checked or sent. */
export function useBatch(batchId: string | null) {
  const businessId = useBusinessId();
  return useQuery({
    ...endpointQuery(e.get, { params: { id: businessId ?? '', batchId: batchId ?? '' } }),
    enabled: Boolean(businessId && batchId),
    refetchInterval: (q) => (running(q.state.data) ? 1000 : false),
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 3,
  });
}

export function useBatchRows(batchId: string, query: { status: BatchRowFilter; page: number; pageSize: number }, enabled: boolean) {
  const businessId = useBusinessId();
  return useQuery({
    ...endpointQuery(e.rows, { params: { id: businessId ?? '', batchId }, query }),
    enabled: Boolean(businessId) && enabled,
    placeholderData: keepPreviousData,
  });
}

export function downloadErrorRows(businessId: string, batch: Pick<Batch, 'batchId' | 'fileName'>) {
  return downloadEndpoint(e.errorsCsv, { params: { id: businessId, batchId: batch.batchId } }, `${batch.fileName.replace(/\.csv$/i, '')}-errors.csv`);
}

/**
 * Uploads a file as a new batch: the body is the file itself, sent with XMLHttpRequest so the
 * page can show how much of a large file has gone up. Resolves with the Draft batch.
 */
export function uploadBatchFile(businessId: string, kind: BatchKind, file: File, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<Batch> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', buildUrl(pathOf(e.upload.path, { id: businessId }).replace(/^\/api/, ''), { kind, fileName: file.name }));
    const token = readIdentityToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.setRequestHeader('Content-Type', 'text/csv');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = null;
      }
      if (xhr.status === 201) {
        resolve((body as { data: Batch }).data);
        return;
      }
      const details = errorDetailsOf(body);
      reject(
        details
          ? new ApiError(xhr.status, details.code, details.message, details.fields)
          : new ApiError(xhr.status, 'HTTP_ERROR', xhr.status === 413 ? 'The file is larger than 50 MB.' : `The upload failed (${xhr.status}).`),
      );
    };
    xhr.onerror = () => reject(new ApiError(0, 'NETWORK_ERROR', 'We could not reach Tay. Check your connection and try again.'));
    xhr.onabort = () => reject(new DOMException('The upload was cancelled.', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(file);
  });
}

/** A batch change: the batches (the list, the batch, its rows) are read again, whatever the outcome. */
function useBatchMutation<V, R>(run: (businessId: string, variables: V) => Promise<R>) {
  return useBusinessMutation(run, (businessId) => [batchesKey(businessId)]);
}

export const useMapBatch = () =>
  useBatchMutation((id, { batchId, mapping }: { batchId: string; mapping: BatchMappingInput }) =>
    callForData(e.map, { params: { id, batchId }, body: { mapping } }),
  );

export const useFixRow = () =>
  useBatchMutation((id, { batchId, row, fields }: { batchId: string; row: number; fields: Record<string, string> }) =>
    callForData(e.fixRow, { params: { id, batchId, row }, body: { fields } }),
  );

/**
 * Includes a payouts row left out because its receiver (added by a member or a check-in) is not
 * reviewed: an owner or admin reviews the receiver the row names, then the row is checked again.
 */
export const useIncludeReviewedRow = () =>
  useBatchMutation(async (id, { batchId, row }: { batchId: string; row: BatchRow }) => {
    const named = (row.fields.email ?? row.fields.receiverReference ?? '').trim().toLowerCase();
    const found = await callForData(receiverEndpoints.list, { params: { id }, query: { search: named, pageSize: 100 } });
    const receiver = found.items.find((r) => r.email.toLowerCase() === named || (r.reference ?? '').toLowerCase() === named);
    if (!receiver) throw new Error(`No receiver of yours is ${named} any more; fix the row or drop it.`);
    if (!receiver.reviewed) await callForData(receiverEndpoints.review, { params: { id, receiverId: receiver.receiverId } });
    return callForData(e.fixRow, { params: { id, batchId, row: row.row }, body: { fields: row.fields } });
  });

/** Every row with errors of a Draft dropped together (one call, all or none). */
export const useDropInvalidRows = () =>
  useBatchMutation((id, batchId: string) => callForData(e.dropRows, { params: { id, batchId }, body: { status: 'invalid' } }));

export const useDropRow = () =>
  useBatchMutation((id, { batchId, row }: { batchId: string; row: number }) => callForData(e.dropRow, { params: { id, batchId, row } }));

export const useDiscardBatch = () => useBatchMutation((id, batchId: string) => callEndpoint(e.discard, { params: { id, batchId } }));

export const useUnscheduleBatch = () => useBatchMutation((id, batchId: string) => callForData(e.unschedule, { params: { id, batchId } }));

/**
 * Submits a Draft, now or at a time, under the Idempotency-Key of (batch, body): a retry after no
 * answer sends the same key; a submit after an answer, or with another body, is a new one.
 */
export function useSubmitBatch() {
  const keyed = useIdempotentCommand();
  return useBatchMutation((id, { batchId, body }: { batchId: string; body: BatchSubmitBody }) =>
    keyed(`${batchId}:${JSON.stringify(body)}`, (headers) => callForData(e.submit, { params: { id, batchId }, body, headers })),
  );
}

/** "Pay checked-in receivers": the event's unpaid check-ins as a payouts batch, then its review (ADR 035). */
export const usePayCheckIns = () => useBatchMutation((id, eventId: string) => callForData(e.payCheckIns, { params: { id, eventId } }));

/**
 * How many payouts a finished bulk payout left waiting for a second approver (ADR 035): read
 * from the payouts list, filtered to the batch. Only asked for a finished payouts batch.
 */
export function useBatchPayoutsWaiting(batchId: string, enabled: boolean): number {
  const businessId = useBusinessId();
  const list = useQuery({
    ...endpointQuery(payoutEndpoints.list, { params: { id: businessId ?? '' }, query: { batchId, state: 'Submitted', pageSize: 1 } }),
    enabled: Boolean(businessId) && enabled,
  });
  return enabled ? (list.data?.total ?? 0) : 0;
}
