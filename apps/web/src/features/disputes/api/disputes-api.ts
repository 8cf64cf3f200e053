import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { disputeEndpoints as e, type DisputeListQuery, type SubmitEvidenceBody } from '@tay/contract';
import { requestsKey } from '../../../lib/area-keys';
import { balancesKey } from '../../../lib/balances';
import { useBusinessMutation } from '../../../lib/business-mutation';
import { callForData, downloadEndpoint, endpointQuery } from '../../../lib/endpoint-client';
import { useIdempotentCommand } from '../../../lib/idempotency-keys';
import { useBusinessId } from '../../../lib/session';

/** The business's disputes, a page at a time (`/business/payment/disputes`). */
export function useDisputeList(query: DisputeListQuery) {
  const businessId = useBusinessId();
  return useQuery({ ...endpointQuery(e.list, { params: { id: businessId ?? '' }, query }), enabled: Boolean(businessId), placeholderData: keepPreviousData });
}

/** One dispute, with its evidence. */
export function useDispute(disputeId: string | null) {
  const businessId = useBusinessId();
  return useQuery({
    ...endpointQuery(e.get, { params: { id: businessId ?? '', disputeId: disputeId ?? '' } }),
    enabled: Boolean(businessId && disputeId),
  });
}

/** The CSV of the same query, without the paging. */
export async function downloadDisputesCsv(businessId: string, query: DisputeListQuery): Promise<void> {
  const { page: _page, pageSize: _size, ...rest } = query;
  await downloadEndpoint(e.exportCsv, { params: { id: businessId }, query: rest }, 'disputes.csv');
}

/** A file sent as evidence, downloaded as it was uploaded. */
export function downloadEvidenceFile(businessId: string, disputeId: string, fileId: string, name: string): Promise<void> {
  return downloadEndpoint(e.evidenceFile, { params: { id: businessId, disputeId, fileId } }, name);
}

/** What the evidence asks for, without the files' megabytes: the text and each file's name and size. */
const intentOf = (body: SubmitEvidenceBody) => ({ ...body, files: body.files?.map((f) => [f.name, f.dataUrl.length]) });

/** Answering or accepting, keyed by the intent so a retry after a lost answer answers once; the disputes and the balances are read again. */
export function useAnswerDispute() {
  const keyed = useIdempotentCommand();
  return useBusinessMutation(
    (id, input: { disputeId: string } & ({ accept: true } | { accept?: false; body: SubmitEvidenceBody })) =>
      keyed(['dispute', input.disputeId, input.accept ? 'accept' : intentOf(input.body)], (headers) =>
        input.accept
          ? callForData(e.accept, { params: { id, disputeId: input.disputeId }, headers })
          : callForData(e.submitEvidence, { params: { id, disputeId: input.disputeId }, body: input.body, headers }),
      ),
    (businessId) => [requestsKey(businessId), balancesKey(businessId)],
    { afterSuccessOnly: true },
  );
}
