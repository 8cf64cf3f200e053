import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { paths } from '@tay/contract';
import { PublicLayout } from '../components/layout/public-layout';
import { LoginPage } from '../features/auth/pages/login-page';
import { PageLoader } from '../components/ui/page-loader';
import { preloadPagesFrom } from '../lib/page-preload';
import { page } from './lazy-page';
import { payerRoutes } from './payer-routes';
import { RootRoute } from './access-guard';
import { NotFoundPage } from './routes/not-found';
import { RouteErrorBoundary } from './routes/route-error';

/** The id of the `/business` route, whose pages are added on the first visit there (ADR 038). */
const BUSINESS_ROUTE_ID = 'business';

export const routes: RouteObject[] = [
  {
    element: <RootRoute />,
    errorElement: <RouteErrorBoundary />,
    HydrateFallback: PageLoader,
    children: [
      {
        element: <PublicLayout />,
        children: [
          { index: true, element: <Navigate to={paths.login} replace /> },
          { path: paths.login, element: <LoginPage /> },
          { path: paths.signup, ...page(() => import('../features/auth/pages/signup-page'), 'SignupPage') },
          { path: paths.signupConfirmation, ...page(() => import('../features/auth/pages/signup-confirmation-page'), 'SignupConfirmationPage') },
          { path: paths.signupVerified, ...page(() => import('../features/auth/pages/signup-verified-page'), 'SignupVerifiedPage') },
          { path: paths.forgotPassword, ...page(() => import('../features/auth/pages/forgot-password-page'), 'ForgotPasswordPage') },
          { path: paths.newPassword, ...page(() => import('../features/auth/pages/new-password-page'), 'NewPasswordPage') },
          { path: '/pay/verify/:token', ...page(() => import('../features/payers/pages/verify-payer-page'), 'VerifyPayerPage') },
          { path: paths.invitation, ...page(() => import('../features/team/pages/invitation-page'), 'InvitationPage') },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
      payerRoutes,
      {
        // A receiver's secure link and an event's check-in (ADR 035): no sign-in, the payer pages' frame.
        ...page(() => import('../components/layout/pay-layout'), 'PayLayout'),
        children: [
          { path: paths.receiverBankAccount, ...page(() => import('../features/receivers/pages/receiver-bank-account-page'), 'ReceiverBankAccountPage') },
          { path: paths.checkIn, ...page(() => import('../features/events/pages/check-in-page'), 'CheckInPage') },
        ],
      },
      {
        // The shell loads with the first page behind sign-in; its pages' routes too (patchRoutes below).
        id: BUSINESS_ROUTE_ID,
        path: paths.business.root,
        ...page(() => import('./routes/business-shell'), 'BusinessShell'),
      },
    ],
  },
];

/**
 * Adds the business area's routes when a path under `/business` is first visited (a not-found
 * splat matches it until then, so React Router asks). The table of every template's pages is a
 * bundle of its own, not part of the sign-in page's download (ADR 038).
 */
export const patchRoutesOnNavigation: NonNullable<Parameters<typeof createBrowserRouter>[1]>['patchRoutesOnNavigation'] = async ({ path, patch }) => {
  if (path !== paths.business.root && !path.startsWith(`${paths.business.root}/`)) return;
  const { businessRoutes } = await import('./business-routes');
  patch(BUSINESS_ROUTE_ID, businessRoutes);
};

export function createRouter() {
  const router = createBrowserRouter(routes, { patchRoutesOnNavigation });
  // The menu's links preload their pages from this router's routes (lib/page-preload.ts).
  preloadPagesFrom(router);
  return router;
}
