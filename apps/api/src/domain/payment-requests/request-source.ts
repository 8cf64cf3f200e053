import type { PaymentRequestValues, PublicPayPage } from '@tay/contract';
import type { Transaction } from 'kysely';
import type { Executor } from '../../db/executor';
import type { DB } from '../../db/schema';
import type { SourceRecordJson } from '../../db/schema/payments';
import type { AppError } from '../../lib/app-error';
import type { AttachmentRecipe, MailMessage } from '../../mail/mailer';
import type { RequestEmailKind } from './request-emails';
import type { RequestRow } from './request-record';

/**
 * What a request is made for (ADR 045): itself, or a source's record — an invoice, a payment
 * through a QR code, a student's charge, a patient's statement, and whatever comes next. The
 * request carries the source's kind, its record's id and number, and the record itself; the core
 * (`payment-requests/`) stores them and calls the kind's {@link RequestSourceDefinition} wherever
 * the source has a say, and names no source itself. Every kind is listed once, in
 * `apps/api/src/domain/request-sources/index.ts`.
 */
export interface RequestSource {
  kind: string;
  /** The id of the source's own record (the invoice, the QR code, the student, the patient), if it has one. */
  id: string | null;
  /** The source's own number (42 of INV-0042), if it has one: found by the searches. */
  number: number | null;
  /** Under `list`, the fields the request's history item shows for it (the contract's names and form); beside it, what the source keeps for itself. */
  record: SourceRecordJson;
}

/** The commands of a request's row actions (Send, Resend, Withdraw, Cancel). */
export type RequestCommand = 'send' | 'resend' | 'withdraw' | 'cancel';

/** A request made for itself: a single request, or a bulk batch's row. */
export const OWN_SOURCE: RequestSource = { kind: 'request', id: null, number: null, record: { list: {} } };

/** A table the source's e-mail carries under its lines (a statement's), as text lines and as HTML. */
export interface MessageTable {
  text: string[];
  html: string;
}

/** A column of the history's CSV that a source fills. */
export interface SourceExportColumn {
  header: string;
  /** Where it goes: after the TRX- reference, after the sent time, or at the end. */
  at: 'afterReference' | 'afterSent' | 'end';
  /** Shown for every business, or only for a business of this template (the student or healthcare one). */
  template?: string;
  value(row: RequestRow): string;
}

/** A filter of the history that reads the source: its query parameter and what it compares. */
export interface SourceFilter {
  /** The list query's parameter (`qrId`, `studentId`, …). */
  param: string;
  /**
   * The source's record id (`source_id`), or a path in its record (`source #>> '{list,period}'`;
   * indexed by the source's migration). `any` (for the record id) is the value meaning "any record
   * of this kind".
   */
  on: { id: true; any?: string } | { path: readonly string[] };
  /**
   * Runs in the page's transaction when the filter is used, after the page was read (a patient's
   * statements read by the history are a view of the patient's record).
   */
  onRead?(trx: Executor, read: { businessId: string; value: string; user: Reader }): Promise<void>;
}

/** Who reads or exports the history, for the records a source keeps of it. */
export interface Reader {
  id: string;
  email: string;
  name: string | null;
  ip: string | null;
}

/** What a source adds to the payer's page. */
export type PayPageFields = Partial<Pick<PublicPayPage, 'invoice' | 'forStudent' | 'forPatient' | 'statement'>>;

/**
 * A kind of source, as the core calls it. Every hook is optional: a kind says only where it
 * differs from a request made for itself.
 */
export interface RequestSourceDefinition {
  kind: string;
  /** What its timeline's creation says ("For invoice INV-0042"), when it says more than nothing. */
  createdDetail?(source: RequestSource): string | null;
  /** A line its messages add under the opening ("For Mia Lopez — Piano, December 2026"). */
  messageLine?(row: RequestRow): string | null;
  /** A table its e-mail adds under the lines (a patient's statement). */
  messageTable?(row: RequestRow): MessageTable | null;
  /** What paying in parts is called ("a payment plan"). */
  partsCalled?: string;
  /** How its text message names it ("invoice INV-0042"), instead of the TRX- number. */
  textReference?(row: RequestRow): string | null;
  /** Its own e-mail instead of the request's (an invoice sends the invoice, and its PDF). */
  email?(db: Executor, row: RequestRow, businessName: string, kind: RequestEmailKind, link: string): Promise<MailMessage>;
  /** The files its e-mails carry that the delivery job makes (an invoice's PDF), by recipe kind. */
  attachments?: Record<string, (db: Executor, recipe: AttachmentRecipe) => Promise<Uint8Array>>;
  /** A second payer sent the same message and link (a student's other guardian). */
  copyPayerId?(row: RequestRow): string | null;
  /** Why an edit of the request is refused (its amount or payer is the source's), or null. */
  editRefusal?(row: RequestRow, input: PaymentRequestValues): AppError | null;
  /** Why a command on the request is refused, or null (a payment through a code is the payer's); `verb` is the command's ("withdrawn"). */
  commandRefusal?(row: RequestRow, command: RequestCommand, verb: string): AppError | null;
  /** Runs in the transaction that deletes the request's draft (a student's charge is released). */
  onDraftDeleted?(trx: Transaction<DB>, row: RequestRow): Promise<void>;
  /** Whether a payment through its e-mailed link proves the payer's address (false: the payer typed it themselves). */
  verifiesPayer?: boolean;
  /** Whose tries its pay page's payment attempts count against, when not the link's own (a QR code's). */
  payAttempts?(row: RequestRow): { key: string; limit: { max: number; windowSeconds: number } };
  /** Reads a search text as the source's own number ("INV-0042" → 42), found in `source_number`. */
  searchNumber?(text: string): number | null;
  /** Fields of the request's detail (a QR payer's phone and note). */
  detail?(row: RequestRow): Record<string, unknown>;
  /** What the payer's page shows of it; `opened` when the payer opened the page (an invoice's timeline notes it). */
  payPage?(db: Executor, row: RequestRow, opened: boolean): Promise<PayPageFields>;
  /** Its columns in the history's CSV. */
  exportColumns?: readonly SourceExportColumn[];
  /** Its filters of the history. */
  filters?: readonly SourceFilter[];
  /**
   * The history's export holds its requests (a healthcare business's statements): told of each
   * batch before it goes out, and when the export ends.
   */
  exported?(
    db: Executor,
    read: { businessId: string; user: Reader; query: Record<string, unknown> },
  ): {
    before(rows: RequestRow[]): Promise<void>;
    end(): Promise<void>;
  } | null;
}
