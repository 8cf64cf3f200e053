import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  BusinessResponse,
  ErrorResponse,
  listResponse,
  PaymentRequest,
  PaymentRequestDetail,
  requestActions,
  type Business,
  type PaymentRequest as Item,
} from '@tay/contract';
import { responseSerializer } from './response-serializer';

const serializerFor = (schema: z.ZodType) => responseSerializer({ schema, method: 'GET', url: '/test', httpStatus: '200' });
/** What zod's own serializer writes: the payload validated, then stringified. */
const viaZod = (schema: z.ZodType, data: unknown) => JSON.stringify(z.encode(schema, data));

const item = (n: number, overrides: Partial<Item> = {}): Item => ({
  transactionId: `req_${n}`,
  referenceNumber: `TRX-${1000 + n}`,
  transactionState: 'Sent',
  payerId: `pyr_${n}`,
  payerName: `Casey "Quote" Payer ${n} \u2603 \n`,
  payerEmail: `payer${n}@example.com`,
  amountCents: 12_345 + n,
  amountPaidCents: 0,
  refundedCents: 0,
  memo: '=HYPERLINK("x") </script>',
  reference: '',
  dueDate: '2026-12-01',
  expiresOn: '2026-12-31',
  allowPartial: n % 2 === 0,
  sendAt: null,
  sentAt: '2026-11-22T18:10:11.238Z',
  paidAt: n % 3 === 0 ? '2026-11-23T09:00:00.000Z' : null,
  createdAt: '2026-11-22T18:10:11.238Z',
  updatedAt: '2026-11-22T18:10:11.238Z',
  invoiceId: n % 4 === 0 ? `inv_${n}` : null,
  invoiceNumber: n % 4 === 0 ? `INV-${String(n).padStart(4, '0')}` : null,
  qrCodeId: n % 5 === 0 ? `qr_${n}` : null,
  qrCodeLabel: n % 5 === 0 ? 'Front counter' : null,
  student: n % 6 === 0 ? { studentId: `stu_${n}`, name: 'Mia "Q" Lopez' } : null,
  program: n % 6 === 0 ? { programId: `prg_${n}`, name: 'Piano' } : null,
  period: n % 6 === 0 ? 'December 2026' : null,
  clientId: n % 7 === 0 ? `pat_${n}` : null,
  patientName: n % 7 === 0 ? 'Ana "Q" Lopez' : null,
  statement:
    n % 7 === 0
      ? {
          dateOfService: '2026-11-20',
          lines: [
            {
              serviceDate: '2026-11-20',
              description: 'Office visit </script>',
              billedCents: 20_000,
              insurancePaidCents: 12_000,
              adjustmentCents: 500,
              responsibilityCents: 7_500,
            },
          ],
          totals: { billedCents: 20_000, insurancePaidCents: 12_000, adjustmentCents: 500, responsibilityCents: 7_500 },
        }
      : null,
  actions: requestActions('Sent'),
  ...overrides,
});

