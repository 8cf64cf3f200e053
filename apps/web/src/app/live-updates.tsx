import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect } from 'react';
import { LIVE_CHANGE_KINDS, type LiveChangeKind } from '@tay/contract';
import {
  businessKey,
  payersKey,
  teamKey,
  requestsKey,
  invoicesKey,
  qrCodesKey,
  payoutsKey,
  receiversKey,
  eventsKey,
  batchesKey,
  reportsKey,
  studentsKey,
  programsKey,
  billingCyclesKey,
  patientsKey,
  studentBillingKey,
} from '../lib/area-keys';
import { balancesKey } from '../lib/balances';
import { refreshable } from '../lib/business-mutation';
import { openLiveStream, type LiveStreamOptions } from '../lib/live-stream';
import { currentUserKey, useSession } from '../lib/session';

/**
 * The queries that show a kind of change (what the API's triggers notice: `business_changes`).
 * The header and menus read the business from the current user; a request's payments and figures
 * move its lists, its detail, the payers' request counts, the invoice it collects (whose state
 * follows the request's), the payments and total of the QR code it was paid through, the billing
 * reports, and (through the ledger's own notice) the balances. Payments out are one kind: payouts,
 * receivers, events and their check-ins.
 *
 * The templates' areas have no notice of their own: a student, program, billing cycle or patient
 * change is audited, and an audit event is a business notice; the people they bill are payers
 * (guardians, guarantors), and their requests' counts and balances move with a request (a billing
 * cycle's last run, too). A patient's record is an audited read and is never read again by a notice.
 */
export function liveQueryKeys(kind: LiveChangeKind, businessId: string): QueryKey[] {
  const templates = [studentsKey(businessId), programsKey(businessId), billingCyclesKey(businessId), patientsKey(businessId), studentBillingKey(businessId)];
  switch (kind) {
    case 'business':
      // Team changes are business notices too (the audit log, a person's role).
      return [currentUserKey, businessKey(businessId), teamKey(businessId), ...templates];
    case 'request':
      return [
        requestsKey(businessId),
        payersKey(businessId),
        invoicesKey(businessId),
        qrCodesKey(businessId),
        reportsKey(businessId),
        studentsKey(businessId),
        billingCyclesKey(businessId),
        patientsKey(businessId),
        studentBillingKey(businessId),
      ];
    case 'payer':
      return [payersKey(businessId), studentsKey(businessId), patientsKey(businessId), studentBillingKey(businessId)];
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
      // Each key once, however many of the burst's kinds name it.
      const keys = new Map<string, QueryKey>();
      for (const kind of kinds) for (const queryKey of liveQueryKeys(kind, businessId)) keys.set(JSON.stringify(queryKey), queryKey);
      kinds.clear();
      for (const queryKey of keys.values()) void queryClient.invalidateQueries({ queryKey, predicate: refreshable });
    };
    const changed = (kind: LiveChangeKind) => {
      kinds.add(kind);
      timer ??= setTimeout(flush, GATHER_MS);
    };
    const stop = openLiveStream(
      businessId,
      {
        onReady: (again) => {
          if (again) LIVE_CHANGE_KINDS.forEach(changed);
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
