import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema';

export interface RequestSummary {
  /** Requests out with the payers and not yet paid in full. */
  openCount: number;
  openCents: number;
  paidCount: number;
  paidCents: number;
  draftCount: number;
  scheduledCount: number;
  needsAttentionCount: number;
}

/** The figures of the /business/payment landing page. */
export async function requestSummary({ db, businessId }: { db: Kysely<DB>; businessId: string }): Promise<RequestSummary> {
  // Kept by the database per state (migrations 0009, 0010): no request rows are read.
  const { rows } = await sql<{ state: string; n: number; amount: number; paid: number }>`
    SELECT state, n, amount_cents AS amount, amount_paid_cents AS paid
    FROM payment_request_counts WHERE business_id = ${businessId}`.execute(db);
  const by = (states: string[]) => rows.filter((r) => states.includes(r.state));
  const sum = (list: typeof rows, f: (r: (typeof rows)[number]) => number) => list.reduce((s, r) => s + Number(f(r)), 0);
  const open = by(['Sent', 'Resent', 'Accepted', 'PartiallyPaid', 'Error']);
  // What payers have paid, a payment still settling (Accepted) included, as the ledger's collected
  // figure counts it; an open request's outstanding amount leaves it out.
  const paid = by(['Paid', 'PartiallyPaid', 'Accepted']);
  return {
    openCount: sum(open, (r) => r.n),
    openCents: sum(open, (r) => r.amount - r.paid),
    paidCount: sum(by(['Paid']), (r) => r.n),
    paidCents: sum(paid, (r) => r.paid),
    draftCount: sum(by(['Draft']), (r) => r.n),
    scheduledCount: sum(by(['Pending']), (r) => r.n),
    needsAttentionCount: sum(by(['Error', 'Rejected', 'Expired']), (r) => r.n),
  };
}
