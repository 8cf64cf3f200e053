import { z } from 'zod';
import { BusinessIdParams } from '../businesses/schemas';
import { defineEndpoint, type NotApprovedMessages } from '../common/endpoint';
import { MONEY_RULES } from '../common/money-rules';
import { listResponse, okResponse, PageQuery } from '../common/lists';
import { AREA } from '../common/areas';

/* ------------------------------------------------------------ receivers (ADR 035) */

/** `active` can be paid; `Disabled` (the business turned them off) cannot. */
export const ReceiverStatus = z.enum(['active', 'Disabled']);
export type ReceiverStatus = z.infer<typeof ReceiverStatus>;

/** `verified` exactly when the receiver has entered a bank account on their secure link. */
export const ReceiverVerification = z.enum(['unverified', 'verified']);
export type ReceiverVerification = z.infer<typeof ReceiverVerification>;

export const RECEIVER_STATUS_LABELS: Record<ReceiverStatus, string> = { active: 'Active', Disabled: 'Disabled' };
export const RECEIVER_VERIFICATION_LABELS: Record<ReceiverVerification, string> = { unverified: 'Waiting for bank account', verified: 'Verified' };

/** How long a receiver's secure link works. */
export const RECEIVER_LINK_DAYS = 7;

export const RECEIVER_FIELD_LIMITS = { firstName: 100, lastName: 100, email: 254, reference: 64 } as const;

/** How a receiver was added: by the team (Manage Receivers), or by a check-in on an event's page. */
export const ReceiverAddedVia = z.enum(['team', 'check_in']);
export type ReceiverAddedVia = z.infer<typeof ReceiverAddedVia>;

/** The flag a receiver not reviewed by an owner or admin carries, by how it was added. */
export const RECEIVER_REVIEW_LABELS: Record<ReceiverAddedVia, string> = {
  team: 'Added by a member, not reviewed',
  check_in: 'New from a check-in, not reviewed',
};

export const ReceiverAction = z.enum(['Edit', 'Enable', 'Disable', 'Transactions', 'Delete', 'Resend verification', 'Mark reviewed']);
export type ReceiverAction = z.infer<typeof ReceiverAction>;

/** Row actions: Delete only while no payout names the receiver; Mark reviewed while no owner or admin has. */
export function receiverActions(status: ReceiverStatus, payoutsCount: number, reviewed = true): ReceiverAction[] {
  return [
    ...(reviewed ? [] : (['Mark reviewed'] as const)),
    'Edit',
    status === 'active' ? 'Disable' : 'Enable',
    'Transactions',
    ...(payoutsCount === 0 ? (['Delete'] as const) : []),
    'Resend verification',
  ];
}

const requiredName = (label: string, max: number) =>
  z
    .string({ error: `Enter the ${label}.` })
    .trim()
    .min(1, `Enter the ${label}.`)
    .max(max, `Use at most ${max} characters.`);

/** A receiver's e-mail address, as typed anywhere (the business's form, the check-in page). */
export const receiverEmail = z
  .string({ error: 'Enter an e-mail address.' })
  .trim()
  .toLowerCase()
  .pipe(z.email('Enter a valid e-mail address.'))
  .pipe(z.string().max(RECEIVER_FIELD_LIMITS.email, `Use at most ${RECEIVER_FIELD_LIMITS.email} characters.`));

const optionalText = <T extends z.ZodType<string | null | undefined>>(inner: T) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), inner.nullable().optional());

export const ReceiverInput = z.object({
  firstName: requiredName('first name', RECEIVER_FIELD_LIMITS.firstName),
  lastName: requiredName('last name', RECEIVER_FIELD_LIMITS.lastName),
  email: receiverEmail,
  mobile: optionalText(
    z
      .string()
      .trim()
      .regex(/^\+[1-9]\d{7,14}$/, 'Enter a valid mobile number, such as +14155550123.'),
  ),
  reference: optionalText(z.string().trim().max(RECEIVER_FIELD_LIMITS.reference, `Use at most ${RECEIVER_FIELD_LIMITS.reference} characters.`)),
});
export type ReceiverInput = z.input<typeof ReceiverInput>;
export type ReceiverValues = z.output<typeof ReceiverInput>;

