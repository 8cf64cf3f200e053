import { ErrorCode, isBusinessEditable } from '@tay/contract';
import { AppError } from '../../lib/app-error';
import type { BusinessRow } from './business-record';

/**
 * Details can change while the business is Incomplete or Approved (contract
 * `BUSINESS_EDITABLE_STATES`). Endpoints refuse other states by their `editable` rule; this
 * repeats the check on the row locked for the change, so a review that starts meanwhile wins.
 */
export function assertEditable(row: Pick<BusinessRow, 'state'>): void {
  if (isBusinessEditable(row.state)) return;
  throw new AppError(
    ErrorCode.Conflict,
    row.state === 'Pending'
      ? 'This business has been submitted and is being reviewed; its details cannot change until the review is finished.'
      : 'This business is disabled, so its details cannot change. Contact Tay support to reactivate it.',
  );
}
