import { formatDay, formatMoney, patientStatementLine, statementTotals, type PaymentRequest, type RequestStatement } from '@tay/contract';
import type { StatementLineRecord } from '../../db/schema/patients';
import { AppError } from '../../lib/app-error';
import { escapeHtml } from '../payment-requests/request-emails';
import { sourceListOf, type RequestRow } from '../payment-requests/request-record';
import type { MessageTable, RequestSource, RequestSourceDefinition } from '../payment-requests/request-source';
import { exportFilters, recordPatientExportEvent, recordPatientExportViews, recordPatientView, viewActor } from '../patients/patient-views';

/**
 * The source record of a patient's statement (ADR 037): the patient, their name, their first name
 * (all the payer-facing pages and e-mails show of them), the date of service and the lines with
 * their totals. Whatever makes a statement request — one at a time, or a patient-billing batch —
 * makes it with this and an amount equal to the lines' responsibility total.
 */
export function statementSource(
  patient: { id: string; name: string; firstName: string },
  dateOfService: string,
  lines: readonly StatementLineRecord[],
): RequestSource {
  const ordered = lines.map((l) => ({
    serviceDate: l.serviceDate,
    description: l.description,
    billedCents: l.billedCents,
    insurancePaidCents: l.insurancePaidCents,
    adjustmentCents: l.adjustmentCents,
    responsibilityCents: l.responsibilityCents,
  }));
  const statement: RequestStatement = { dateOfService, lines: ordered, totals: statementTotals(ordered) };
  return {
    kind: 'patient',
    id: patient.id,
    number: null,
    record: {
      list: { clientId: patient.id, patientName: patient.name, statement } satisfies Pick<PaymentRequest, 'clientId' | 'patientName' | 'statement'>,
      patientFirstName: patient.firstName,
    },
  };
}

/** The statement a request carries, or null when it is not a patient's. */
export function requestStatement(row: Pick<RequestRow, 'source_kind' | 'source'>): RequestStatement | null {
  if (row.source_kind !== 'patient') return null;
  return (sourceListOf(row) as Pick<PaymentRequest, 'statement'>).statement ?? null;
}

/** "Statement for Ana — date of service Nov 20, 2026": the patient's first name, never their last name, date of birth or MRN. */
function lineOf(row: RequestRow): string | null {
  if (row.source_kind !== 'patient') return null;
  return patientStatementLine({
    patientFirstName: (row.source.patientFirstName as string | null | undefined) ?? null,
    dateOfService: requestStatement(row)?.dateOfService ?? null,
  });
}

const STATEMENT_PAYER_KEPT = "A statement is billed to the patient's guarantor; make a new statement to bill someone else.";

const STATEMENT_HEADER = ['Service date', 'Description', 'Billed', 'Insurance paid', 'Adjustment', 'Patient responsibility'];

/** The statement's lines and totals: as text lines, and as an HTML table for the e-mail's body. */
function tableOf(row: RequestRow): MessageTable | null {
  const statement = requestStatement(row);
  if (!statement) return null;
  const cells = statement.lines.map((l) => [
    formatDay(l.serviceDate),
    l.description,
    formatMoney(l.billedCents),
    formatMoney(l.insurancePaidCents),
    formatMoney(l.adjustmentCents),
    formatMoney(l.responsibilityCents),
  ]);
  const t = statement.totals;
  const totals = [
    '',
    'Total',
    formatMoney(t.billedCents),
    formatMoney(t.insurancePaidCents),
    formatMoney(t.adjustmentCents),
    formatMoney(t.responsibilityCents),
  ];
  const text = [
    ...cells.map((c) => `${c[0]} — ${c[1]}: billed ${c[2]}, insurance paid ${c[3]}, adjustment ${c[4]}, patient responsibility ${c[5]}`),
    `Total: billed ${totals[2]}, insurance paid ${totals[3]}, adjustment ${totals[4]}, patient responsibility ${totals[5]}`,
  ];
  const cell = (tag: 'th' | 'td', v: string, i: number) =>
    `<${tag} style="padding:4px 6px;border-bottom:1px solid #dee2e6;text-align:${i >= 2 ? 'right' : 'left'}">${escapeHtml(v)}</${tag}>`;
  const tr = (tag: 'th' | 'td', values: string[]) => `<tr>${values.map((v, i) => cell(tag, v, i)).join('')}</tr>`;
  const html = `<table style="border-collapse:collapse;font-size:13px;width:100%;margin:8px 0 16px"><thead>${tr('th', STATEMENT_HEADER)}</thead><tbody>${cells
    .map((c) => tr('td', c))
    .join('')}</tbody><tfoot>${tr('th', totals)}</tfoot></table>`;
  return { text, html };
}

