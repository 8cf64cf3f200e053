import { defineEndpoint } from '../common/endpoint';
import { BusinessIdParams } from '../businesses/schemas';

export const liveEndpoints = {
  events: defineEndpoint({
    method: 'GET',
    path: '/api/businesses/:id/changes',
    summary: 'Live notices of the business’s changes (members only; text/event-stream)',
    description:
      'A `text/event-stream`: `event: ready` once live, then `event: change` with `{ "kind": "business" | "request" | "payer" | "balances", "id": string | null }` ' +
      'for each change (`id` null: several changed). Notices say what changed, never what it is now: read that from the usual endpoints. ' +
      'Comment lines every 25 s keep the connection open. After a reconnect, read everything shown afresh: notices are not replayed.',
    tag: 'live',
    access: 'business:read',
    params: BusinessIdParams,
    response: { description: 'The stream of notices', contentTypes: ['text/event-stream'], text: true },
    errors: [429, 503],
  }),
};
