import { z } from 'zod';
import { EventIdParams } from '../batches/schemas';
import { BusinessIdParams } from '../businesses/schemas';
import { boundedDateTime, boundedDay } from '../common/day-schemas';
import { defineEndpoint, type NotApprovedMessages } from '../common/endpoint';
import { listResponse, okResponse, PageQuery } from '../common/lists';
import { MAX_AMOUNT_CENTS } from '../common/money';
import { QrImageQuery } from '../qr-codes/schemas';
import { ReceiverAddedVia, receiverEmail, ReceiverVerification } from './receivers';
import { AREA } from '../common/areas';

/* --------------------------------------------------------------- events (ADR 035) */

/** The highest cap an event's check-ins may have. */
export const MAX_CHECK_INS = 100_000;

/** `active` takes check-ins; `Disabled` does not. */
export const EventStatus = z.enum(['active', 'Disabled']);
export type EventStatus = z.infer<typeof EventStatus>;
export const EVENT_STATUS_LABELS: Record<EventStatus, string> = { active: 'Active', Disabled: 'Disabled' };

export const EventAction = z.enum(['Edit', 'Enable', 'Disable', 'Event Check-Ins', 'Delete']);
export type EventAction = z.infer<typeof EventAction>;

/** Row actions: Delete only while no one has checked in. */
export function eventActions(status: EventStatus, checkInsCount: number): EventAction[] {
  return ['Edit', status === 'active' ? 'Disable' : 'Enable', 'Event Check-Ins', ...(checkInsCount === 0 ? (['Delete'] as const) : [])];
}

export const EventInput = z.object({
  name: z.string({ error: 'Give the event a name.' }).trim().min(1, 'Give the event a name.').max(100, 'Keep the name to 100 characters.'),
  eventDate: boundedDay('Event date'),
  place: z.string().trim().max(200, 'Keep the place to 200 characters.').default(''),
  amountCents: z
    .number({ error: 'Enter the amount per check-in.' })
    .int('Amounts are whole cents.')
    .positive('Enter an amount above $0.00.')
    .max(MAX_AMOUNT_CENTS, 'The amount is above the $10,000,000.00 limit.'),
  status: EventStatus.default('active'),
  /** At most this many check-ins (empty: no cap); the page then says the event is full. */
  maxCheckIns: z
    .number({ error: 'Enter the most check-ins as a whole number.' })
    .int('Enter the most check-ins as a whole number.')
    .min(1, 'Allow at least 1 check-in, or leave it empty for no cap.')
    .max(MAX_CHECK_INS, `At most ${MAX_CHECK_INS.toLocaleString('en-US')} check-ins.`)
    .nullable()
    .optional()
    .transform((v) => v ?? null),
  /** Check-ins close at this time (empty: while the event is active). */
  checkInsCloseAt: boundedDateTime('Check-ins close')
    .nullable()
    .optional()
    .transform((v) => v ?? null),
});
export type EventInput = z.input<typeof EventInput>;
export type EventValues = z.output<typeof EventInput>;

export const PayoutEvent = z.object({
  eventId: z.string(),
  name: z.string(),
  eventDate: z.string(),
  place: z.string(),
  amountCents: z.number().int(),
  status: EventStatus,
  checkInsCount: z.number().int(),
  maxCheckIns: z.number().int().nullable(),
  checkInsCloseAt: z.string().nullable(),
  /** Check-ins by receivers no owner or admin has reviewed yet ("Pay checked-in receivers" leaves them out until someone does). */
  unreviewedCheckInsCount: z.number().int().optional(),
  /** What the event's QR code encodes: PUBLIC_URL/checkin/<token>. */
  checkInUrl: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  actions: z.array(EventAction),
});
export type PayoutEvent = z.infer<typeof PayoutEvent>;

export const EventListQuery = PageQuery.extend({
  status: EventStatus.optional(),
  sortBy: z.enum(['createdAt', 'name', 'eventDate', 'checkIns']).default('createdAt'),
});
export type EventListQuery = z.input<typeof EventListQuery>;

export const EventImageQuery = QrImageQuery;

export const EventCheckIn = z.object({
  receiverId: z.string(),
  receiverName: z.string(),
  email: z.string(),
  verification: ReceiverVerification,
  checkedInAt: z.string(),
  /** The payout that paid this check-in, once one did. */
  payoutId: z.string().nullable(),
  addedVia: ReceiverAddedVia,
  /** Whether an owner or admin has reviewed the receiver: one a check-in added is left out of bulk payouts until then. */
  receiverReviewed: z.boolean(),
});
export type EventCheckIn = z.infer<typeof EventCheckIn>;

export const EventCheckInQuery = PageQuery.extend({ sortBy: z.enum(['checkedInAt', 'name']).default('checkedInAt') });
export type EventCheckInQuery = z.input<typeof EventCheckInQuery>;

export const EventResponse = okResponse(PayoutEvent);
export const EventListResponse = listResponse(PayoutEvent);
export type EventList = z.infer<typeof EventListResponse>['data'];
export const EventCheckInListResponse = z.object({
  status: z.literal('Success'),
  data: z.object({ event: PayoutEvent, items: z.array(EventCheckIn), page: z.number(), pageSize: z.number(), total: z.number() }),
});
export type EventCheckInList = z.infer<typeof EventCheckInListResponse>['data'];

/* ------------------------------------------------------ the check-in page */

/** `open`; `disabled` (the business turned the event off); `closed` (past its closing time); `full` (its cap reached); `unavailable` (the business cannot pay out now). */
export const CheckInPageStatus = z.enum(['open', 'disabled', 'closed', 'full', 'unavailable']);
export type CheckInPageStatus = z.infer<typeof CheckInPageStatus>;

