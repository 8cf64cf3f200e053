import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { paths } from '@tay/contract';
import { BusinessLayout } from '../components/layout/business-layout';
import { PayLayout } from '../components/layout/pay-layout';
import { PublicLayout } from '../components/layout/public-layout';
import { ForgotPasswordPage } from '../features/auth/pages/forgot-password-page';
import { LoginPage } from '../features/auth/pages/login-page';
import { NewPasswordPage } from '../features/auth/pages/new-password-page';
import { SignupConfirmationPage } from '../features/auth/pages/signup-confirmation-page';
import { SignupPage } from '../features/auth/pages/signup-page';
import { SignupVerifiedPage } from '../features/auth/pages/signup-verified-page';
import { AddBankAccountPage } from '../features/business/pages/add-bank-account-page';
import { AddressPage } from '../features/business/pages/address-page';
import { AutomationsPage } from '../features/business/pages/automations-page';
import { ConfigPage } from '../features/business/pages/config-page';
import { CreateBusinessPage } from '../features/business/pages/create-business-page';
import { HomePage } from '../features/business/pages/home-page';
import { LinkAccountPage } from '../features/business/pages/link-account-page';
import { OwnersPage } from '../features/business/pages/owners-page';
import { PaymentProfilePage } from '../features/business/pages/payment-profile-page';
import { PaymentsSetupPage } from '../features/business/pages/payments-setup-page';
import { SetupOverviewPage } from '../features/business/pages/setup-overview-page';
import { SetupProfilePage } from '../features/business/pages/setup-profile-page';
import { ImportPayersPage } from '../features/payers/pages/import-payers-page';
import { PayerFormPage } from '../features/payers/pages/payer-form-page';
import { PayerTransactionsRoute } from './routes/payer-transactions-route';
import { PayersPage } from '../features/payers/pages/payers-page';
import { PaymentsLandingPage } from '../features/payments/pages/payments-landing-page';
import { RequestFormPage } from '../features/payments/pages/request-form-page';
import { TransactionsPage } from '../features/payments/pages/transactions-page';
import { UserProfilePage } from '../features/profile/pages/user-profile-page';
import { SettingsProfilePage } from '../features/settings/pages/settings-profile-page';
import { PageLoader } from '../components/ui/page-loader';
import { RootRoute } from './access-guard';
import { NotFoundPage } from './routes/not-found';
import { RouteErrorBoundary } from './routes/route-error';

/**
 * A page loaded on first visit, in its own bundle: a payer opening a payment link does not
 * download the portal.
 */
function page<M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string, props?: Record<string, unknown>) {
  return {
    lazy: async () => {
      const Page = (await load())[name] as ComponentType<Record<string, unknown>>;
      return { Component: props ? () => <Page {...props} /> : Page };
    },
  };
}

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
          { path: paths.signup, element: <SignupPage /> },
          { path: paths.signupConfirmation, element: <SignupConfirmationPage /> },
          { path: paths.signupVerified, element: <SignupVerifiedPage /> },
          { path: paths.forgotPassword, element: <ForgotPasswordPage /> },
          { path: paths.newPassword, element: <NewPasswordPage /> },
          { path: '/pay/verify/:token', ...page(() => import('../features/payers/pages/verify-payer-page'), 'VerifyPayerPage') },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
      {
        // The payer's pages: outside the portal, no sign-in (spec §2 access rules allow /pay/*).
        path: '/pay',
        element: <PayLayout />,
        children: [
          { path: ':token', ...page(() => import('../features/pay/pages/pay-page'), 'PayPage') },
          { path: ':token/receipt/:paymentId', ...page(() => import('../features/pay/pages/receipt-page'), 'ReceiptPage') },
        ],
      },
      {
        path: '/business',
        element: <BusinessLayout />,
        children: [
          { index: true, element: <Navigate to={paths.business.home} replace /> },
          { path: 'home', element: <HomePage /> },
          { path: 'user/profile', element: <UserProfilePage /> },
          { path: 'profile', element: <CreateBusinessPage /> },
          { path: 'settings/profile', element: <SettingsProfilePage /> },
          { path: 'setup', element: <SetupOverviewPage /> },
          { path: 'setup/profile', element: <SetupProfilePage /> },
          { path: 'owner', element: <OwnersPage /> },
          { path: 'setup/address', element: <AddressPage /> },
          { path: 'setup/config', element: <ConfigPage /> },
          { path: 'setup/automations', element: <AutomationsPage /> },
          { path: 'setup/payments', element: <PaymentsSetupPage /> },
          { path: 'setup/payment/add-bank-account', element: <AddBankAccountPage /> },
          { path: 'setup/payment/link-account', element: <LinkAccountPage /> },
          { path: 'setup/payment/profile', element: <PaymentProfilePage /> },
          { path: 'payment', element: <PaymentsLandingPage /> },
          { path: 'payment/request', element: <RequestFormPage /> },
          { path: 'payment/transactions/history', element: <TransactionsPage view="history" /> },
          { path: 'payment/transactions/draft', element: <TransactionsPage view="draft" /> },
          { path: 'payment/payers', element: <PayersPage /> },
          { path: 'payment/payers/add', element: <PayerFormPage /> },
          { path: 'payment/payers/import', element: <ImportPayersPage /> },
          { path: 'payment/payers/transactions', element: <PayerTransactionsRoute /> },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
