/** Times on a named clock, labelled with it: the contract's (packages/contract/src/common/zoned-time.ts). */
export { formatZonedDate, formatZonedDateTime, zoneLabel } from '@tay/contract';