describe('responseSerializer', () => {
  it('writes exactly what zod validation then JSON.stringify would', () => {
    const list = listResponse(PaymentRequest);
    const page = { status: 'Success', data: { items: Array.from({ length: 25 }, (_, i) => item(i)), page: 3, pageSize: 25, total: 1_000_000 } };
    expect(serializerFor(list)(page)).toBe(viaZod(list, page));

    const detail = z.object({ status: z.literal('Success'), data: PaymentRequestDetail });
    const one = {
      status: 'Success',
      data: {
        ...item(7, { transactionState: 'PartiallyPaid', amountPaidCents: 500 }),
        timeline: [{ at: '2026-11-22T18:10:11.238Z', actor: 'owner@example.com', event: 'sent', fromState: 'Draft', toState: 'Sent', detail: null }],
        payments: [],
        channel: 'sms',
        emails: [
          {
            messageId: 'msg_2',
            channel: 'sms',
            to: '+15551234567',
            subject: '',
            delivery: 'delivered',
            attempts: 1,
            lastError: null,
            createdAt: '2026-11-22T18:10:12.238Z',
            sentAt: '2026-11-22T18:10:13.238Z',
          },
          {
            messageId: 'msg_1',
            channel: 'email',
            to: 'pat@example.com',
            subject: 'Reminder: Acme requests $125.00',
            delivery: 'retrying',
            attempts: 2,
            lastError: '421 Try again later',
            createdAt: '2026-11-22T18:10:11.238Z',
            sentAt: null,
          },
        ],
        payLink: 'http://localhost:3000/pay/abc',
        batch: { batchId: 'bat_1', fileName: 'december.csv' },
        payerPhone: '+1 555 010 0123',
        payerNote: null,
      },
    };
    expect(serializerFor(detail)(one)).toBe(viaZod(detail, one));

    const error = {
      status: 'Error',
      errorDetails: { code: 'VALIDATION', message: 'Check the fields.', fields: { amountCents: 'Enter an amount above $0.00.' } },
    };
    expect(serializerFor(ErrorResponse)(error)).toBe(viaZod(ErrorResponse, error));
  });

  it('sends only the declared fields, and refuses a payload missing a required one', () => {
    const list = listResponse(PaymentRequest);
    const leaky = { status: 'Success', data: { items: [{ ...item(1), payTokenHash: 'secret' }], page: 1, pageSize: 25, total: 1, internal: true } };
    const written = serializerFor(list)(leaky);
    expect(written).not.toContain('secret');
    expect(written).not.toContain('internal');
    const { payerEmail: _dropped, ...incomplete } = item(2);
    expect(() => serializerFor(list)({ status: 'Success', data: { items: [incomplete], page: 1, pageSize: 25, total: 1 } })).toThrow(/payerEmail/);
  });

  it('writes any value zod takes, though a stricter validator would refuse it (nullable fields with formats and patterns)', () => {
    const business = (over: Partial<Business['businessProfile']>, rest: Partial<Business> = {}): unknown => ({
      status: 'Success',
      data: {
        businessId: 'biz_1',
        businessName: 'Café Zoë',
        businessState: 'Approved',
        payoutEnabled: 0,
        entities: [{ entityType: 'standard', entityTemplateName: 'Standard' }],
        businessProfile: { legalName: 'Café Zoë LLC', logoUrl: null, ...over },
        address: null,
        owners: [],
        config: {
          timeZone: 'America/New_York',
          defaultExpiryDays: 30,
          reminderSchedule: [-3, 0, 3],
          invoiceTerms: null,
          confirmAboveCents: 1_000_000,
          amountCeilingCents: 1_000_000_000,
          allowNegativeBalance: false,
          timeZoneChosen: false,
        },
        automations: { autoReminders: true, autoExpire: true },
        bankAccount: null,
        submittedAt: null,
        approvedAt: null,
        stateReason: null,
        createdAt: '2026-11-22T18:10:11.238Z',
        updatedAt: '2026-11-22T18:10:11.238Z',
        ...rest,
      },
    });
    const cases = [
      business({ website: 'https://café.example', email: 'a@b-.com' }),
      business({ website: 'https://example.com/a b', ein: '12-3456789', mcc: '8299', phone: null, dbaName: null }),
      business(
        { website: null, email: null },
        {
          address: { line1: '1 Main St', line2: null, city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' },
          bankAccount: {
            directoryId: 'dir_1',
            accountNumber: '••••6789',
            routingNumber: '123456780',
            bankName: 'Tay Sandbox Bank',
            institutionLogo: null,
            accountType: 'checking',
            accountHolderName: 'Café Zoë LLC',
          },
        },
      ),
    ];
    for (const data of cases) {
      expect(() => z.encode(BusinessResponse, data as z.input<typeof BusinessResponse>)).not.toThrow();
      // The same JSON (fast-json-stringify writes required fields before optional ones).
      expect(JSON.parse(serializerFor(BusinessResponse)(data))).toEqual(JSON.parse(viaZod(BusinessResponse, data)));
    }
  });

  it('falls back to zod for a schema JSON Schema cannot express', () => {
    const dated = z.object({ at: z.date() });
    expect(() => serializerFor(dated)({ at: 'not a date' })).toThrow();
  });
});
