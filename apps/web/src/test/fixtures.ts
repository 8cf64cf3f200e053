import {
  type Batch,
  type BatchRow,
  invoiceActions,
  qrCodeActions,
  requestActions,
  type Business,
  type Invoice,
  type InvoiceDetail,
  type InvoiceState,
  type Patient,
  type Payer,
  type PayerSuggestion,
  type Program,
  type Student,
  type PaymentRequest,
  type PaymentRequestDetail,
  type RequestStatement,
  type StatementLine,
  type QrCode,
  type RequestState,
} from '@tay/contract';
import { BUSINESS_ID, ok, type FakeApi } from './page-harness';

// What the API answers, for page tests: contract types with plausible values and unique ids.
let seq = 0;

/**
 * A request to pay as the list and the detail return it, with its state's row actions (those of a
 * payment through a QR code when `over` gives a `qrCodeId`).
 */
export function request(over: Partial<PaymentRequest> & { transactionState?: RequestState } = {}): PaymentRequest {
  seq += 1;
  const state = over.transactionState ?? 'Sent';
  return {
    transactionId: `req_${seq}`,
    referenceNumber: `TRX-${10000 + seq}`,
    transactionState: state,
    payerId: 'pyr_pat',
    payerName: 'Pat Payer',
    payerEmail: 'pat@payers.example',
    amountCents: 12_500,
    amountPaidCents: 0,
    refundedCents: 0,
    memo: 'Spring term',
    reference: 'INV-7',
    dueDate: '2099-06-01',
    expiresOn: '2099-07-01',
    allowPartial: false,
    sendAt: null,
    sentAt: null,
    paidAt: null,
    createdAt: '2026-05-01T10:00:00.000Z',
    updatedAt: '2026-05-01T10:00:00.000Z',
    invoiceId: null,
    invoiceNumber: null,
    qrCodeId: null,
    qrCodeLabel: null,
    student: null,
    program: null,
    period: null,
    clientId: null,
    patientName: null,
    statement: null,
    ...over,
    actions: requestActions(state, Boolean(over.qrCodeId)),
  };
}

/**
 * A payment through a QR code by a walk-in payer (no payer record): Paid, with the name the API
 * gives such a payer, unless `over` says otherwise.
 */
export function qrPayment(over: Partial<PaymentRequest> & { transactionState?: RequestState } = {}): PaymentRequest {
  return request({
    transactionState: 'Paid',
    payerId: null,
    payerName: 'Walk-in payer',
    payerEmail: '',
    amountCents: 1_200,
    amountPaidCents: 1_200,
    refundedCents: 0,
    memo: '',
    reference: '',
    qrCodeId: 'qr_counter',
    qrCodeLabel: 'Front counter',
    ...over,
  });
}

/** A request's detail, sent by e-mail unless `over` says otherwise. */
export function detail(r: PaymentRequest, over: Partial<PaymentRequestDetail> = {}): PaymentRequestDetail {
  return { ...r, channel: 'email', timeline: [], payments: [], emails: [], payLink: '', batch: null, payerPhone: null, payerNote: null, ...over };
}

export const listOf = (items: PaymentRequest[], total = items.length) => ok({ items, page: 1, pageSize: 25, total });

/** An active, verified payer with no requests (so every row action, Delete included, is offered). */
export function payer(displayName: string, over: Partial<Payer> = {}): Payer {
  seq += 1;
  const [firstName = displayName, lastName = ''] = displayName.split(' ');
  return {
    payerId: `pyr_${seq}`,
    firstName,
    lastName,
    companyName: '',
    displayName,
    email: `payer${seq}@payers.example`,
    mobileNumber: null,
    reference: null,
    status: 'active',
    verification: 'verified',
    verificationSentAt: null,
    verifiedAt: '2026-01-02T00:00:00.000Z',
    transactionCount: 0,
    historyCount: 0,
    draftCount: 0,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...over,
  };
}

export const OWNER = {
  id: 'own_1',
  firstName: 'Maya',
  lastName: 'Lopez',
  title: 'Owner',
  ownershipPercent: 100,
  dateOfBirth: '1985-04-12',
  ssnLast4: '1234',
  email: 'maya@harbor.example',
  phone: null,
};

/** A business being set up: every section filled in unless `over` says otherwise. */
export function business(over: Partial<Business> = {}): Business {
  return {
    businessId: BUSINESS_ID,
    businessName: 'Harbor Music',
    businessState: 'Incomplete',
    payoutEnabled: 0,
    entities: [{ entityType: 'standard', entityTemplateName: 'Standard' }],
    businessProfile: {
      legalName: 'Harbor Music LLC',
      ein: '12-3456789',
      mcc: '8299',
      corporateStructure: 'llc',
      phone: '(415) 555-0100',
      email: 'hello@harbor.example',
      logoUrl: null,
    },
    address: { line1: '100 Market Street', line2: null, city: 'San Francisco', state: 'CA', postalCode: '94105', country: 'US' },
    owners: [OWNER],
    config: {
      timeZone: 'America/New_York',
      defaultExpiryDays: 30,
      reminderSchedule: [-3, 0, 3],
      invoiceTerms: null,
      confirmAboveCents: 1_000_000,
      amountCeilingCents: 1_000_000_000,
      allowNegativeBalance: false,
      timeZoneChosen: true,
    },
    automations: { autoReminders: true, autoExpire: true },
    bankAccount: {
      directoryId: 'sandbox-tay',
      accountNumber: '••••6789',
      routingNumber: '••••6656',
      bankName: 'Tay Sandbox Bank',
      institutionLogo: null,
      accountType: 'checking',
      accountHolderName: 'Harbor Music LLC',
    },
    submittedAt: null,
    approvedAt: null,
    stateReason: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...over,
  };
}

