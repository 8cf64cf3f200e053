// The contract between the API and the web app, by area. Each area holds its schemas and, as
// they move to the endpoint table, its endpoints (`<area>/endpoints.ts`); see ARCHITECTURE.md.
export * from './common/errors';
export * from './common/error-shape';
export * from './common/money';
export * from './common/dates';
export * from './common/lists';
export * from './common/csv';
export * from './common/endpoint';
export * from './platform/health';
export * from './platform/mail';
export * from './platform/routes';
export * from './platform/public-config';
export * from './platform/public-config-meta';
export * from './identity/schemas';
export * from './identity/messages';
export * from './businesses/schemas';
export * from './businesses/us-states';
export * from './payers/schemas';
export * from './payment-requests/schemas';
export * from './payer-pages/schemas';
export * from './balances/schemas';
export * from './live/schemas';
export * from './payers/endpoints';
export * from './payment-requests/endpoints';
