import type { Generated } from 'kysely';
import type { BatchKind, BatchMapping, BatchPhase, BatchRowStatus, BatchState } from '@tay/contract';

/** Bulk batches (migration 0029, ADR 032). */
export interface BatchesTable {
  business_id: string;
  id: string;
  kind: BatchKind;
  /** A payouts batch made from an event's check-ins (ADR 035). */
  event_id: Generated<string | null>;
  /** A student-billing batch made by a billing cycle's run (migration 0034). */
  billing_run_id: Generated<string | null>;
  file_name: string;
  file_bytes: number;
  file_sha256: string;
  encoding: string;
  delimiter: string;
  columns: string[];
  sample: Generated<string[][]>;
  file_rows: number;
  mapping: BatchMapping;
  state: Generated<BatchState>;
  phase: Generated<BatchPhase>;
  mapping_version: Generated<number>;
  progress_done: Generated<number>;
  progress_total: Generated<number>;
  heartbeat_at: Date | null;
  row_count: Generated<number>;
  valid_count: Generated<number>;
  invalid_count: Generated<number>;
  sent_count: Generated<number>;
  failed_count: Generated<number>;
  total_cents: Generated<number>;
  sent_cents: Generated<number>;
  /** For a kind sent in groups (migration 0041): the valid rows' groups, and the requests the sent rows made. */
  group_count: Generated<number>;
  sent_group_count: Generated<number>;
  send_mode: 'send' | 'schedule' | null;
  send_at: Date | null;
  submitted_at: Date | null;
  submitted_by_user_id: string | null;
  submitted_by: string | null;
  processed_at: Date | null;
  created_by_user_id: string;
  created_by: string;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface BatchFilesTable {
  business_id: string;
  batch_id: string;
  content: Buffer;
}

export interface BatchRowsTable {
  business_id: string;
  batch_id: string;
  line: number;
  status: BatchRowStatus;
  fields: Record<string, string>;
  errors: Generated<Record<string, string>>;
  plan: unknown;
  amount_cents: number | null;
  payer_name: string | null;
  dedupe_key: string | null;
  request_id: string | null;
}