/** What the business sees of a receiver's bank account: never the full account number. */
export const ReceiverBank = z.object({
  bankName: z.string(),
  last4: z.string(),
  accountType: z.enum(['checking', 'savings']),
});
export type ReceiverBank = z.infer<typeof ReceiverBank>;

export const Receiver = z.object({
  receiverId: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  mobile: z.string().nullable(),
  reference: z.string().nullable(),
  verification: ReceiverVerification,
  status: ReceiverStatus,
  bank: ReceiverBank.nullable(),
  paidCount: z.number().int(),
  paidCents: z.number().int(),
  linkSentAt: z.string().nullable(),
  createdAt: z.string(),
  addedVia: ReceiverAddedVia,
  /**
   * Whether an owner or admin has seen this receiver: false for one a member or a check-in added,
   * until an owner or admin marks it reviewed or approves a payout to it. A bulk payout row leaves
   * out a receiver not reviewed.
   */
  reviewed: z.boolean(),
  actions: z.array(ReceiverAction),
});
export type Receiver = z.infer<typeof Receiver>;

export const ReceiverListQuery = PageQuery.extend({
  status: ReceiverStatus.optional(),
  verification: ReceiverVerification.optional(),
  /** `unreviewed`: only the receivers no owner or admin has reviewed yet. */
  review: z.enum(['unreviewed', 'reviewed']).optional(),
  sortBy: z.enum(['name', 'email', 'createdAt']).default('createdAt'),
});
export type ReceiverListQuery = z.input<typeof ReceiverListQuery>;

export const ReceiverIdParams = z.object({ id: z.string().min(1).max(64), receiverId: z.string().min(1).max(64) });

export const ReceiverResponse = okResponse(Receiver);
export const ReceiverListResponse = listResponse(Receiver);
export type ReceiverList = z.infer<typeof ReceiverListResponse>['data'];

/* ------------------------------------------------- the receiver's own page */

/** Whether the link takes bank details now: `open`, or `unavailable` (the business cannot pay out now). */
export const ReceiverLinkStatus = z.enum(['open', 'unavailable']);
export type ReceiverLinkStatus = z.infer<typeof ReceiverLinkStatus>;

export const PublicReceiverLink = z.object({
  businessName: z.string(),
  businessLogoUrl: z.string().nullable(),
  firstName: z.string(),
  status: ReceiverLinkStatus,
  statusMessage: z.string().nullable(),
  /** The account already on file, masked (a new one replaces it). */
  currentAccount: z.object({ bankName: z.string(), last4: z.string() }).nullable(),
  expiresAt: z.string(),
});
export type PublicReceiverLink = z.infer<typeof PublicReceiverLink>;

export const ReceiverTokenParams = z.object({ token: z.string().min(1).max(100) });
export const RoutingLookupParams = ReceiverTokenParams.extend({ routingNumber: z.string().regex(/^\d{9}$/, 'Enter the 9-digit routing number.') });

export const ReceiverBankAccountBody = z
  .object({
    accountHolderName: z
      .string({ error: 'Enter the name on the account.' })
      .trim()
      .min(1, 'Enter the name on the account.')
      .max(200, 'Use at most 200 characters.'),
    routingNumber: z
      .string({ error: 'Enter the 9-digit routing number.' })
      .trim()
      .regex(/^\d{9}$/, 'Enter the 9-digit routing number.'),
    accountNumber: z
      .string({ error: 'Enter the account number.' })
      .trim()
      .regex(/^\d{4,17}$/, 'Enter the account number: 4 to 17 digits.'),
    accountNumberConfirm: z.string({ error: 'Enter the account number again.' }).trim(),
    accountType: z.enum(['checking', 'savings'], { error: 'Choose checking or savings.' }),
  })
  .refine((b) => b.accountNumber === b.accountNumberConfirm, { message: 'The account numbers do not match.', path: ['accountNumberConfirm'] });
export type ReceiverBankAccountBody = z.input<typeof ReceiverBankAccountBody>;

export const ReceiverBankAccountOutcome = z.object({ bankName: z.string(), last4: z.string() });
export const RoutingLookup = z.object({ routingNumber: z.string(), valid: z.boolean(), bankName: z.string().nullable() });

/* ---------------------------------------------------------------- endpoints */

