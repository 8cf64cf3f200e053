import { describe, expect, it } from 'vitest';
import {
  canApply,
  csvCell,
  csvDollars,
  csvRow,
  payerActions,
  REQUEST_TRANSITIONS,
  RequestState,
  requestActions,
  showingSummary,
  type RequestEvent,
} from '../index';

describe('request state machine', () => {
  const allowed: Record<RequestEvent, [string[], string[]]> = {
    send: [['Draft'], ['Sent']],
    schedule: [['Draft'], ['Pending']],
    scheduledSend: [['Pending'], ['Sent']],
    resend: [['Sent', 'Resent', 'Expired', 'Rejected'], ['Resent']],
    withdraw: [['Sent', 'Resent'], ['Withdrawn']],
    cancel: [['Pending'], ['Cancelled']],
    payerPays: [['Sent', 'Resent', 'PartiallyPaid', 'Error'], ['Accepted']],
    paymentSettles: [['Accepted'], ['Paid', 'PartiallyPaid']],
    paymentFails: [['Accepted'], ['Error', 'PartiallyPaid']],
    paymentReturned: [
      ['Paid', 'PartiallyPaid', 'Accepted'],
      ['Error', 'PartiallyPaid', 'Accepted'],
    ],
    payerDeclines: [['Sent', 'Resent'], ['Rejected']],
    expire: [['Sent', 'Resent', 'Error'], ['Expired']],
  };

  it('allows exactly the moves of docs/product.md §4, for every event and every pair of states', () => {
    for (const [event, [from, to]] of Object.entries(allowed) as [RequestEvent, [string[], string[]]][]) {
      for (const a of RequestState.options) {
        expect(canApply(event, a), `${event} from ${a}`).toBe(from.includes(a));
        for (const b of RequestState.options) {
          expect(canApply(event, a, b), `${event}: ${a} → ${b}`).toBe(from.includes(a) && to.includes(b));
        }
      }
    }
    expect(Object.keys(REQUEST_TRANSITIONS).sort()).toEqual(Object.keys(allowed).sort());
  });

  it('final states accept no person-driven move', () => {
    for (const state of ['Paid', 'Withdrawn', 'Cancelled'] as const) {
      for (const event of ['send', 'schedule', 'resend', 'withdraw', 'cancel', 'payerDeclines', 'expire'] as const) {
        expect(canApply(event, state)).toBe(false);
      }
    }
  });

  it('gives the row actions of each state', () => {
    expect(requestActions('Draft')).toEqual(['Edit', 'Copy', 'Delete']);
    expect(requestActions('Pending')).toEqual(['Edit', 'Cancel', 'Copy']);
    expect(requestActions('Sent')).toEqual(['Resend', 'Withdraw', 'Copy']);
    expect(requestActions('Resent')).toEqual(['Resend', 'Withdraw', 'Copy']);
    expect(requestActions('Expired')).toEqual(['Resend', 'Copy']);
    expect(requestActions('Rejected')).toEqual(['Resend', 'Copy']);
    expect(requestActions('Paid')).toEqual(['View/Download', 'Copy']);
    expect(requestActions('PartiallyPaid')).toEqual(['View/Download', 'Copy']);
    for (const s of ['Accepted', 'Error', 'Withdrawn', 'Cancelled'] as const) expect(requestActions(s)).toEqual(['Copy']);
  });
});

describe('payer actions', () => {
  it('follow status, verification and history', () => {
    expect(payerActions({ status: 'active', verification: 'unverified', transactionCount: 0 })).toEqual([
      'Edit',
      'Request to Pay',
      'Transactions',
      'Deactivate',
      'Resend verification',
      'Delete',
    ]);
    expect(payerActions({ status: 'Disabled', verification: 'verified', transactionCount: 3 })).toEqual(['Edit', 'Transactions', 'Activate', 'Re-verify']);
  });
});

describe('table summary (docs/product.md §9)', () => {
  it.each([
    [1, 25, 0, 'Showing 0 to 0 of 0 Results'],
    [1, 25, 7, 'Showing 1 to 7 of 7 Results'],
    [2, 25, 60, 'Showing 26 to 50 of 60 Results'],
    [3, 25, 60, 'Showing 51 to 60 of 60 Results'],
    // Past the last page (its rows were deleted): nothing shown, never "26 to 25".
    [2, 25, 25, 'Showing 0 to 0 of 25 Results'],
    [9, 10, 61, 'Showing 0 to 0 of 61 Results'],
    [0, 25, 60, 'Showing 1 to 25 of 60 Results'],
  ])('page %i, %i a page, %i rows', (page, size, total, text) => expect(showingSummary(page, size, total)).toBe(text));
});

describe('CSV cells', () => {
  it('neutralises formulas and quotes what needs quoting', () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvCell('+1 555')).toBe("'+1 555");
    expect(csvCell('-2')).toBe("'-2");
    // An amount the server worked out is written as the number it is; nothing else passes as one.
    expect(csvCell(csvDollars(-2_000))).toBe('-20.00');
    expect(csvCell(csvDollars(12_345))).toBe('123.45');
    expect(() => csvCell({ amount: '=1+2' })).toThrow(RangeError);
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell(-2)).toBe('-2');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell(null)).toBe('');
    expect(csvRow(['Ana', 1250, 'x"y'])).toBe('Ana,1250,"x""y"');
  });
});
