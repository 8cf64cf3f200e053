import { describe, expect, it } from 'vitest';
import { getHref, isClientRoute, paths } from './routes';

describe('isClientRoute', () => {
  it.each(['/', '/login', '/signup', '/signup/verified', '/business/home', '/business/payment/payers/add', '/pay/abc', '/login/'])(
    '%s is a page of the app',
    (path) => expect(isClientRoute(path)).toBe(true),
  );

  it.each(['/dev/mail', '/nope', '/admin', '/businessx', '/api/health', '/loginx'])('%s is not', (path) => expect(isClientRoute(path)).toBe(false));
});

describe('getHref', () => {
  it('fills the path and encodes the query, leaving empty values out', () => {
    expect(getHref(paths.payments.history, undefined, { transid: 'req 1&x', copy: false, payerId: undefined })).toBe(
      '/business/payment/transactions/history?transid=req%201%26x',
    );
    expect(getHref(paths.payReceipt, { token: 'a/b', paymentId: 'pay_1' })).toBe('/pay/a%2Fb/receipt/pay_1');
    expect(getHref(paths.payments.request, undefined, { transid: 'req_1', copy: true })).toBe('/business/payment/request?transid=req_1&copy=true');
  });

  it('refuses a path whose parameter is missing', () => {
    expect(() => getHref(paths.payPage)).toThrow('Missing path parameter "token"');
  });
});
