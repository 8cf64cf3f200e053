import type { PaymentMethod } from '@tay/contract';

/**
 * The payment processor as the rest of the API sees it (ARCHITECTURE.md §5). The built-in sandbox
 * processor implements it; a real processor plugs in by configuration. Card and account numbers
 * never pass through this port: the payer's browser exchanges them for a token with the
 * processor directly (its hosted card field), and we only ever handle that token.
 */
export interface PaymentProcessor {
  /** Shown to the browser to create tokens; which key depends on the environment (docs/product.md §7). */
  readonly publishableKey: string;
  /** Where the browser loads the processor's script / hosted field from. */
  readonly elementsUrl: string;
  /** What a token stands for, without charging it; null for an unknown or used token. */
  describeToken(token: string): Promise<InstrumentInfo | null>;
  /**
   * Charges a token once per idempotency key (our payment id): calling again with the same key
   * returns the first result and never charges twice.
   */
  charge(request: ChargeRequest): Promise<ChargeResult>;
  /**
   * Credits a receiver's bank account once per idempotency key (our payout id): calling again
   * with the same key returns the first result and never pays twice. `pending` means the credit is
   * on its way; `payout.paid` or `payout.returned` follows by webhook (ADR 035).
   */
  sendPayout(request: PayoutRequest): Promise<PayoutResult>;
  /**
   * Refunds part or all of a captured charge once per idempotency key (our refund id): calling
   * again with the same key returns the first result and never refunds twice. A card's refund
   * succeeds at once; a bank account's is `pending` until `refund.succeeded` or `refund.failed`
   * arrives by webhook (ADR 051).
   */
  refund(request: RefundRequest): Promise<RefundResult>;
  /**
   * Sends the business's answer to a dispute (ADR 051): the processor puts it under review, and
   * `dispute.closed` (won or lost) follows by webhook. Sending the same answer again changes nothing.
   */
  submitDisputeEvidence(request: DisputeEvidenceRequest): Promise<DisputeResult>;
  /** Gives the dispute up: it closes as lost, the amount staying with the payer. Accepting again changes nothing. */
  acceptDispute(request: { processorDisputeId: string }): Promise<DisputeResult>;
}

export interface DisputeEvidenceRequest {
  processorDisputeId: string;
  /** The text fields, by name. */
  text: Record<string, string>;
  /** The files' names (their content stays with us in the sandbox; a real processor takes uploads). */
  fileNames: string[];
}

export type ProcessorDisputeStatus = 'needs_response' | 'under_review' | 'won' | 'lost';

export type DisputeResult = { ok: true; status: ProcessorDisputeStatus } | { ok: false; failureMessage: string };

export type DisputeEventType = 'dispute.created' | 'dispute.updated' | 'dispute.closed';

/** The processor's word on a dispute of one of our charges (ADR 051). */
export interface DisputeProcessorEvent {
  id: string;
  type: DisputeEventType;
  /** Seconds since the epoch. */
  created: number;
  data: {
    processorDisputeId: string;
    chargeId: string;
    amountCents: number;
    reason: string;
    status: ProcessorDisputeStatus;
    /** Seconds since the epoch: the evidence must arrive by then. */
    evidenceDueBy: number;
    metadata: { businessId: string; paymentId: string; requestId: string };
  };
}

export interface RefundMetadata {
  businessId: string;
  paymentId: string;
  refundId: string;
}

export interface RefundRequest {
  chargeId: string;
  amountCents: number;
  idempotencyKey: string;
  metadata: RefundMetadata;
}

export type RefundResult =
  | { status: 'succeeded' | 'pending'; processorRefundId: string }
  | { status: 'failed'; processorRefundId: string | null; failureCode: string; failureMessage: string };

export type RefundEventType = 'refund.succeeded' | 'refund.failed';

/** The processor's word on a refund it accepted. */
export interface RefundProcessorEvent {
  id: string;
  type: RefundEventType;
  /** Seconds since the epoch. */
  created: number;
  data: {
    processorRefundId: string;
    amountCents: number;
    metadata: RefundMetadata;
    failureCode?: string;
    failureMessage?: string;
  };
}

export interface PayoutDestination {
  routingNumber: string;
  accountNumber: string;
  accountHolderName: string;
  accountType: 'checking' | 'savings';
}

export interface PayoutRequest {
  amountCents: number;
  idempotencyKey: string;
  destination: PayoutDestination;
  metadata: PayoutMetadata;
}

export interface PayoutMetadata {
  businessId: string;
  payoutId: string;
}

export type PayoutResult =
  { status: 'pending'; processorPayoutId: string } | { status: 'failed'; processorPayoutId: string | null; failureCode: string; failureMessage: string };

export interface InstrumentInfo {
  method: PaymentMethod;
  /** "Visa •••• 4242", "Tay Sandbox Bank •••• 6789". */
  label: string;
}

export interface ChargeRequest {
  token: string;
  amountCents: number;
  idempotencyKey: string;
  metadata: { businessId: string; paymentId: string; requestId: string };
}

export type ChargeResult =
  /** Card captured: the money is ours, settlement follows (webhook `charge.settled`). */
  | { status: 'succeeded'; chargeId: string; instrument: InstrumentInfo }
  /** Bank debit started: `charge.succeeded` or `charge.failed` follows by webhook. */
  | { status: 'pending'; chargeId: string; instrument: InstrumentInfo }
  | { status: 'failed'; chargeId: string | null; failureCode: string; failureMessage: string; instrument: InstrumentInfo | null };

/** Events the processor sends to POST /api/webhooks/processor (signed, see routes/webhooks.ts). */
export type ProcessorEventType = 'charge.succeeded' | 'charge.settled' | 'charge.failed' | 'charge.returned';
export type PayoutEventType = 'payout.paid' | 'payout.returned';

/** The processor's word on a payout it accepted (ADR 035). */
export interface PayoutProcessorEvent {
  id: string;
  type: PayoutEventType;
  /** Seconds since the epoch. */
  created: number;
  data: {
    processorPayoutId: string;
    amountCents: number;
    metadata: PayoutMetadata;
    failureCode?: string;
    failureMessage?: string;
  };
}

export interface ProcessorEvent {
  id: string;
  type: ProcessorEventType;
  /** Seconds since the epoch. */
  created: number;
  data: {
    chargeId: string;
    amountCents: number;
    metadata: { businessId: string; paymentId: string; requestId: string };
    failureCode?: string;
    failureMessage?: string;
  };
}
