import { defineEndpoint } from '../common/endpoint';
import { BusinessIdParams } from '../businesses/schemas';
import { BalancesResponse } from './schemas';

export const balanceEndpoints = {
  get: defineEndpoint({
    method: 'GET',
    path: '/api/businesses/:id/balances',
    summary: 'The business’s balances from the ledger (members only)',
    tag: 'balances',
    access: 'business:read',
    params: BusinessIdParams,
    response: BalancesResponse,
  }),
};
