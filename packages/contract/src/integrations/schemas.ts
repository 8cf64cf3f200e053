import { z } from 'zod';
import { BusinessIdParams } from '../businesses/schemas';
import { listResponse, okResponse, PageQuery } from '../common/lists';

/**
 * Accounting integrations (issue 24, ADR 041): a business connects QuickBooks Online or FreshBooks
 * by OAuth 2.0, and Tay pushes its payers (customers), invoices, the payments applied to them and
 * the refunds of those payments (QuickBooks refund receipts, FreshBooks credit notes). Each record
 * is linked to the provider's id, so a second sync updates instead of duplicating.
 */
export const IntegrationProvider = z.enum(['quickbooks', 'freshbooks']);
export type IntegrationProvider = z.infer<typeof IntegrationProvider>;
export const INTEGRATION_PROVIDERS = IntegrationProvider.options;

export const INTEGRATION_PROVIDER_LABELS: Record<
  IntegrationProvider,
  {
    name: string;
    description: string;
    customer: string;
    company: string;
    /** What a refund becomes there. */
    refund: string;
  }
> = {
  quickbooks: {
    name: 'QuickBooks Online',
    description:
      'Your payers become QuickBooks customers, your invoices QuickBooks invoices, each payment is applied to its invoice, and each refund becomes a refund receipt.',
    customer: 'Customer',
    company: 'company',
    refund: 'Refund receipt',
  },
  freshbooks: {
    name: 'FreshBooks',
    description:
      'Your payers become FreshBooks clients, your invoices FreshBooks invoices, each payment is applied to its invoice, and each refund becomes a credit note.',
    customer: 'Client',
    company: 'account',
    refund: 'Credit note',
  },
};

/**
 * - `not_connected`: never connected, or disconnected (the sync log and the links to the
 *   provider's records are kept: connecting the same company again updates rather than duplicates);
 * - `connected`: tokens held, syncing;
 * - `needs_reconnect`: the provider refused or revoked the tokens; nothing is lost, a new Connect resumes.
 */
export const IntegrationState = z.enum(['not_connected', 'connected', 'needs_reconnect']);
export type IntegrationState = z.infer<typeof IntegrationState>;
export const INTEGRATION_STATE_LABELS: Record<IntegrationState, string> = {
  not_connected: 'Not connected',
  connected: 'Connected',
  needs_reconnect: 'Needs reconnecting',
};

/** A sync run: queued (Sync now, or a change to push), running, then its outcome. */
export const IntegrationSyncState = z.enum(['idle', 'queued', 'running']);
export type IntegrationSyncState = z.infer<typeof IntegrationSyncState>;

export const Integration = z.object({
  provider: IntegrationProvider,
  /** Offered on this server: its credentials are configured (or, outside production, its stand-in answers). */
  available: z.boolean(),
  state: IntegrationState,
  /** The provider's company (QuickBooks company name, FreshBooks business name). */
  companyName: z.string().nullable(),
  /** The provider's account: QuickBooks realm id, FreshBooks account id. */
  accountId: z.string().nullable(),
  connectedAt: z.iso.datetime({ offset: true }).nullable(),
  connectedBy: z.string().nullable(),
  syncState: IntegrationSyncState,
  lastSyncAt: z.iso.datetime({ offset: true }).nullable(),
  /** Of the last finished run: records pushed (created or updated) and records that failed. */
  lastSyncPushed: z.number().int().nullable(),
  lastSyncFailed: z.number().int().nullable(),
  /** Records linked to the provider's ids in all (customers, invoices, payments, refunds). */
  recordsSynced: z.number().int(),
  /** Records whose last push failed and that no later push fixed. */
  errors: z.number().int(),
  /** Why it needs reconnecting, or why the last run stopped, in words. */
  problem: z.string().nullable(),
});
export type Integration = z.infer<typeof Integration>;

export const IntegrationListResponse = okResponse(z.array(Integration));
export const IntegrationResponse = okResponse(Integration);

export const IntegrationProviderParams = BusinessIdParams.extend({ provider: IntegrationProvider });

/** Connect answers the provider's consent page; the browser goes there and comes back to the callback. */
export const IntegrationConnectResponse = okResponse(z.object({ url: z.url() }));

/** The provider sends the browser back with these (QuickBooks adds `realmId`; a refusal sends `error`). */
export const IntegrationCallbackQuery = z.object({
  code: z.string().max(2000).optional(),
  state: z.string().max(200).optional(),
  realmId: z.string().max(100).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(500).optional(),
});
export const IntegrationCallbackParams = z.object({ provider: IntegrationProvider });

/** `refund`: a succeeded refund of a payment on an invoice (a QuickBooks refund receipt, a FreshBooks credit note). */
export const SyncRecordType = z.enum(['customer', 'invoice', 'payment', 'refund']);
export type SyncRecordType = z.infer<typeof SyncRecordType>;
export const SYNC_RECORD_TYPE_LABELS: Record<SyncRecordType, string> = { customer: 'Payer', invoice: 'Invoice', payment: 'Payment', refund: 'Refund' };

/** Every push goes from Tay to the provider; `connection` entries (connect, refresh, revoke) have no record. */
export const SyncDirection = z.enum(['push', 'connection']);
export type SyncDirection = z.infer<typeof SyncDirection>;

