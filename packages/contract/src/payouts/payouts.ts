import { z } from 'zod';
import { BusinessIdParams } from '../businesses/schemas';
import { boundedDay } from '../common/day-schemas';
import { defineEndpoint, type NotApprovedMessages } from '../common/endpoint';
import { MONEY_RULES } from '../common/money-rules';
import { okResponse, PageQuery } from '../common/lists';
import { formatMoney, MAX_AMOUNT_CENTS } from '../common/money';
import { ConfirmAmountBody, confirmedAmountCents, IdempotencyHeaders } from '../payment-requests/schemas';
import { AREA } from '../common/areas';

/* ---------------------------------------------------------------- payouts (ADR 035) */

/** `Draft → Submitted → Approved → Processed | Rejected | Error`, `Draft|Submitted → Cancelled`. */
export const PayoutState = z.enum(['Draft', 'Submitted', 'Approved', 'Processed', 'Rejected', 'Error', 'Cancelled']);
export type PayoutState = z.infer<typeof PayoutState>;

export const PAYOUT_STATE_LABELS: Record<PayoutState, string> = {
  Draft: 'Draft',
  Submitted: 'Submitted',
  Approved: 'Approved',
  Processed: 'Processed',
  Rejected: 'Rejected',
  Error: 'Error',
  Cancelled: 'Cancelled',
};

/** The 409 code of an approval the available balance does not cover. */
export const INSUFFICIENT_BALANCE = 'INSUFFICIENT_BALANCE';

export const PayoutAction = z.enum(['Edit', 'Submit', 'Approve', 'Reject', 'Cancel', 'Copy']);
export type PayoutAction = z.infer<typeof PayoutAction>;

/** Which actions a payout in this state takes (the role and the submitter are checked by the API). */
export function payoutActions(state: PayoutState): PayoutAction[] {
  switch (state) {
    case 'Draft':
      return ['Edit', 'Submit', 'Cancel', 'Copy'];
    case 'Submitted':
      return ['Approve', 'Reject', 'Cancel', 'Copy'];
    default:
      return ['Copy'];
  }
}

/** `PAY-1000`: how a payout is named to people. */
export const payoutReference = (number: number) => `PAY-${number}`;

/** The amount, then the fee: what an approval takes from the available balance, in words. */
export function shortfallMessage(neededCents: number, availableCents: number): string {
  return `Approving needs ${formatMoney(neededCents - availableCents)} more than the available balance of ${formatMoney(availableCents)}.`;
}

const amount = z
  .number({ error: 'Enter the amount to pay.' })
  .int('Amounts are whole cents.')
  .positive('Enter an amount above $0.00.')
  .max(MAX_AMOUNT_CENTS, 'The amount is above the $10,000,000.00 limit.');

/** A payout to create or edit (a Draft). `submit`: submit it at once (approved at once when no second approver is needed). */
export const PayoutInput = z.object({
  receiverId: z.string({ error: 'Choose the receiver to pay.' }).trim().min(1, 'Choose the receiver to pay.').max(64),
  amountCents: amount,
  memo: z.string().trim().max(500, 'Keep the memo to 500 characters.').default(''),
  payOn: boundedDay('Pay date').nullable().optional(),
});
export type PayoutInput = z.input<typeof PayoutInput>;
export type PayoutValues = z.output<typeof PayoutInput>;

export const CreatePayoutBody = PayoutInput.extend({ submit: z.boolean().optional(), confirmedAmountCents });
export type CreatePayoutBody = z.input<typeof CreatePayoutBody>;

export const RejectPayoutBody = z.object({
  reason: z
    .string({ error: 'Say why the payout is rejected.' })
    .trim()
    .min(1, 'Say why the payout is rejected.')
    .max(500, 'Keep the reason to 500 characters.'),
});
export const BatchApprovalBody = z.object({ batchId: z.string().trim().min(1, 'Name the batch.').max(64) });
export const BatchRejectionBody = BatchApprovalBody.merge(RejectPayoutBody);

export const Payout = z.object({
  payoutId: z.string(),
  number: z.number().int(),
  /** PAY-<number>. */
  reference: z.string(),
  receiverId: z.string(),
  receiverName: z.string(),
  receiverEmail: z.string(),
  /** Whether an owner or admin has reviewed the receiver (one a member or a check-in added is not, until then): the approval queue flags it. */
  receiverReviewed: z.boolean(),
  amountCents: z.number().int(),
  /** Fixed at approval; 0 before. */
  feeCents: z.number().int(),
  memo: z.string(),
  payOn: z.string().nullable(),
  state: PayoutState,
  batchId: z.string().nullable(),
  eventId: z.string().nullable(),
  rejectReason: z.string().nullable(),
  failureReason: z.string().nullable(),
  submittedBy: z.string().nullable(),
  submittedAt: z.string().nullable(),
  /** The member who created it (a user id): with a second approver required, they may not approve it either. */
  createdByUserId: z.string().nullable(),
  /** Submitted while the business required a second approver: it keeps that rule whatever the setting says now. */
  secondApproverRequired: z.boolean(),
  approvedBy: z.string().nullable(),
  approvedAt: z.string().nullable(),
  processedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  actions: z.array(PayoutAction),
});
export type Payout = z.infer<typeof Payout>;