const tag = AREA.receivers;
const base = '/api/businesses/:id/receivers';
const notApproved: NotApprovedMessages = {
  pending: 'Receivers can be added once your business is approved.',
  disabled: 'This business is disabled, so it cannot pay receivers. Contact Tay support.',
};
const rules = ['approved', 'payoutsEnabled'] as const;
const read = { tag, access: 'business:read', rules, notApproved } as const;
const operate = { tag, access: 'business:operate', rules, notApproved } as const;

const command = (name: 'enable' | 'disable' | 'resend-link', summary: string) =>
  defineEndpoint({
    method: 'POST',
    path: `${base}/:receiverId/${name}`,
    summary,
    ...operate,
    params: ReceiverIdParams,
    response: ReceiverResponse,
    errors: [404, 409],
  });

export const receiverEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: base,
    summary: 'Receivers, searched, filtered, sorted and paged',
    ...read,
    params: BusinessIdParams,
    query: ReceiverListQuery,
    response: ReceiverListResponse,
  }),
  exportCsv: defineEndpoint({
    method: 'GET',
    path: `${base}/export`,
    summary: 'CSV export of the same query as the list',
    ...read,
    params: BusinessIdParams,
    query: ReceiverListQuery,
    response: { description: 'The receivers, one per line, under a header row', contentTypes: ['text/csv'], text: true },
  }),
  create: defineEndpoint({
    method: 'POST',
    path: base,
    summary: 'Add a receiver; e-mails them a secure link to enter their own bank account',
    ...operate,
    params: BusinessIdParams,
    body: ReceiverInput,
    status: 201,
    response: ReceiverResponse,
    errors: [409, 422],
  }),
  get: defineEndpoint({
    method: 'GET',
    path: `${base}/:receiverId`,
    summary: 'One receiver',
    ...read,
    params: ReceiverIdParams,
    response: ReceiverResponse,
    errors: [404],
  }),
  update: defineEndpoint({
    method: 'PATCH',
    path: `${base}/:receiverId`,
    summary: 'Edit a receiver (a new e-mail of an unverified receiver gets a new link)',
    ...operate,
    params: ReceiverIdParams,
    body: ReceiverInput,
    response: ReceiverResponse,
    errors: [404, 409, 422],
  }),
  remove: defineEndpoint({
    method: 'DELETE',
    path: `${base}/:receiverId`,
    summary: 'Delete a receiver no payout names',
    ...operate,
    params: ReceiverIdParams,
    status: 204,
    response: { description: 'Deleted; no body.', contentTypes: [] },
    errors: [404, 409],
  }),
  enable: command('enable', 'Let a Disabled receiver be paid again'),
  disable: command('disable', 'Stop a receiver being paid'),
  resendLink: command('resend-link', 'E-mail the receiver a new secure link; the previous one stops working'),
  review: defineEndpoint({
    method: 'POST',
    path: `${base}/:receiverId/review`,
    summary: 'Mark a receiver a member or a check-in added as reviewed by an owner or admin, so bulk payouts include them',
    tag,
    access: MONEY_RULES.approvePayout.access,
    rules,
    notApproved,
    params: ReceiverIdParams,
    response: ReceiverResponse,
    errors: [404, 409],
  }),
};

const publicTag = 'Receiver bank account page';
const publicPath = '/api/public/receivers/bank-account/:token';

/** The receiver's side (no sign-in): the secure link e-mailed to them. */
export const receiverLinkEndpoints = {
  get: defineEndpoint({
    method: 'GET',
    path: publicPath,
    summary: 'What the secure link shows: the business, the receiver’s first name, the account on file (masked)',
    tag: publicTag,
    access: 'public',
    params: ReceiverTokenParams,
    response: okResponse(PublicReceiverLink),
    errors: [404, 410, 429],
  }),
  routing: defineEndpoint({
    method: 'GET',
    path: `${publicPath}/routing/:routingNumber`,
    summary: 'Whether a routing number passes the checksum, and its bank’s name',
    tag: publicTag,
    access: 'public',
    params: RoutingLookupParams,
    response: okResponse(RoutingLookup),
    errors: [404, 410, 429],
  }),
  setAccount: defineEndpoint({
    method: 'POST',
    path: publicPath,
    summary: 'Enter the bank account: sealed, shown to the business masked; the link is used up',
    tag: publicTag,
    access: 'public',
    params: ReceiverTokenParams,
    body: ReceiverBankAccountBody,
    response: okResponse(ReceiverBankAccountOutcome),
    errors: [404, 409, 410, 422, 429],
  }),
};
