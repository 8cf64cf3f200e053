import { describe, expect, it } from 'vitest';
import { decideAccess, type AccessSession } from './access-rules';

const anonymous: AccessSession = { status: 'anonymous' };
const failed: AccessSession = { status: 'error' };
const loading: AccessSession = { status: 'loading' };
const user = (over: Partial<Extract<AccessSession, { status: 'authenticated' }>> = {}): AccessSession => ({
  status: 'authenticated',
  mustChangePassword: false,
  userState: 'complete',
  businessCount: 1,
  ...over,
});

describe('decideAccess (docs/product.md §2 access rules)', () => {
  it.each<[string, AccessSession, ReturnType<typeof decideAccess>]>([
    // A spinner while loading, wherever the person is.
    ['/business/home', loading, { type: 'spinner' }],
    ['/login', loading, { type: 'spinner' }],
    // Anonymous visitors: business paths need a signed-in user.
    ['/business/home', anonymous, { type: 'redirect', to: '/login' }],
    ['/business/payment/payers', anonymous, { type: 'redirect', to: '/login' }],
    ['/business', anonymous, { type: 'redirect', to: '/login' }],
    ['/login', anonymous, { type: 'allow' }],
    ['/signup', anonymous, { type: 'allow' }],
    ['/signup/verified', anonymous, { type: 'allow' }],
    ['/forgot-password', anonymous, { type: 'allow' }],
    ['/pay/req_123', anonymous, { type: 'allow' }],
    ['/businessman', anonymous, { type: 'allow' }],
    // A failed session check sends the user from business paths to /login.
    ['/business/home', failed, { type: 'redirect', to: '/login' }],
    ['/login', failed, { type: 'allow' }],
    // Signed in on a non-business path: to setup.
    ['/login', user(), { type: 'redirect', to: '/business/setup' }],
    ['/', user(), { type: 'redirect', to: '/business/setup' }],
    ['/signup', user(), { type: 'redirect', to: '/business/setup' }],
    ['/forgot-password', user(), { type: 'redirect', to: '/business/setup' }],
    ['/new-password', user(), { type: 'redirect', to: '/business/setup' }],
    ['/pay/req_123', user(), { type: 'allow' }],
    // An invitation opens signed out (it offers to sign in) and signed in, with or without a business.
    ['/invitation', anonymous, { type: 'allow' }],
    ['/invitation', user(), { type: 'allow' }],
    ['/invitation', user({ businessCount: 0 }), { type: 'allow' }],
    // With a business, /business/profile paths go home.
    ['/business/profile', user(), { type: 'redirect', to: '/business/home' }],
    ['/business/profile/', user(), { type: 'redirect', to: '/business/home' }],
    ['/business/profile/anything', user(), { type: 'redirect', to: '/business/home' }],
    ['/business/home', user(), { type: 'allow' }],
    ['/business/user/profile', user(), { type: 'allow' }],
    // Incomplete user: held on the user profile, from business and other paths alike.
    ['/business/home', user({ userState: 'Incomplete' }), { type: 'redirect', to: '/business/user/profile' }],
    ['/business/profile', user({ userState: 'Incomplete', businessCount: 0 }), { type: 'redirect', to: '/business/user/profile' }],
    ['/login', user({ userState: 'Incomplete' }), { type: 'redirect', to: '/business/user/profile' }],
    ['/business/user/profile', user({ userState: 'Incomplete' }), { type: 'allow' }],
    // No business yet: create it first, the profile pages stay open.
    ['/business/home', user({ businessCount: 0 }), { type: 'redirect', to: '/business/profile' }],
    ['/business/setup', user({ businessCount: 0 }), { type: 'redirect', to: '/business/profile' }],
    ['/business/profile', user({ businessCount: 0 }), { type: 'allow' }],
    ['/business/settings/profile', user({ businessCount: 0 }), { type: 'allow' }],
    ['/login', user({ businessCount: 0 }), { type: 'redirect', to: '/business/setup' }],
    // The new-password challenge holds the person on /new-password.
    ['/business/home', user({ mustChangePassword: true }), { type: 'redirect', to: '/new-password' }],
    ['/business/user/profile', user({ mustChangePassword: true, userState: 'Incomplete' }), { type: 'redirect', to: '/new-password' }],
    ['/login', user({ mustChangePassword: true }), { type: 'redirect', to: '/new-password' }],
    ['/new-password', user({ mustChangePassword: true, userState: null, businessCount: null }), { type: 'allow' }],
    // While the user record loads: a spinner, not a wrong redirect.
    ['/business/home', user({ userState: null, businessCount: null }), { type: 'spinner' }],
  ])('%s → %j', (pathname, session, expected) => {
    expect(decideAccess(pathname, session)).toEqual(expected);
  });
});
