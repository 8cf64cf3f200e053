/**
 * The payer's pages' endpoints and the rules their forms check with, imported when a call is made
 * or the payer first touches the page (`payerEndpoints`, ADR 049): building their schemas was the
 * largest single piece of work of the pay page on a phone, and the page's first read comes with
 * its HTML (ADR 047), so most visits make their first call when the payer pays.
 */
export { payerPageEndpoints, qrPayerEndpoints, QrPaymentBody } from '@tay/contract';
