/**
 * The payer's pages' endpoints, imported when a call is made (`payerEndpoints`): building their
 * schemas was the largest single piece of work of the pay page on a phone, and the page's first
 * read comes with its HTML (ADR 047), so most visits make their first call when the payer pays.
 */
export { payerPageEndpoints, qrPayerEndpoints } from '@tay/contract';