/** `voided`: a payment pushed earlier was returned, and taken back at the provider. */
export const SyncOutcome = z.enum(['created', 'updated', 'voided', 'failed', 'info']);
export type SyncOutcome = z.infer<typeof SyncOutcome>;
export const SYNC_OUTCOME_LABELS: Record<SyncOutcome, string> = { created: 'Created', updated: 'Updated', voided: 'Voided', failed: 'Failed', info: 'Note' };

export const SyncLogEntry = z.object({
  id: z.string(),
  at: z.iso.datetime({ offset: true }),
  direction: SyncDirection,
  /** Null for a connection entry. */
  recordType: SyncRecordType.nullable(),
  /** Our record's id and what the business calls it ("Jane Doe", "Invoice #12", "Payment of $40.00 on Invoice #12", "Refund of $10.00 on Invoice #12"). */
  recordId: z.string().nullable(),
  recordLabel: z.string(),
  remoteId: z.string().nullable(),
  outcome: SyncOutcome,
  /** The provider's own error message for a failure; what happened for a connection entry. */
  message: z.string().nullable(),
});
export type SyncLogEntry = z.infer<typeof SyncLogEntry>;

export const SyncLogQuery = PageQuery.extend({
  recordType: SyncRecordType.optional(),
  outcome: SyncOutcome.optional(),
});
export const SyncLogResponse = listResponse(SyncLogEntry);

/** One record of the sync log, by its type and our id: a failed push retried on its own. */
export const SyncItemParams = IntegrationProviderParams.extend({ recordType: SyncRecordType, recordId: z.string().min(1).max(100) });
/** What became of one record retried or linked: the sync log's entry written for it. */
export const SyncItemResponse = okResponse(SyncLogEntry);

/** A payer linked by hand to a record already at the provider (a QuickBooks customer, a FreshBooks client). */
export const PayerLinkParams = IntegrationProviderParams.extend({ payerId: z.string().min(1).max(100) });
export const PayerLinkBody = z.object({
  /** The provider's id of the existing customer (QuickBooks: the `nameId` in its address; FreshBooks: the client's number). */
  remoteId: z
    .string()
    .trim()
    .min(1, 'Enter the id of the existing record.')
    .max(20, 'An id is at most 20 digits.')
    .regex(/^\d+$/, 'An id is digits only, as in the record’s address at the provider.'),
});

/** Words the page and the API share. */
export const INTEGRATION_MESSAGES = {
  invalidState: 'Invalid state in OAuth flow',
  denied: 'The connection was cancelled at the provider: nothing was connected.',
  codeRejected: 'The provider did not accept the authorization (it may have expired): connect again.',
  timedOut: 'The provider did not answer within 10 seconds: connect again.',
  tokenRefused: 'The provider refused our access (it was revoked or expired): reconnect to resume syncing. Nothing was lost.',
  notConnected: 'Connect this integration first.',
  syncQueued: 'Sync started.',
} as const;

/**
 * Why the callback could not connect, as a code in the page's address (`?error=invalid_state`): the
 * page shows only these words, so a link cannot put other text on it. The provider's own words, when
 * it gave any, are in the sync log.
 */
export const IntegrationCallbackError = z.enum([
  'invalid_state',
  'denied',
  'refused',
  'code_rejected',
  'timed_out',
  'unreachable',
  'not_available',
  'company_in_use',
]);
export type IntegrationCallbackError = z.infer<typeof IntegrationCallbackError>;

export function integrationCallbackMessage(code: string, provider: IntegrationProvider): string {
  const name = INTEGRATION_PROVIDER_LABELS[provider].name;
  const known = IntegrationCallbackError.safeParse(code);
  if (!known.success) return `${name} was not connected. Try Connect again.`;
  switch (known.data) {
    case 'invalid_state':
      return INTEGRATION_MESSAGES.invalidState;
    case 'denied':
      return INTEGRATION_MESSAGES.denied;
    case 'refused':
      return `${name} refused the connection; its reason is in the sync log.`;
    case 'code_rejected':
      return INTEGRATION_MESSAGES.codeRejected;
    case 'timed_out':
      return INTEGRATION_MESSAGES.timedOut;
    case 'unreachable':
      return `${name} could not be reached: connect again in a few minutes.`;
    case 'not_available':
      return integrationNotAvailable(provider);
    case 'company_in_use':
      return integrationCompanyInUse(provider);
  }
}

/**
 * One provider company, one Tay business (ADR 041, issue 35): a callback whose company is connected
 * to another business connects nothing, and says what to do.
 */
export function integrationCompanyInUse(provider: IntegrationProvider): string {
  const { name, company } = INTEGRATION_PROVIDER_LABELS[provider];
  return `This ${name} ${company} is already connected to another Tay business, so it was not connected here. An owner of that business must disconnect it there first; then connect it here again, or choose another ${company}.`;
}

/** A provider this server does not offer (production without its credentials): the page and the API say it alike. */
export const integrationNotAvailable = (provider: IntegrationProvider) =>
  `${INTEGRATION_PROVIDER_LABELS[provider].name} is not available on this server yet. Contact Tay support.`;

/** Spec §9: "OAuth wait is 10 seconds" — the longest the code-for-token exchange may take. */
export const OAUTH_WAIT_MS = 10_000;
/** How long a `state` (and its PKCE verifier) waits for the browser to come back. */
export const OAUTH_STATE_TTL_SECONDS = 600;
