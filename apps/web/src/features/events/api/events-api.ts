import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import {
  checkInEndpoints as c,
  eventEndpoints as e,
  receiverEndpoints,
  type CheckInBody,
  type EventCheckInQuery,
  type EventInput,
  type EventListQuery,
  type PayoutEvent,
  type QrImageFormat,
} from '@tay/contract';
import { ApiError } from '../../../lib/api-client';
import { areaKey, callEndpoint, callForData, downloadEndpoint, endpointQuery } from '../../../lib/endpoint-client';
import { useBusinessMutation } from '../../../lib/business-mutation';
import { useBusinessId } from '../../../lib/session';
import { eventsKey } from '../../../lib/area-keys';

/** Everything cached of the business's events and their check-ins. */
export { eventsKey };

export function useEventList(query: EventListQuery) {
  const businessId = useBusinessId();
  return useQuery({ ...endpointQuery(e.list, { params: { id: businessId ?? '' }, query }), enabled: Boolean(businessId), placeholderData: keepPreviousData });
}

export function useEventCheckIns(eventId: string, query: EventCheckInQuery) {
  const businessId = useBusinessId();
  return useQuery({
    ...endpointQuery(e.checkIns, { params: { id: businessId ?? '', eventId }, query }),
    enabled: Boolean(businessId && eventId),
    placeholderData: keepPreviousData,
  });
}

/** A change to an event: the events and their check-ins are read again. */
const eventChanges = (businessId: string | undefined) => [eventsKey(businessId)];

/** Creates an event (POST), or edits one when `eventId` is given (PATCH); its printed code stays the same. */
export const useSaveEvent = () =>
  useBusinessMutation(
    (id, { body, eventId }: { body: EventInput; eventId?: string | null }) =>
      eventId ? callForData(e.update, { params: { id, eventId }, body }) : callForData(e.create, { params: { id }, body }),
    eventChanges,
    { afterSuccessOnly: true },
  );

export type EventCommand = 'enable' | 'disable' | 'delete';

export const useEventCommand = () =>
  useBusinessMutation(
    async (id, { eventId, command }: { eventId: string; command: EventCommand }): Promise<PayoutEvent | null> => {
      const params = { id, eventId };
      if (command === 'delete') {
        await callEndpoint(e.remove, { params });
        return null;
      }
      return callForData(e[command], { params });
    },
    eventChanges,
    { afterSuccessOnly: true },
  );

function fileName(name: string, extension: string): string {
  const base = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `${base || 'event'}-check-in.${extension}`;
}

/** Downloads the event's check-in code: a PNG at `size` pixels, an SVG, or a PDF poster. */
export async function downloadEventImage(businessId: string, event: Pick<PayoutEvent, 'eventId' | 'name'>, format: QrImageFormat, size = 1024): Promise<void> {
  const query = format === 'png' ? { format, size, disposition: 'attachment' as const } : { format, disposition: 'attachment' as const };
  await downloadEndpoint(e.image, { params: { id: businessId, eventId: event.eventId }, query }, fileName(event.name, format));
}

export async function downloadEventsCsv(businessId: string, query: EventListQuery): Promise<void> {
  const { page: _page, pageSize: _size, ...rest } = query;
  await downloadEndpoint(e.exportCsv, { params: { id: businessId }, query: rest }, 'events.csv');
}

export async function downloadCheckInsCsv(businessId: string, eventId: string, query: EventCheckInQuery): Promise<void> {
  const { page: _page, pageSize: _size, ...rest } = query;
  await downloadEndpoint(e.exportCheckIns, { params: { id: businessId, eventId }, query: rest }, 'check-ins.csv');
}

/**
 * Marks a checked-in receiver reviewed (an owner or admin): "Pay checked-in receivers" then
 * includes them. The receivers' own endpoint; the event's check-ins and the receivers reload.
 */
export const useReviewCheckedInReceiver = () =>
  useBusinessMutation(
    (id, receiverId: string) => callForData(receiverEndpoints.review, { params: { id, receiverId } }),
    (businessId) => [eventsKey(businessId), areaKey(receiverEndpoints.list.tag, businessId)],
    { afterSuccessOnly: true },
  );

/* ------------------------------------------------------------ the check-in page (no sign-in) */

export function useCheckInPage(token: string) {
  return useQuery({
    queryKey: ['checkin', token],
    queryFn: () => callForData(c.get, { params: { token } }),
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
  });
}

export function useCheckIn(token: string) {
  return useMutation({ mutationFn: (body: CheckInBody) => callForData(c.checkIn, { params: { token }, body }) });
}
