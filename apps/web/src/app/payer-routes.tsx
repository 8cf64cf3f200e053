import type { RouteObject } from 'react-router';
import { page } from './lazy-page';

/**
 * The payer's pages (docs/product.md §2 access rules allow `/pay/*`): no sign-in, outside the
 * portal. One table for both entries: the portal's router (`router.tsx`) and the payer's own
 * (`payer-app.tsx`, ADR 047), which the server sends with the pages' first screen.
 */
export const payerRoutes: RouteObject = {
  path: '/pay',
  ...page(() => import('../components/layout/pay-layout'), 'PayLayout'),
  children: [
    { path: ':token', ...page(() => import('../features/payer-pages/pages/pay-page'), 'PayPage') },
    // What a printed QR code encodes (paths.payQr).
    { path: 'qr/:code', ...page(() => import('../features/payer-pages/pages/qr-pay-page'), 'QrPayPage') },
    { path: ':token/receipt/:paymentId', ...page(() => import('../features/payer-pages/pages/receipt-page'), 'ReceiptPage') },
  ],
};
