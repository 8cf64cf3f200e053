import type { PaymentRequest } from '@tay/contract';
import { describe, expect, it } from 'vitest';
import { pageMove } from './page-move';

const rows = [{ transactionId: 'req_a' }, { transactionId: 'req_b' }, { transactionId: 'req_c' }] as PaymentRequest[];

describe('pageMove', () => {
  it('asks for the next page after the last row shown', () => {
    expect(pageMove(4, 5, rows)).toEqual({ page: 5, after: 'req_c', before: undefined });
  });
  it('asks for the previous page before the first row shown', () => {
    expect(pageMove(4, 3, rows)).toEqual({ page: 3, before: 'req_a', after: undefined });
  });
  it('goes to page 1 and any jump by number', () => {
    expect(pageMove(2, 1, rows)).toEqual({ page: 1, after: undefined, before: undefined });
    expect(pageMove(2, 40, rows)).toEqual({ page: 40, after: undefined, before: undefined });
    expect(pageMove(1, 2, [])).toEqual({ page: 2, after: undefined, before: undefined });
  });
});
