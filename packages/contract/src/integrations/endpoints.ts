import { defineEndpoint, type NotApprovedMessages } from '../common/endpoint';
import { BusinessIdParams } from '../businesses/schemas';
import {
  IntegrationCallbackParams,
  IntegrationCallbackQuery,
  IntegrationConnectResponse,
  IntegrationListResponse,
  IntegrationProviderParams,
  IntegrationResponse,
  PayerLinkBody,
  PayerLinkParams,
  SyncItemParams,
  SyncItemResponse,
  SyncLogQuery,
  SyncLogResponse,
} from './schemas';

const base = '/api/businesses/:id/integrations';
const tag = 'integrations';
const notApproved: NotApprovedMessages = {
  pending: 'Accounting integrations open once your business is approved.',
  disabled: 'This business is disabled, so its integrations are paused. Contact Tay support.',
};
const read = { access: 'business:read', rules: ['approved'], notApproved } as const;
const own = { access: 'business:owner', rules: ['approved'], notApproved } as const;

export const integrationEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: base,
    summary: 'QuickBooks Online and FreshBooks: each one’s connection, last sync, records synced and errors',
    tag,
    ...read,
    params: BusinessIdParams,
    response: IntegrationListResponse,
  }),
  connect: defineEndpoint({
    method: 'POST',
    path: `${base}/:provider/connect`,
    summary: 'Starts OAuth 2.0 (authorization code, PKCE): answers the provider’s consent page for the browser to open',
    tag,
    ...own,
    params: IntegrationProviderParams,
    response: IntegrationConnectResponse,
    // 503: the provider is not offered on this server (production without its credentials).
    errors: [503],
  }),
  sync: defineEndpoint({
    method: 'POST',
    path: `${base}/:provider/sync`,
    summary: 'Sync now: pushes payers, invoices and payments that are new or changed since their last push',
    tag,
    ...own,
    params: IntegrationProviderParams,
    status: 202,
    response: IntegrationResponse,
    errors: [409, 503],
  }),
  disconnect: defineEndpoint({
    method: 'DELETE',
    path: `${base}/:provider`,
    summary: 'Disconnects: revokes the tokens at the provider and forgets them; the sync log and record links are kept',
    tag,
    ...own,
    params: IntegrationProviderParams,
    response: IntegrationResponse,
  }),
  log: defineEndpoint({
    method: 'GET',
    path: `${base}/:provider/log`,
    summary: 'The sync log, newest first: each record pushed, when, its outcome and the provider’s own error message',
    tag,
    ...read,
    params: IntegrationProviderParams,
    query: SyncLogQuery,
    response: SyncLogResponse,
  }),
  logCsv: defineEndpoint({
    method: 'GET',
    path: `${base}/:provider/log.csv`,
    summary: 'The sync log as CSV, with the same filters (every matching entry, not one page)',
    tag,
    ...read,
    params: IntegrationProviderParams,
    query: SyncLogQuery,
    response: { description: 'One row per log entry, newest first', contentTypes: ['text/csv'], text: true },
  }),
  retryItem: defineEndpoint({
    method: 'POST',
    path: `${base}/:provider/records/:recordType/:recordId/retry`,
    summary: 'Retries one record of the sync log now (a failed push): answers the log entry it wrote',
    tag,
    ...own,
    params: SyncItemParams,
    response: SyncItemResponse,
    // 409: not connected, or a sync is running; 429: the provider asked us to wait; 503: not offered or unreachable.
    errors: [409, 429, 503],
  }),
  linkPayer: defineEndpoint({
    method: 'PUT',
    path: `${base}/:provider/payers/:payerId/link`,
    summary: 'Links a payer to a customer already at the provider: the next sync updates that one instead of creating another',
    tag,
    ...own,
    params: PayerLinkParams,
    body: PayerLinkBody,
    response: SyncItemResponse,
    // 409: not connected, a sync is running, or that customer is linked to another payer; 422: the provider has no such customer.
    errors: [409, 422, 429, 503],
  }),
};

/**
 * Where the provider sends the browser back. Not in the endpoint table's `business:*` shape: the
 * browser arrives without our bearer token, so the one-use `state` names the business and person.
 * It answers a redirect to `/business/setup/integrations?provider=…&connected=1` or `…&error=<words>`.
 */
export const INTEGRATION_CALLBACK_PATH = '/api/integrations/:provider/callback';
export { IntegrationCallbackParams, IntegrationCallbackQuery };
