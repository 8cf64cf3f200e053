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
}

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
