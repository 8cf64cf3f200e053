import { sql, type Kysely } from 'kysely';
import {
  formatMoney,
  getHref,
  parseMoney,
  paths,
  payoutReference,
  SEARCH_HITS_PER_GROUP,
  SEARCH_KIND_LABELS,
  SearchKind,
  type SearchHit,
  type SearchResult,
} from '@tay/contract';
import type { DB } from '../../db/schema';
import type { ScopedBusiness } from '../businesses/business-scope';
import { invoiceNumber, parseInvoiceReference } from '../invoices/invoice-number';
import { invoiceNumberOf } from '../invoices/invoice-source';
import { parseReferenceNumber, referenceNumber } from '../payment-requests/request-record';

/** How many of the business's newest requests a memo is looked for in: a bounded read, however large the history. */
const MEMO_WINDOW = 20_000;
const LIMIT = SEARCH_HITS_PER_GROUP;

const contains = (column: string, needle: string) => sql<boolean>`strpos(lower(${sql.ref(column)}), ${needle}) > 0`;

function parsePayoutReference(text: string): number | null {
  const match = /^pay-?(\d{1,9})$/i.exec(text.trim());
  return match ? Number(match[1]) : null;
}

/**
 * GET …/search?q= (the header's search, issue 35): each group reads its own table, at most five
 * hits, on the indexes its list uses — a TRX-, INV- or PAY- number exactly, an amount exactly, a
 * memo among the newest requests, names, e-mails and references by their text. A group shows
 * only where the business has it: students and patients by template, receivers and payouts when
 * payouts are enabled.
 */