/** An approved business whose requests carry no reminders, on the time zone and invoice terms given. */
export function approvedBusiness(config: Partial<Business['config']> = {}): Business {
  const base = business();
  return business({ businessState: 'Approved', config: { ...base.config, reminderSchedule: [], ...config } });
}

/** A statement line: an office visit on the date of service, $75.00 left to the patient. */
export const OFFICE_VISIT: StatementLine = {
  serviceDate: '2026-11-20',
  description: 'Office visit',
  billedCents: 20_000,
  insurancePaidCents: 12_000,
  adjustmentCents: 500,
  responsibilityCents: 7_500,
};

/** A patient's statement of the given lines (one office visit unless told), dated Nov 20, 2026, with their totals. */
export function patientStatement(lines: StatementLine[] = [OFFICE_VISIT]): RequestStatement {
  const sum = (key: keyof Omit<StatementLine, 'serviceDate' | 'description'>) => lines.reduce((total, line) => total + line[key], 0);
  return {
    dateOfService: '2026-11-20',
    lines,
    totals: {
      billedCents: sum('billedCents'),
      insurancePaidCents: sum('insurancePaidCents'),
      adjustmentCents: sum('adjustmentCents'),
      responsibilityCents: sum('responsibilityCents'),
    },
  };
}

/** A batch as the API returns it: bat_1, a Draft of requests, validated, one valid row and one invalid. */
export function batch(over: Partial<Batch> = {}): Batch {
  return {
    batchId: 'bat_1',
    kind: 'requests',
    fileName: 'december.csv',
    fileBytes: 200,
    uploadedBy: 'owner@biz.example',
    createdAt: '2026-11-20T10:00:00.000Z',
    state: 'Draft',
    phase: 'validated',
    columns: ['Email', 'Amount', 'Due date'],
    sample: [],
    mapping: { payer: 'existing', columns: { email: 'Email', amount: 'Amount', dueDate: 'Due date' } },
    duplicateOf: null,
    counts: { rows: 2, valid: 1, invalid: 1, sent: 0, failed: 0 },
    totalCents: 12_550,
    sentCents: 0,
    progress: { done: 0, total: 0 },
    sendAt: null,
    submittedAt: null,
    submittedBy: null,
    processedAt: null,
    updatedAt: '2026-11-20T10:00:00.000Z',
    ...over,
  };
}

/** A batch's row as the review lists it: valid, nothing made from it yet. */
export function batchRow(row: number, over: Partial<BatchRow> = {}): BatchRow {
  return { row, status: 'valid', fields: {}, errors: {}, amountCents: null, payerName: null, requestId: null, referenceNumber: null, ...over };
}

/** The batch bat_1's rows and the business's clock, as a batch review reads them. */
export function answerBatchRows(fake: FakeApi, rows: BatchRow[]): void {
  fake.on('GET', `/api/businesses/${BUSINESS_ID}/batches/bat_1/rows`, ok({ items: rows, page: 1, pageSize: 25, total: rows.length }));
  fake.on('GET', `/api/businesses/${BUSINESS_ID}`, ok({ businessId: BUSINESS_ID, config: { timeZone: 'America/New_York' } }));
}

/** A program of the student template as the API returns it: Piano, $120.00 monthly from Sep 1, 2026, 3 of 10 places taken. */
export function program(over: Partial<Program> = {}): Program {
  return {
    programId: 'prg_1',
    name: 'Piano',
    description: '',
    feeCents: 12_000,
    frequency: 'monthly',
    startDate: '2026-09-01',
    endDate: null,
    capacity: 10,
    prorate: true,
    status: 'active',
    enrolledCount: 3,
    placesLeft: 7,
    createdAt: '2026-08-01T10:00:00.000Z',
    actions: ['Edit', 'Students', 'Enroll', 'Deactivate'],
    ...over,
  };
}