/** The history's filters the audit log keeps of an export (a search as `true`). */
const HISTORY_FILTERS = [
  'view',
  'status',
  'payerId',
  'batchId',
  'qrId',
  'from',
  'to',
  'sentFrom',
  'sentTo',
  'paidFrom',
  'paidTo',
  'returnedFrom',
  'returnedTo',
  'minAmountCents',
  'maxAmountCents',
  'search',
] as const;

/** A patient's statement (ADR 037): its messages and page show the statement; reading or exporting statements is on the patient's record. */
export const patientStatementSource: RequestSourceDefinition = {
  kind: 'patient',
  messageLine: lineOf,
  messageTable: tableOf,
  partsCalled: 'a payment plan',
  editRefusal(row, input) {
    // Only a draft or a scheduled statement is edited at all; the core says so for the rest.
    if (row.state !== 'Draft' && row.state !== 'Pending') return null;
    // Its amount is the sum of its lines' patient responsibility: an edit keeps the lines and may change anything but the amount.
    if (input.amountCents !== row.amount_cents) {
      const instead = row.state === 'Pending' ? 'Cancel the scheduled statement' : 'Delete the draft';
      return AppError.validation(
        `This is a patient's statement: its amount is the total of its lines' patient responsibility and cannot be changed on its own. ${instead} and make a new statement to change its lines.`,
        { amountCents: `Keep the statement's total, ${formatMoney(row.amount_cents)}.` },
      );
    }
    // Its payer is the patient's guarantor: an edit may not bill someone else.
    if (input.payerId !== row.payer_id) return AppError.validation(STATEMENT_PAYER_KEPT, { payerId: STATEMENT_PAYER_KEPT });
    return null;
  },
  payPage: async (_db, row) => ({ forPatient: lineOf(row), statement: requestStatement(row) }),
  exportColumns: [
    {
      header: 'Patient',
      at: 'end',
      template: 'healthCare',
      value: (row) => (row.source_kind === 'patient' ? ((sourceListOf(row).patientName as string | null) ?? '') : ''),
    },
    {
      header: 'Date of service',
      at: 'end',
      template: 'healthCare',
      value: (row) => {
        const day = requestStatement(row)?.dateOfService;
        return day ? formatDay(day) : '';
      },
    },
  ],
  filters: [
    {
      param: 'clientId',
      on: { id: true },
      // The history (or its CSV) filtered to a patient shows their statements: when the id is a
      // patient of the business, one `statements` view of the record for the person reading it.
      async onRead(db, { businessId, value, user }) {
        const patient = await db.selectFrom('patients').select('id').where('business_id', '=', businessId).where('id', '=', value).executeTakeFirst();
        if (!patient) return;
        await recordPatientView(db, { businessId, patientId: patient.id, userId: user.id, actor: viewActor(user), what: 'statements', ipAddress: user.ip });
      },
    },
  ],
  /**
   * The history's export holds a healthcare business's statements, an export of patient data:
   * before each batch goes out, an `export` view of every patient whose statement it holds (once
   * per export); when it ends, finished or cut off, the audit log's `patients.exported` with how
   * many statements went (none: no entry). Filtered to one patient, it is a view of their record instead.
   */
  exported(db, { businessId, user, query }) {
    if (query.clientId) return null;
    const seen = new Set<string>();
    let count = 0;
    const who = { businessId, userId: user.id, actor: viewActor(user), ipAddress: user.ip };
    return {
      async before(rows) {
        const fresh: string[] = [];
        for (const r of rows) {
          if (r.source_kind !== 'patient' || r.source_id === null) continue;
          count++;
          if (!seen.has(r.source_id)) fresh.push(r.source_id);
          seen.add(r.source_id);
        }
        await recordPatientExportViews(db, { ...who, patientIds: fresh });
      },
      async end() {
        if (count === 0) return;
        await recordPatientExportEvent(db, { ...who, kind: 'history', count, patients: seen.size, filters: exportFilters(query, HISTORY_FILTERS) });
      },
    };
  },
};
