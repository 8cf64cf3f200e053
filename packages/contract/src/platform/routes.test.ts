import { describe, expect, it } from 'vitest';
import { isClientRoute } from './routes';

describe('isClientRoute', () => {
  it.each(['/', '/login', '/signup', '/signup/verified', '/business/home', '/business/payment/payers/add', '/pay/abc', '/login/'])(
    '%s is a page of the app',
    (path) => expect(isClientRoute(path)).toBe(true),
  );

  it.each(['/dev/mail', '/nope', '/admin', '/businessx', '/api/health', '/loginx'])('%s is not', (path) =>
    expect(isClientRoute(path)).toBe(false),
  );
});