export async function searchBusiness(db: Kysely<DB>, { business, q }: { business: ScopedBusiness; q: string }): Promise<SearchResult> {
  const text = q.trim();
  const needle = text.toLowerCase();
  const trx = parseReferenceNumber(text);
  const inv = parseInvoiceReference(text);
  const pay = parsePayoutReference(text);
  const amount = /\d/.test(text) ? parseMoney(text.replace(/^\$/, '')) : null;
  const b = business.id;

  const requests = async (): Promise<SearchHit[]> => {
    const rows = await db
      .selectFrom('payment_requests')
      .select(['id', 'number', 'payer_display_name', 'amount_cents', 'state', 'memo', 'source_kind', 'source_number'])
      .where('business_id', '=', b)
      .where((eb) => {
        const any = [];
        if (trx !== null) any.push(eb('number', '=', trx));
        if (inv !== null) any.push(eb.and([eb('source_kind', '=', 'invoice'), eb('source_number', '=', inv)]));
        if (amount !== null && amount > 0) any.push(eb('amount_cents', '=', amount));
        any.push(
          eb(
            'id',
            'in',
            db.selectFrom('payment_requests as w').select('w.id').where('w.business_id', '=', b).orderBy('w.created_at', 'desc').limit(MEMO_WINDOW),
          ).and(eb.or([contains('memo', needle), contains('reference', needle)])),
        );
        return eb.or(any);
      })
      .orderBy('created_at', 'desc')
      .limit(LIMIT)
      .execute();
    return rows.map((r) => ({
      kind: 'requests',
      id: r.id,
      title: `${referenceNumber(r.number)}${invoiceNumberOf(r) === null ? '' : ` (${invoiceNumberOf(r)})`} · ${r.payer_display_name}`,
      detail: [formatMoney(Number(r.amount_cents)), r.state, r.memo].filter(Boolean).join(' · '),
      href: getHref(paths.payments.history, undefined, { transid: r.id }),
    }));
  };

  const invoices = async (): Promise<SearchHit[]> => {
    const rows = await db
      .selectFrom('invoices')
      .select(['id', 'number', 'payer_display_name', 'total_cents', 'state'])
      .where('business_id', '=', b)
      .where((eb) =>
        eb.or([
          ...(inv !== null ? [eb('number', '=', inv)] : []),
          ...(amount !== null && amount > 0 ? [eb('total_cents', '=', amount)] : []),
          contains('payer_display_name', needle),
        ]),
      )
      .orderBy('number', 'desc')
      .limit(LIMIT)
      .execute();
    return rows.map((r) => ({
      kind: 'invoices',
      id: r.id,
      title: `${invoiceNumber(r.number)} · ${r.payer_display_name}`,
      detail: `${formatMoney(Number(r.total_cents))} · ${r.state}`,
      href: getHref(`${paths.payments.invoices}/details`, undefined, { invoiceid: r.id }),
    }));
  };

  const payers = async (): Promise<SearchHit[]> => {
    const rows = await db
      .selectFrom('payers')
      .select(['id', 'display_name', 'email', 'reference', 'status'])
      .where('business_id', '=', b)
      .where((eb) => eb.or([contains('display_name', needle), contains('email', needle), contains('reference', needle)]))
      .orderBy(sql`lower(display_name)`)
      .limit(LIMIT)
      .execute();
    return rows.map((r) => ({
      kind: 'payers',
      id: r.id,
      title: r.display_name,
      detail: [r.email, r.reference, r.status === 'active' ? '' : 'Deactivated'].filter(Boolean).join(' · '),
      href: getHref(paths.payers.transactions, undefined, { payerId: r.id }),
    }));
  };

  const students = async (): Promise<SearchHit[]> => {
    const rows = await db
      .selectFrom('students')
      .select(['id', 'first_name', 'last_name', 'student_number'])
      .where('business_id', '=', b)
      .where((eb) => eb.or([contains('first_name', needle), contains('last_name', needle), eb(sql`lower(student_number)`, '=', needle)]))
      .orderBy(sql`lower(last_name), lower(first_name)`)
      .limit(LIMIT)
      .execute();
    return rows.map((r) => ({
      kind: 'students',
      id: r.id,
      title: `${r.first_name} ${r.last_name}`,
      detail: `Student id ${r.student_number}`,
      href: getHref(paths.entity.studentEdit, undefined, { studentId: r.id }),
    }));
  };

  const patients = async (): Promise<SearchHit[]> => {
    const rows = await db
      .selectFrom('patients')
      .select(['id', 'first_name', 'last_name', 'mrn'])
      .where('business_id', '=', b)
      .where((eb) => eb.or([contains('first_name', needle), contains('last_name', needle), eb(sql`lower(mrn)`, '=', needle)]))
      .orderBy(sql`lower(last_name), lower(first_name)`)
      .limit(LIMIT)
      .execute();
    return rows.map((r) => ({
      kind: 'patients',
      id: r.id,
      title: `${r.first_name} ${r.last_name}`,
      detail: `MRN ${r.mrn}`,
      href: getHref(paths.entity.healthcareClientEdit, undefined, { clientId: r.id }),
    }));
  };

  const qrCodes = async (): Promise<SearchHit[]> => {
    const rows = await db
      .selectFrom('qr_codes')
      .select(['id', 'label', 'status'])
      .where('business_id', '=', b)
      .where((eb) => eb.or([contains('label', needle), contains('memo', needle)]))
      .orderBy(sql`lower(label)`)
      .limit(LIMIT)
      .execute();
    return rows.map((r) => ({
      kind: 'qrCodes',
      id: r.id,
      title: r.label,
      detail: r.status === 'active' ? 'Active' : 'Disabled',
      href: getHref(paths.payments.qrCodeTransactions, undefined, { qrcodeid: r.id }),
    }));
  };

  const receivers = async (): Promise<SearchHit[]> => {
    const rows = await db
      .selectFrom('receivers')
      .select(['id', 'first_name', 'last_name', 'email', 'reference'])
      .where('business_id', '=', b)
      .where((eb) =>
        eb.or([sql<boolean>`strpos(lower(first_name || ' ' || last_name), ${needle}) > 0`, contains('email', needle), contains('reference', needle)]),
      )
      .orderBy(sql`lower(last_name), lower(first_name)`)
      .limit(LIMIT)
      .execute();
    return rows.map((r) => ({
      kind: 'receivers',
      id: r.id,
      title: `${r.first_name} ${r.last_name}`,
      detail: [r.email, r.reference].filter(Boolean).join(' · '),
      href: getHref(paths.payouts.receivers, undefined, { search: r.email }),
    }));
  };

  const payouts = async (): Promise<SearchHit[]> => {
    if (pay === null && (amount === null || amount <= 0)) return [];
    const rows = await db
      .selectFrom('payouts')
      .select(['id', 'number', 'receiver_name', 'amount_cents', 'state'])
      .where('business_id', '=', b)
      .where((eb) => eb.or([...(pay !== null ? [eb('number', '=', pay)] : []), ...(amount !== null && amount > 0 ? [eb('amount_cents', '=', amount)] : [])]))
      .orderBy('created_at', 'desc')
      .limit(LIMIT)
      .execute();
    return rows.map((r) => ({
      kind: 'payouts',
      id: r.id,
      title: `${payoutReference(Number(r.number))} · ${r.receiver_name}`,
      detail: `${formatMoney(Number(r.amount_cents))} · ${r.state}`,
      href: getHref(paths.payouts.transactions, undefined, { payoutId: r.id }),
    }));
  };

  const searchers: Record<SearchKind, (() => Promise<SearchHit[]>) | null> = {
    requests,
    invoices,
    payers,
    students: business.entityType === 'student' ? students : null,
    patients: business.entityType === 'healthCare' ? patients : null,
    qrCodes,
    receivers: business.payoutEnabled ? receivers : null,
    payouts: business.payoutEnabled ? payouts : null,
  };
  const groups = [];
  for (const kind of SearchKind.options) {
    const run = searchers[kind];
    if (!run) continue;
    const hits = await run();
    if (hits.length > 0) groups.push({ kind, label: SEARCH_KIND_LABELS[kind], hits });
  }
  return { query: text, groups };
}
