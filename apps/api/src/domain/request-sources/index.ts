import { invoiceRequestSource } from '../invoices/invoice-source';
import { patientStatementSource } from '../patient-statements/statement-source';
import type { Executor } from '../../db/executor';
import type { AttachmentRecipe, AttachmentRenderer } from '../../mail/mailer';
import type { RequestSourceDefinition } from '../payment-requests/request-source';
import { qrPaymentSource } from '../qr-codes/qr-source';
import { studentRequestSource } from '../student-requests/student-source';

/** A request made for itself (a single request, a bulk batch's row): the core's defaults throughout. */
const ownRequest: RequestSourceDefinition = { kind: 'request' };

/**
 * Every kind of source a request can have (ADR 045), each defined by its area; the core asks
 * `sourceOf(row.source_kind)` wherever a source has a say. A new kind is a definition added here
 * and a row of `request_source_kinds` (its history keys) in its migration.
 */
export const REQUEST_SOURCES: readonly RequestSourceDefinition[] = [
  ownRequest,
  invoiceRequestSource,
  qrPaymentSource,
  studentRequestSource,
  patientStatementSource,
];

const byKind = new Map(REQUEST_SOURCES.map((s) => [s.kind, s]));

export function sourceOf(kind: string): RequestSourceDefinition {
  const source = byKind.get(kind);
  if (!source) throw new Error(`No request source of kind ${kind}: add its definition to REQUEST_SOURCES.`);
  return source;
}

/** The renderers of the e-mail attachments every source's messages carry (made in the delivery job), by kind. */
export function attachmentRenderers(db: Executor): Record<string, AttachmentRenderer> {
  return Object.fromEntries(
    REQUEST_SOURCES.flatMap((source) =>
      Object.entries(source.attachments ?? {}).map(([kind, render]) => [kind, (recipe: AttachmentRecipe) => render(db, recipe)]),
    ),
  );
}
