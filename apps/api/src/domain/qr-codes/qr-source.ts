import { ErrorCode, type PaymentRequest } from '@tay/contract';
import { AppError } from '../../lib/app-error';
import { referenceNumber, sourceListOf, type RequestRow } from '../payment-requests/request-record';
import type { RequestSource, RequestSourceDefinition } from '../payment-requests/request-source';

/** Payment attempts one device may make through one code in ten minutes (card testing is refused past it; its walk-in requests' links count too). */
export const QR_PAY_ATTEMPTS = { max: 10, windowSeconds: 600 } as const;

/** The source record of a payment through a QR code (ADR 034): the code, its label then, and what the payer gave. */
export function qrSource(code: { id: string; label: string }, payer: { phone: string | null; note: string | null }): RequestSource {
  return {
    kind: 'qr',
    id: code.id,
    number: null,
    record: {
      list: { qrCodeId: code.id, qrCodeLabel: code.label } satisfies Pick<PaymentRequest, 'qrCodeId' | 'qrCodeLabel'>,
      payerPhone: payer.phone,
      payerNote: payer.note,
    },
  };
}

/** The QR code a request was paid through, or null. */
export function qrCodeIdOf(row: Pick<RequestRow, 'source_kind' | 'source_id'>): string | null {
  return row.source_kind === 'qr' ? row.source_id : null;
}

/**
 * A payment through a QR code (ADR 034) is the payer's own: sent to no one, so nothing can be sent,
 * edited or withdrawn; the payer typed their address, which proves nothing about it; tries on its
 * page count against the code's.
 */
export const qrPaymentSource: RequestSourceDefinition = {
  kind: 'qr',
  commandRefusal: (row, _command, verb) =>
    new AppError(ErrorCode.Conflict, `${referenceNumber(row.number)} is a payment through a QR code: it was sent to no one, so it cannot be ${verb}.`),
  editRefusal: () => new AppError(ErrorCode.Conflict, 'This is a payment through a QR code: it cannot be edited.'),
  verifiesPayer: false,
  payAttempts: (row) => ({ key: `qr-pay:${row.source_id}`, limit: QR_PAY_ATTEMPTS }),
  detail: (row) => ({
    payerPhone: (row.source.payerPhone as string | null | undefined) ?? null,
    payerNote: (row.source.payerNote as string | null | undefined) ?? null,
  }),
  exportColumns: [
    { header: 'QR code', at: 'afterSent', value: (row) => (row.source_kind === 'qr' ? ((sourceListOf(row).qrCodeLabel as string | null) ?? '') : '') },
  ],
  filters: [{ param: 'qrId', on: { id: true, any: 'any' } }],
};