/** A student as the API returns it: Mia Lopez (S-1001), Year 5, with one guardian, Ana Lopez. */
export function student(over: Partial<Student> = {}): Student {
  return {
    studentId: 'stu_1',
    studentNumber: 'S-1001',
    firstName: 'Mia',
    lastName: 'Lopez',
    name: 'Mia Lopez',
    grade: 'Year 5',
    dateOfBirth: '2016-03-14',
    status: 'active',
    guardians: [
      { payerId: 'pyr_1', position: 1, name: 'Ana Lopez', firstName: 'Ana', lastName: 'Lopez', email: 'ana@families.example', mobile: null, status: 'active' },
    ],
    enrollments: [],
    programs: [],
    requestsCount: 0,
    createdAt: '2026-11-01T10:00:00.000Z',
    updatedAt: '2026-11-01T10:00:00.000Z',
    actions: ['Edit'],
    ...over,
  };
}

/** A payer as the payer picker's suggestions list them. */
export function payerSuggestion(p: Payer): PayerSuggestion {
  return { payerId: p.payerId, displayName: p.displayName, email: p.email, mobileNumber: p.mobileNumber, reference: p.reference, verification: p.verification };
}

/** An invoice as the API returns it (one line, 2 × $60.00, no tax), with its state's actions. */
export function invoice(over: Partial<Invoice> & { invoiceState?: InvoiceState } = {}): Invoice {
  seq += 1;
  const state = over.invoiceState ?? 'Sent';
  return {
    invoiceId: `inv_${seq}`,
    number: `INV-${String(seq).padStart(4, '0')}`,
    invoiceState: state,
    overdue: false,
    payerId: 'pyr_pat',
    payerName: 'Pat Payer',
    payerEmail: 'pat@payers.example',
    channel: 'email',
    issueDate: '2026-05-01',
    terms: 'net30',
    dueDate: '2026-05-31',
    items: [{ description: 'Piano lesson', quantity: 2, unitPriceCents: 6_000, taxRate: 0, amountCents: 12_000, discountCents: 0, taxCents: 0 }],
    discount: { type: 'none' },
    subtotalCents: 12_000,
    discountCents: 0,
    taxCents: 0,
    totalCents: 12_000,
    amountPaidCents: 0,
    balanceCents: 12_000,
    memo: '',
    footer: '',
    allowPartial: false,
    transactionId: state === 'Draft' ? null : `req_for_${seq}`,
    sendAt: null,
    sentAt: state === 'Draft' || state === 'Scheduled' ? null : '2026-05-01T10:00:00.000Z',
    paidAt: null,
    createdAt: '2026-05-01T09:00:00.000Z',
    updatedAt: '2026-05-01T10:00:00.000Z',
    ...over,
    actions: invoiceActions(state),
  };
}

/** An invoice's detail: its business, no payments, messages or timeline unless `over` says otherwise. */
export function invoiceDetail(i: Invoice, over: Partial<InvoiceDetail> = {}): InvoiceDetail {
  return { ...i, businessName: 'Harbor Music', timeline: [], payments: [], refundedCents: 0, emails: [], payLink: null, ...over };
}

/** The list's answer: the rows without their lines. */
export const invoiceListOf = (items: Invoice[], total = items.length, page = 1, pageSize = 25) =>
  ok({ items: items.map(({ items: _items, discount: _discount, memo: _memo, footer: _footer, ...row }) => row), page, pageSize, total });

/** A QR code as the API returns it: a fixed $12.00, active, with its status's row actions. */
export function qrCode(over: Partial<QrCode> = {}): QrCode {
  seq += 1;
  const status = over.status ?? 'active';
  const payments = over.payments ?? 0;
  return {
    qrId: `qr_${seq}`,
    label: `Counter ${seq}`,
    amountMode: 'fixed',
    amountCents: 1_200,
    minAmountCents: null,
    maxAmountCents: null,
    memo: '',
    askName: 'optional',
    askEmail: 'optional',
    askPhone: 'off',
    askNote: 'off',
    expiresOn: null,
    status,
    displayStatus: status,
    scans: 0,
    payments,
    collectedCents: 0,
    lastPaymentAt: null,
    payUrl: `https://tay.example/pay/qr/tok${seq}`,
    createdAt: '2026-05-01T10:00:00.000Z',
    updatedAt: '2026-05-01T10:00:00.000Z',
    ...over,
    actions: qrCodeActions(status, payments),
  };
}

/** A patient of the healthcare template, billed to a parent (their guarantor), with one open statement. */
export function patient(over: Partial<Patient> = {}): Patient {
  return {
    clientId: 'pat_1',
    mrn: 'MRN-1001',
    firstName: 'Leo',
    lastName: 'Lee',
    name: 'Leo Lee',
    dateOfBirth: '2016-04-02',
    dateOfBirthMasked: '••/••/2016',
    guarantor: { payerId: 'pyr_1', name: 'Sam Lee', email: 'sam@patients.example', mobile: null, relationship: 'parent', status: 'active' },
    status: 'active',
    statementsCount: 1,
    requestsCount: 1,
    outstandingCents: 5000,
    refundedCents: 0,
    createdAt: '2026-11-01T10:00:00.000Z',
    updatedAt: '2026-11-01T10:00:00.000Z',
    actions: ['Edit', 'Request to Pay', 'Transactions', 'Deactivate', 'Delete'],
    ...over,
  };
}