export const PublicCheckInPage = z.object({
  businessName: z.string(),
  businessLogoUrl: z.string().nullable(),
  eventName: z.string(),
  eventDate: z.string(),
  place: z.string(),
  status: CheckInPageStatus,
  statusMessage: z.string().nullable(),
});
export type PublicCheckInPage = z.infer<typeof PublicCheckInPage>;

export const CheckInTokenParams = z.object({ token: z.string().min(1).max(100) });

const optionalName = z
  .string()
  .trim()
  .max(100, 'Use at most 100 characters.')
  .optional()
  .transform((v) => (v ? v : undefined));

export const CheckInBody = z.object({ email: receiverEmail, firstName: optionalName, lastName: optionalName });
export type CheckInBody = z.input<typeof CheckInBody>;

export const CheckInOutcome = z.object({
  /** `checked_in` now, or `already` (an earlier check-in stands). */
  result: z.enum(['checked_in', 'already']),
  checkedInAt: z.string(),
  firstName: z.string(),
  /** A new receiver: we e-mailed them the link to add their bank account. */
  newReceiver: z.boolean(),
  /** Whether they still have to enter a bank account to be paid. */
  needsBankAccount: z.boolean(),
  message: z.string(),
});
export type CheckInOutcome = z.infer<typeof CheckInOutcome>;

/* ---------------------------------------------------------------- endpoints */

const tag = AREA.events;
const base = '/api/businesses/:id/events';
const notApproved: NotApprovedMessages = {
  pending: 'Events can be created once your business is approved.',
  disabled: 'This business is disabled, so it cannot pay receivers. Contact Tay support.',
};
const rules = ['approved', 'payoutsEnabled'] as const;
const read = { tag, access: 'business:read', rules, notApproved } as const;
const operate = { tag, access: 'business:operate', rules, notApproved } as const;

const command = (name: 'enable' | 'disable', summary: string) =>
  defineEndpoint({ method: 'POST', path: `${base}/:eventId/${name}`, summary, ...operate, params: EventIdParams, response: EventResponse, errors: [404, 409] });

export const eventEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: base,
    summary: 'Events with their check-ins',
    ...read,
    params: BusinessIdParams,
    query: EventListQuery,
    response: EventListResponse,
  }),
  exportCsv: defineEndpoint({
    method: 'GET',
    path: `${base}/export`,
    summary: 'CSV export of the same query as the list',
    ...read,
    params: BusinessIdParams,
    query: EventListQuery,
    response: { description: 'The events, one per line, under a header row', contentTypes: ['text/csv'], text: true },
  }),
  create: defineEndpoint({
    method: 'POST',
    path: base,
    summary: 'Create an event with a check-in QR code',
    ...operate,
    params: BusinessIdParams,
    body: EventInput,
    status: 201,
    response: EventResponse,
    errors: [422],
  }),
  get: defineEndpoint({
    method: 'GET',
    path: `${base}/:eventId`,
    summary: 'One event',
    ...read,
    params: EventIdParams,
    response: EventResponse,
    errors: [404],
  }),
  update: defineEndpoint({
    method: 'PATCH',
    path: `${base}/:eventId`,
    summary: 'Edit an event (its printed code stays the same)',
    ...operate,
    params: EventIdParams,
    body: EventInput,
    response: EventResponse,
    errors: [404, 422],
  }),
  remove: defineEndpoint({
    method: 'DELETE',
    path: `${base}/:eventId`,
    summary: 'Delete an event no one has checked in to',
    ...operate,
    params: EventIdParams,
    status: 204,
    response: { description: 'Deleted; no body.', contentTypes: [] },
    errors: [404, 409],
  }),
  enable: command('enable', 'Let a Disabled event take check-ins again'),
  disable: command('disable', 'Stop an event taking check-ins; its page says so'),
  image: defineEndpoint({
    method: 'GET',
    path: `${base}/:eventId/image`,
    summary: 'The check-in code as a PNG (256–2048 px), an SVG, or a one-page PDF poster',
    ...read,
    params: EventIdParams,
    query: EventImageQuery,
    response: { description: 'The image', contentTypes: ['image/png', 'image/svg+xml', 'application/pdf'] },
    errors: [404, 422],
  }),
  checkIns: defineEndpoint({
    method: 'GET',
    path: `${base}/:eventId/check-ins`,
    summary: "The event's check-ins, with the payout that paid each",
    ...read,
    params: EventIdParams,
    query: EventCheckInQuery,
    response: EventCheckInListResponse,
    errors: [404],
  }),
  exportCheckIns: defineEndpoint({
    method: 'GET',
    path: `${base}/:eventId/check-ins/export`,
    summary: "CSV export of the event's check-ins",
    ...read,
    params: EventIdParams,
    query: EventCheckInQuery,
    response: { description: 'The check-ins, one per line, under a header row', contentTypes: ['text/csv'], text: true },
    errors: [404],
  }),
};

const publicTag = 'Event check-in page';

/** The receiver's side (no sign-in): what an event's QR code opens. */
export const checkInEndpoints = {
  get: defineEndpoint({
    method: 'GET',
    path: '/api/public/checkin/:token',
    summary: 'The event a code checks in to, and whether it takes check-ins now',
    tag: publicTag,
    access: 'public',
    params: CheckInTokenParams,
    response: okResponse(PublicCheckInPage),
    errors: [404],
  }),
  checkIn: defineEndpoint({
    method: 'POST',
    path: '/api/public/checkin/:token',
    summary: 'Check in by e-mail; a new e-mail with a name becomes an unverified receiver and gets the bank-account link',
    tag: publicTag,
    access: 'public',
    params: CheckInTokenParams,
    body: CheckInBody,
    response: okResponse(CheckInOutcome),
    errors: [404, 409, 422, 429],
  }),
};
