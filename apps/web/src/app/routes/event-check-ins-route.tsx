import { PayCheckInsButton } from '../../features/batches/components/pay-check-ins-button';
import { EventCheckInsPage } from '../../features/events/pages/event-check-ins-page';
import { useWriteAccess } from '../../lib/write-access';

/** /business/payouts/qrcode/check-ins: an event's check-ins (events feature) with "Pay checked-in receivers" (bulk payouts). */
export function EventCheckInsRoute() {
  const access = useWriteAccess('payouts');
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
