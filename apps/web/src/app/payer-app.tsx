import { useState } from 'react';
import { createBrowserRouter, RouterProvider, type RouteObject } from 'react-router';
import { PageLoader } from '../components/ui/page-loader';
import { AppProvider } from './provider';
import { payerRoutes } from './payer-routes';
import { RouteErrorBoundary } from './routes/route-error';

/** A path the payer's entry does not draw (a link to the portal, sign-in): the whole app loads it. */
function ElsewhereInTay() {
  window.location.assign(`${window.location.pathname}${window.location.search}${window.location.hash}`);
  return <PageLoader label="Opening Tay" />;
}

const routes: RouteObject[] = [
  {
    errorElement: <RouteErrorBoundary />,
    HydrateFallback: PageLoader,
    children: [payerRoutes, { path: '*', element: <ElsewhereInTay /> }],
  },
];

/**
 * The payer's pages on their own (ADR 047): the portal's providers, none of its pages, session or
 * live updates. A navigation out of `/pay` (a link to the portal) is a full page load.
 */
export function PayerApp() {
  const [router] = useState(() => createBrowserRouter(routes));
  return (
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