export const PayoutTimelineEntry = z.object({
  event: z.string(),
  fromState: PayoutState.nullable(),
  toState: PayoutState.nullable(),
  detail: z.string().nullable(),
  actor: z.string().nullable(),
  at: z.string(),
});
export type PayoutTimelineEntry = z.infer<typeof PayoutTimelineEntry>;

export const PayoutDetail = Payout.extend({
  /** The receiver now: where the money goes, masked. */
  receiver: z.object({
    name: z.string(),
    email: z.string(),
    bankName: z.string().nullable(),
    /** `•••• 1234`. */
    accountMasked: z.string().nullable(),
    verified: z.boolean(),
    active: z.boolean(),
  }),
  timeline: z.array(PayoutTimelineEntry),
});
export type PayoutDetail = z.infer<typeof PayoutDetail>;

export const PayoutSortBy = z.enum(['createdAt', 'amount', 'receiver']);

export const PayoutListQuery = PageQuery.extend({
  state: PayoutState.optional(),
  receiverId: z.string().max(64).optional(),
  batchId: z.string().max(64).optional(),
  from: boundedDay('From date').optional(),
  to: boundedDay('To date').optional(),
  sortBy: PayoutSortBy.default('createdAt'),
});
export type PayoutListQuery = z.input<typeof PayoutListQuery>;

export const PayoutTotals = z.object({ count: z.number().int(), amountCents: z.number().int(), feeCents: z.number().int() });
export type PayoutTotals = z.infer<typeof PayoutTotals>;

export const PayoutListResponse = z.object({
  status: z.literal('Success'),
  data: z.object({ items: z.array(Payout), page: z.number(), pageSize: z.number(), total: z.number(), totals: PayoutTotals }),
});
export type PayoutList = z.infer<typeof PayoutListResponse>['data'];

export const PayoutSummary = z.object({
  availableCents: z.number().int(),
  inFlightCents: z.number().int(),
  paidThisMonthCents: z.number().int(),
  paidThisMonthCount: z.number().int(),
  waitingCount: z.number().int(),
  waitingCents: z.number().int(),
  approvalRequired: z.boolean(),
  feeCents: z.number().int(),
  recent: z.array(Payout),
});
export type PayoutSummary = z.infer<typeof PayoutSummary>;

export const PayoutSettings = z.object({
  approvalRequired: z.boolean(),
  /** The fee per payout (read-only, from the configuration). */
  feeCents: z.number().int(),
});
export type PayoutSettings = z.infer<typeof PayoutSettings>;
export const PayoutSettingsBody = z.object({ approvalRequired: z.boolean({ error: 'Say whether approval is required.' }) });

export const PayoutIdParams = z.object({ id: z.string().min(1).max(64), payoutId: z.string().min(1).max(64) });

export const PayoutResponse = okResponse(Payout);
export const PayoutDetailResponse = okResponse(PayoutDetail);
export const PayoutBatchResponse = okResponse(z.object({ payouts: z.array(Payout) }));

/* ---------------------------------------------------------------- endpoints */

const tag = AREA.payouts;
const base = '/api/businesses/:id/payouts';
const notApproved: NotApprovedMessages = {
  pending: 'Payouts can be made once your business is approved.',
  disabled: 'This business is disabled, so it cannot make payouts. Contact Tay support.',
};
const rules = ['approved', 'payoutsEnabled'] as const;
const read = { tag, access: 'business:read', rules, notApproved } as const;
const operate = { tag, access: 'business:operate', rules, notApproved } as const;
/** Approving and rejecting move the money: who may is `MONEY_RULES.approvePayout` (asked again inside the approval's transaction). */
const approve = { tag, access: MONEY_RULES.approvePayout.access, rules, notApproved } as const;
const write = { tag, access: 'business:write', rules, notApproved } as const;

const command = (name: 'approve' | 'cancel', summary: string, access: typeof operate | typeof approve) =>
  defineEndpoint({
    method: 'POST',
    path: `${base}/:payoutId/${name}`,
    summary,
    ...access,
    params: PayoutIdParams,
    // Approving moves the money, so it honours an Idempotency-Key; cancelling only releases it.
    ...(name === 'approve' ? { headers: IdempotencyHeaders } : {}),
    response: PayoutDetailResponse,
    errors: [404, 409, 422],
  });

