import { batchEndpoints } from '@tay/contract';
import { PayCheckInsButton } from '../../features/batches/components/pay-check-ins-button';
import { EventCheckInsPage } from '../../features/events/pages/event-check-ins-page';
import { useEndpointAccess } from '../../lib/endpoint-access';

/** /business/payouts/qrcode/check-ins: an event's check-ins (events feature) with "Pay checked-in receivers" (bulk payouts). */
export function EventCheckInsRoute() {
  const access = useEndpointAccess(batchEndpoints.payCheckIns);
  return (
    <EventCheckInsPage
      actions={({ event }) => (
        <PayCheckInsButton
          eventId={event.eventId}
          eventName={event.name}
          amountCents={event.amountCents}
          checkIns={event.checkInsCount}
          disabled={!access.allowed}
        />
      )}
    />
  );
}
