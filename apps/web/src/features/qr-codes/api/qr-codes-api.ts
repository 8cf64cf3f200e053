import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { qrCodeEndpoints as e, type QrCode, type QrCodeInput, type QrCodeListQuery, type QrImageFormat } from '@tay/contract';
import { callEndpoint, callForData, downloadEndpoint, endpointQuery, fetchEndpointFile, queryOf } from '../../../lib/endpoint-client';
import { useBusinessMutation } from '../../../lib/business-mutation';
import { useBusinessId } from '../../../lib/session';
import { qrCodesKey } from '../../../lib/area-keys';

/** Everything cached of the business's QR codes (every change, and a payment through a code, invalidates it). */
export { qrCodesKey };

/**
 * A code's previews, kept apart from the area: a payment through the code (a live notice) changes
 * its figures, not its image; an edit may change the poster (its label, its memo).
 */
const imagesKey = (businessId: string | undefined, qrId?: string) => ['QR code images', businessId ?? 'none', ...(qrId ? [qrId] : [])];

export function useQrCodeList(query: QrCodeListQuery) {
  const businessId = useBusinessId();
  return useQuery({
    ...endpointQuery(e.list, { params: { id: businessId ?? '' }, query }),
    enabled: Boolean(businessId),
    placeholderData: keepPreviousData,
  });
}

export function useQrCode(qrId: string | null) {
  const businessId = useBusinessId();
  return useQuery({
    ...endpointQuery(e.get, { params: { id: businessId ?? '', qrId: qrId ?? '' } }),
    enabled: Boolean(businessId && qrId),
  });
}

/** Creates a code (POST), or edits one when `qrId` is given (PATCH); its printed image stays the same, its poster may not. */
export const useSaveQrCode = () =>
  useBusinessMutation(
    (id, { body, qrId }: { body: QrCodeInput; qrId?: string | null }) =>
      qrId ? callForData(e.update, { params: { id, qrId }, body }) : callForData(e.create, { params: { id }, body }),
    (businessId, saved) => [qrCodesKey(businessId), ...(saved ? [imagesKey(businessId, saved.qrId)] : [])],
    { afterSuccessOnly: true },
  );

export type QrCodeCommand = 'enable' | 'disable' | 'delete';

/** Enable, Disable and Delete (a code that has taken no payment). */
export const useQrCodeCommand = () =>
  useBusinessMutation(
    async (id, { qrId, command }: { qrId: string; command: QrCodeCommand }): Promise<QrCode | null> => {
      const params = { id, qrId };
      if (command === 'delete') {
        await callEndpoint(e.remove, { params });
        return null;
      }
      return callForData(e[command], { params });
    },
    (businessId) => [qrCodesKey(businessId)],
    { afterSuccessOnly: true },
  );

/** The image endpoint's query: a PNG at a size, or the SVG, or the PDF poster (no size). */
function imageQuery(format: QrImageFormat, size: number, disposition: 'attachment' | 'inline') {
  return format === 'png' ? { format, size, disposition } : { format, disposition };
}

/**
 * The code as an image or a poster, for a preview on the page: read with the session's token
 * (an <img> cannot carry it) and shown through an object URL. `size` is the PNG's only.
 */
export function useQrImage(qrId: string, format: QrImageFormat, size: number, enabled = true) {
  const businessId = useBusinessId();
  const input = { params: { id: businessId ?? '', qrId }, query: imageQuery(format, size, 'inline') };
  return useQuery({
    queryKey: [...imagesKey(businessId, qrId), queryOf(input.query)],
    queryFn: ({ signal }) => fetchEndpointFile(e.image, { ...input, signal }),
    enabled: Boolean(businessId) && enabled,
    placeholderData: keepPreviousData,
  });
}

/** "front-counter-qr.png", as the server names it: the name a download falls back to. */
function qrFileName(label: string, format: QrImageFormat): string {
  const base = label
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `${base || 'qr-code'}-qr.${format}`;
}

/** Downloads the code as a PNG at `size` pixels, an SVG or a PDF poster, under the name the server gives it. */
export async function downloadQrImage(businessId: string, code: Pick<QrCode, 'qrId' | 'label'>, format: QrImageFormat, size: number): Promise<void> {
  await downloadEndpoint(
    e.image,
    { params: { id: businessId, qrId: code.qrId }, query: imageQuery(format, size, 'attachment') },
    qrFileName(code.label, format),
  );
}

/** Downloads the CSV of the list's query: the filter, the search and the sort, without the paging. */
export async function downloadQrCodesCsv(businessId: string, query: QrCodeListQuery): Promise<void> {
  const { page: _page, pageSize: _size, ...rest } = query;
  await downloadEndpoint(e.exportCsv, { params: { id: businessId }, query: rest }, 'qr-codes.csv');
}