export const payoutEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: base,
    summary: 'Payouts, filtered, sorted and paged, with totals',
    ...read,
    params: BusinessIdParams,
    query: PayoutListQuery,
    response: PayoutListResponse,
  }),
  exportCsv: defineEndpoint({
    method: 'GET',
    path: `${base}/export`,
    summary: 'CSV export of the same query as the list',
    ...read,
    params: BusinessIdParams,
    query: PayoutListQuery,
    response: { description: 'The payouts, one per line, under a header row', contentTypes: ['text/csv'], text: true },
  }),
  summary: defineEndpoint({
    method: 'GET',
    path: `${base}/summary`,
    summary: 'The payouts dashboard: available, in flight, paid out this month, waiting for approval, the latest payouts',
    ...read,
    params: BusinessIdParams,
    response: okResponse(PayoutSummary),
  }),
  create: defineEndpoint({
    method: 'POST',
    path: base,
    summary: 'Create a payout to a verified receiver (a Draft, or submitted at once with `submit`); honours Idempotency-Key',
    ...operate,
    params: BusinessIdParams,
    headers: IdempotencyHeaders,
    body: CreatePayoutBody,
    status: 201,
    response: PayoutDetailResponse,
    errors: [409, 422],
  }),
  get: defineEndpoint({
    method: 'GET',
    path: `${base}/:payoutId`,
    summary: 'One payout with its timeline',
    ...read,
    params: PayoutIdParams,
    response: PayoutDetailResponse,
    errors: [404],
  }),
  update: defineEndpoint({
    method: 'PATCH',
    path: `${base}/:payoutId`,
    summary: 'Edit a Draft payout',
    ...operate,
    params: PayoutIdParams,
    body: PayoutInput,
    response: PayoutDetailResponse,
    errors: [404, 409, 422],
  }),
  remove: defineEndpoint({
    method: 'DELETE',
    path: `${base}/:payoutId`,
    summary: 'Delete a Draft payout',
    ...operate,
    params: PayoutIdParams,
    status: 204,
    response: { description: 'Deleted; no body.', contentTypes: [] },
    errors: [404, 409],
  }),
  submit: defineEndpoint({
    method: 'POST',
    path: `${base}/:payoutId/submit`,
    summary:
      "Submit a Draft: an owner's or admin's is approved at once unless the business requires a second approver; a member's waits for an owner or admin; honours Idempotency-Key",
    ...operate,
    params: PayoutIdParams,
    headers: IdempotencyHeaders,
    body: ConfirmAmountBody,
    response: PayoutDetailResponse,
    errors: [404, 409, 422],
  }),
  approve: command(
    'approve',
    'Approve a Submitted payout (an owner or admin): reserves amount and fee from the available balance; honours Idempotency-Key',
    approve,
  ),
  cancel: command('cancel', 'Cancel a Draft or Submitted payout', operate),
  reject: defineEndpoint({
    method: 'POST',
    path: `${base}/:payoutId/reject`,
    summary: 'Reject a Submitted payout, with a reason',
    ...approve,
    params: PayoutIdParams,
    body: RejectPayoutBody,
    response: PayoutDetailResponse,
    errors: [404, 409, 422],
  }),
  approveBatch: defineEndpoint({
    method: 'POST',
    path: `${base}/approve-batch`,
    summary: "Approve all a bulk batch's Submitted payouts, all or none",
    ...approve,
    params: BusinessIdParams,
    headers: IdempotencyHeaders,
    body: BatchApprovalBody,
    response: PayoutBatchResponse,
    errors: [404, 409, 422],
  }),
  rejectBatch: defineEndpoint({
    method: 'POST',
    path: `${base}/reject-batch`,
    summary: "Reject all a bulk batch's Submitted payouts, with a reason",
    ...approve,
    params: BusinessIdParams,
    body: BatchRejectionBody,
    response: PayoutBatchResponse,
    errors: [404, 409, 422],
  }),
  getSettings: defineEndpoint({
    method: 'GET',
    path: '/api/businesses/:id/payout-settings',
    summary: 'Whether payouts need a second approver, and the fee per payout',
    ...read,
    params: BusinessIdParams,
    response: okResponse(PayoutSettings),
  }),
  updateSettings: defineEndpoint({
    method: 'PATCH',
    path: '/api/businesses/:id/payout-settings',
    summary: 'Turn the second approver on or off',
    ...write,
    params: BusinessIdParams,
    body: PayoutSettingsBody,
    response: okResponse(PayoutSettings),
    errors: [422],
  }),
};
