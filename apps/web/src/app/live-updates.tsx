import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect } from 'react';
import { LiveChangeKind } from '@tay/contract';
import { businessKey } from '../features/business/api/business-api';
import { payersKey } from '../features/payers/api/payers-api';
import { teamKey } from '../features/team/api/team-api';
import { requestsKey } from '../features/payment-requests/api/payment-requests-api';
import { invoicesKey } from '../features/invoices/api/invoices-api';
import { qrCodesKey } from '../features/qr-codes/api/qr-codes-api';
import { payoutsKey } from '../features/payouts/api/payouts-api';
import { receiversKey } from '../features/receivers/api/receivers-api';
import { eventsKey } from '../features/events/api/events-api';
import { batchesKey } from '../features/batches/api/batches-api';
import { reportsKey } from '../features/analytics/api/reports-api';
import { balancesKey } from '../lib/balances';
import { openLiveStream, type LiveStreamOptions } from '../lib/live-stream';
import { currentUserKey, useSession } from '../lib/session';

/**
 * The queries that show a kind of change. The header and menus read the business from the
 * current user; a request's payments and figures move its lists, its detail, the payers' request
 * counts, the invoice it collects (whose state follows the request's), the payments and total of
 * the QR code it was paid through, the billing reports, and (through the ledger's own notice) the balances. Payments
 * out are one kind: payouts, receivers, events and their check-ins.
 */
export function liveQueryKeys(kind: LiveChangeKind, businessId: string): QueryKey[] {
  switch (kind) {
    case 'business':
      // Team changes are business notices too (the audit log, a person's role).
      return [currentUserKey, businessKey(businessId), teamKey(businessId)];
    case 'request':
      return [requestsKey(businessId), payersKey(businessId), invoicesKey(businessId), qrCodesKey(businessId), reportsKey(businessId)];
    case 'payer':
      return [payersKey(businessId)];
    case 'balances':
      return [balancesKey(businessId)];
    case 'payout':
      // A payout moves the dashboard, the queue and the lists; a receiver or a check-in, theirs;
      // a payout made by a batch, the batch's rows.
      return [payoutsKey(businessId), receiversKey(businessId), eventsKey(businessId), batchesKey(businessId)];
  }
}

/** Notices come in bursts (a payment is a request, a payment and a ledger entry): one refetch for a burst. */
const GATHER_MS = 100;

/**
 * While someone is signed in, follows the selected business's change notices and marks what
 * they change as stale, so what is on screen is read again (only queries in use refetch). After
 * a reconnect, everything is read again: notices were missed meanwhile.
 */
export function useLiveUpdates(options: LiveStreamOptions = {}): void {
  const session = useSession();
  const queryClient = useQueryClient();
  const businessId = session.status === 'authenticated' ? session.business?.businessId : undefined;
  const { retryDelayMs } = options;

  useEffect(() => {
    if (!businessId) return;
    const kinds = new Set<LiveChangeKind>();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      timer = undefined;
      for (const kind of kinds) {
        for (const queryKey of liveQueryKeys(kind, businessId)) void queryClient.invalidateQueries({ queryKey });
      }
      kinds.clear();
    };
    const changed = (kind: LiveChangeKind) => {
      kinds.add(kind);
      timer ??= setTimeout(flush, GATHER_MS);
    };
    const stop = openLiveStream(
      businessId,
      {
        onReady: (again) => {
          if (again) LiveChangeKind.options.forEach(changed);
        },
        onChange: (change) => changed(change.kind),
      },
      retryDelayMs ? { retryDelayMs } : {},
    );
    return () => {
      stop();
      clearTimeout(timer);
    };
  }, [businessId, queryClient, retryDelayMs]);
}

export function LiveUpdates() {
  useLiveUpdates();
  return null;
}
