import type { PaymentRequest } from '@tay/contract';
import { describe, expect, it } from 'vitest';
import { pageMove } from './page-move';

const items = [{ transactionId: 'req_a' }, { transactionId: 'req_b' }, { transactionId: 'req_c' }] as PaymentRequest[];
const shown = { items, total: 300, pageSize: 25 };

describe('pageMove', () => {
  it('asks for the next page after the last row shown', () => {
    expect(pageMove(4, 5, shown)).toEqual({ page: 5, after: 'req_c', before: undefined });
  });
  it('asks for the previous page before the first row shown', () => {
    expect(pageMove(4, 3, shown)).toEqual({ page: 3, before: 'req_a', after: undefined });
  });
  it('goes to page 1 and any jump by number', () => {
    expect(pageMove(2, 1, shown)).toEqual({ page: 1, after: undefined, before: undefined });
    expect(pageMove(2, 40, shown)).toEqual({ page: 40, after: undefined, before: undefined });
    expect(pageMove(1, 2, { items: [], total: 300, pageSize: 25 })).toEqual({ page: 2, after: undefined, before: undefined });
    expect(pageMove(1, 2, undefined)).toEqual({ page: 2, after: undefined, before: undefined });
  });
  it('from a page past the last one goes by number, whatever rows it shows', () => {
    // 75 rows make 3 pages; rows on "page 4" are not page 4, so they cannot anchor page 3.
    expect(pageMove(4, 3, { items, total: 75, pageSize: 25 })).toEqual({ page: 3, after: undefined, before: undefined });
    expect(pageMove(4, 3, { items: [], total: 75, pageSize: 25 })).toEqual({ page: 3, after: undefined, before: undefined });
  });
});
