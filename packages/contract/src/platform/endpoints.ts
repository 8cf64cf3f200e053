import { defineEndpoint } from '../common/endpoint';
import { HealthResponse, ReadyResponse } from './health';

export const platformEndpoints = {
  health: defineEndpoint({
    method: 'GET',
    path: '/api/health',
    summary: 'Liveness: the process answers',
    tag: 'system',
    access: 'public',
    response: HealthResponse,
  }),
  ready: defineEndpoint({
    method: 'GET',
    path: '/api/ready',
    summary: 'Readiness: the database answers',
    tag: 'system',
    access: 'public',
    response: ReadyResponse,
    errors: [503],
  }),
};
